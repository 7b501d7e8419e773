"""The cases of ``hardening_campaign.py``: issue 30's nine attacks in variants of their own.

Each case is a ``detlens`` command run in a sandbox folder (``in/`` the inputs, ``out/`` the
only place it may write); ``{S}`` in an argument is the sandbox. See the campaign's docstring
for what is checked.
"""

from __future__ import annotations

import io
import json
import os
import stat
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

Setup = Callable[[Path], None]
QUAD = [[10, 10], [60, 10], [60, 40], [10, 40]]
DEMO = Path(__file__).resolve().parents[1] / "resources" / "demo"


@dataclass
class Case:
    group: str
    name: str
    argv: list[str]
    files: dict[str, bytes] = field(default_factory=dict)
    setup: Setup | None = None
    timeout: float = 90.0
    signal: tuple[str, float] | None = None  # (SIGTERM, delay in s) sent to the parent
    watch: list[str] = field(default_factory=list)  # nodes that must keep their kind
    beside: list[str] = field(default_factory=list)  # output folders holding inputs: add only
    exits: tuple[int, ...] = (0, 1, 2)


def _canon(ids: list[str], **extra: object) -> bytes:
    box = {"points": QUAD, "box_type": "QUAD", "text": "w"}
    det = {"points": QUAD, "box_type": "QUAD", "confidence": 0.9, **extra}
    samples = [{"id": i, "gt": [box], "det": [det]} for i in ids]
    return json.dumps({"format": "detlens", "version": 1, "samples": samples}).encode()


def _hiertext(image_id: str, vertices: object = QUAD) -> bytes:
    word = {"vertices": vertices, "legible": True, "text": "w"}
    line = {"vertices": vertices, "legible": True, "text": "w", "words": [word]}
    para = {"vertices": vertices, "legible": True, "lines": [line]}
    ann = {"image_id": image_id, "image_width": 100, "image_height": 100, "paragraphs": [para]}
    return json.dumps({"annotations": [ann]}).encode()


ESCAPES = [
    "../../esc_a",
    "..\\..\\esc_b",
    "C:/esc_c",
    "C:\\esc_d",
    "/tmp/h30abs_e/x",
    "a\x00b",
    "x" * 5000,
    "y" * 255,
    ".",
    "..",
    "",
    " ",
    "sub/../../../esc_f",
    "~/esc_g",
    "\x1b]0;title\x07esc",
    "line\nbreak",
    "all",  # the input's own name (in/all.json): never replaced
    "con",
    "-rf",
]


def export_ids() -> Iterator[Case]:
    """Attack 1: sample ids as file names (detlens JSON, HierText), every writing command."""
    for k, sid in enumerate(ESCAPES):
        ids = [sid, "ok_1"]
        files = {"in/all.json": _canon(ids)}
        tag = f"id{k}"
        yield Case(
            "export-ids",
            f"{tag} export",
            ["export", "--gt", "in/all.json", "--det", "in/all.json", "--out", "out/shots"],
            files,
        )
        yield Case(
            "export-ids",
            f"{tag} export next to input",
            [
                "export",
                "--gt",
                "in/all.json",
                "--det",
                "in/all.json",
                "--out",
                "in",
                "--allow-next-to-inputs",
            ],
            files,
            beside=["in"],
        )
        yield Case(
            "export-ids",
            f"{tag} report",
            ["report", "--gt", "in/all.json", "--det", "in/all.json", "--out", "out/rep"],
            files,
        )
        yield Case(
            "export-ids",
            f"{tag} convert icdar",
            [
                "convert",
                "--gt",
                "in/all.json",
                "--det",
                "in/all.json",
                "--to",
                "icdar",
                "out/c.zip",
            ],
            files,
        )
    yield Case(
        "export-ids",
        "case-only ids export",
        ["export", "--gt", "in/all.json", "--det", "in/all.json", "--out", "out/shots"],
        {"in/all.json": _canon(["Img", "img", "IMG"])},
    )
    for k, sid in enumerate(["../../ht_esc", "/tmp/h30abs_h/x", "a\x00b", "z" * 3000, "gt"]):
        files = {"in/gt.json": _hiertext(sid), "in/det.json": _hiertext(sid)}
        for cmd in (["export", "--out", "out/shots"], ["report", "--out", "out/rep"]):
            yield Case(
                "export-ids",
                f"hiertext{k} {cmd[0]}",
                [cmd[0], "--gt", "in/gt.json", "--det", "in/det.json", *cmd[1:]],
                files,
            )


def _mknod(name: str, major: int, minor: int) -> Setup:
    def make(root: Path) -> None:
        os.mknod(root / name, 0o666 | stat.S_IFCHR, os.makedev(major, minor))

    return make


def _fifo(root: Path) -> None:
    os.mkfifo(root / "fifo")


def _links(root: Path) -> None:
    (root / "dangling").symlink_to(root / "nowhere" / "x.json")
    (root / "in" / "target.json").write_text("{}")
    (root / "link").symlink_to(root / "in" / "target.json")
    (root / "adir").mkdir()
    (root / "ro").mkdir()
    (root / "ro").chmod(0o555)


TARGETS = {
    "/dev/stdout": None,
    "/dev/stderr": None,
    "{S}/nulldev": _mknod("nulldev", 1, 3),
    "{S}/fulldev": _mknod("fulldev", 1, 7),
    "{S}/fifo": _fifo,
    "{S}/dangling": _links,
    "{S}/link": _links,
    "{S}/adir": _links,
    "{S}/ro/x.json": _links,
    "{S}/missing/deeper/x.json": None,
}
_DEMO_IN = ["--gt", str(DEMO / "gt"), "--det", str(DEMO / "det_a")]


def outputs() -> Iterator[Case]:
    """Attack 2: outputs onto devices, FIFOs, links, folders (mknod copies, never /dev/null)."""
    commands = {
        "eval --json": ["eval", *_DEMO_IN, "--metric", "tiou", "-q", "--json"],
        "eval --csv": ["eval", *_DEMO_IN, "--metric", "tiou", "-q", "--csv"],
        "eval --instances": ["eval", *_DEMO_IN, "--metric", "tiou", "-q", "--instances"],
        "check --json": ["check", *_DEMO_IN, "--json"],
        "compare --json": [
            "compare",
            "--gt",
            str(DEMO / "gt"),
            "--det",
            str(DEMO / "det_a"),
            "--det",
            str(DEMO / "det_b"),
            "--resamples",
            "50",
            "--json",
        ],
        "convert json": ["convert", *_DEMO_IN, "--to", "json"],
        "convert icdar": ["convert", *_DEMO_IN, "--to", "icdar"],
        "report --out": ["report", *_DEMO_IN, "--worst", "2", "--out"],
    }
    for target, setup in TARGETS.items():
        watch = [target] if target.startswith("{S}") else []
        for name, argv in commands.items():
            yield Case(
                "outputs", f"{name} {target}", [*argv, target], setup=setup, watch=watch, timeout=60
            )


def _sparse(name: str, size: int) -> Setup:
    def make(root: Path) -> None:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "wb") as f:
            f.write(b"0,0,10,0,10,10,0,10,w\n")
            f.truncate(size)

    return make


def _zip_member(name: str, size: int) -> Setup:
    def make(root: Path) -> None:
        buf = io.BytesIO()
        line = b"0,0,10,0,10,10,0,10,w\n" * 4096
        with (
            zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z,
            z.open("gt_img_1.txt", "w", force_zip64=True) as m,
        ):
            for _ in range(size // len(line)):
                m.write(line)
        (root / name).write_bytes(buf.getvalue())

    return make


def _gz(root: Path) -> None:
    import gzip

    with gzip.open(root / "in" / "gt.txt.gz", "wb") as f:
        f.write(b"0,0,10,0,10,10,0,10,w\n" * (2_000_000))


def huge() -> Iterator[Case]:
    """Attack 3: files over the size cap, given directly, in folders, in zips, gzipped."""
    sets = {
        "40 MB file": ("in/gt_img_1.txt", _sparse("in/gt_img_1.txt", 40 << 20)),
        "10 GB sparse file": ("in/gt_img_1.txt", _sparse("in/gt_img_1.txt", 10 << 30)),
        "10 GB sparse in folder": ("in", _sparse("in/gt_img_1.txt", 10 << 30)),
        "40 MB zip member": ("in/gt.zip", _zip_member("in/gt.zip", 40 << 20)),
        "44 MB gz": ("in/gt.txt.gz", _gz),
        "40 MB JSON": ("in/big.json", _sparse("in/big.json", 40 << 20)),
    }
    for name, (path, setup) in sets.items():
        for cmd in (
            ["eval", "--metric", "tiou", "-q"],
            ["check"],
            ["convert", "--to", "json", "out/c.json"],
        ):
            yield Case(
                "huge",
                f"{name} {cmd[0]}",
                [cmd[0], "--gt", path, "--det", path, *cmd[1:]],
                setup=setup,
                timeout=60,
            )


NUMBERS = [
    "0",
    "-1",
    "2",
    "1000",
    "1001",
    "100000000",
    "99999999999999999999999",
    "1e309",
    "nan",
    "-inf",
    "abc",
    "0.5",
    "9" * 5000,
]
OPTIONS = [
    ["eval", *_DEMO_IN, "--metric", "tiou", "-q", "--sweep", "--sweep-points"],
    ["eval", *_DEMO_IN, "--metric", "tiou", "-q", "--workers"],
    [
        "compare",
        "--gt",
        str(DEMO / "gt"),
        "--det",
        str(DEMO / "det_a"),
        "--det",
        str(DEMO / "det_b"),
        "--resamples",
        "20",
        "--top",
    ],
    [
        "compare",
        "--gt",
        str(DEMO / "gt"),
        "--det",
        str(DEMO / "det_a"),
        "--det",
        str(DEMO / "det_b"),
        "--resamples",
    ],
    [
        "compare",
        "--gt",
        str(DEMO / "gt"),
        "--det",
        str(DEMO / "det_a"),
        "--det",
        str(DEMO / "det_b"),
        "--resamples",
        "20",
        "--seed",
    ],
    ["check", *_DEMO_IN, "--show"],
    ["export", *_DEMO_IN, "--out", "out/x", "--worst"],
    ["report", *_DEMO_IN, "--out", "out/r", "--worst"],
    ["gallery", *_DEMO_IN, "--out", "out/g", "--max"],
    ["eval", *_DEMO_IN, "--metric", "tiou", "-q", "--set", "tiou.score_threshold="],
    ["eval", *_DEMO_IN, "--metric", "tiou", "-q", "--set", "tiou.tolerance="],
    ["eval", *_DEMO_IN, "--metric", "ic15_iou", "-q", "--set", "iou_threshold="],
]
VIEW = ["view", *_DEMO_IN, "--screenshot", "out/v.png"]


def numeric_options() -> Iterator[Case]:
    """Attack 3 (bounds) and 8: every numeric option at and beyond its bounds."""
    for argv in OPTIONS:
        for value in NUMBERS:
            last = argv[-1]
            args = [*argv[:-1], last + value] if last.endswith("=") else [*argv, value]
            yield Case("numbers", f"{argv[0]} {last} {value[:12]}", args, timeout=60)
    for value in ["0x0", "1x1", "100000x100000", "-5x10", "1e309x2", "abc", "99999999999x2"]:
        yield Case("numbers", f"view --size {value}", [*VIEW, "--size", value], timeout=60)
    for value in ["2", "-1", "nan", "1e309", "0.5"]:
        yield Case(
            "numbers",
            f"view --score-threshold {value}",
            [*VIEW, "--score-threshold", value],
            timeout=60,
        )


JSON_VALUES = [
    "1e309",
    "-1e309",
    "1" + "0" * 5000,
    "1" + "0" * 400,
    "[" * 100_000 + "]" * 100_000,
    "NaN",
    "-Infinity",
]


def _json_formats(v: str) -> dict[str, dict[str, str]]:
    box = f"[[{v},10],[60,10],[60,40],[10,40]]"
    flat = f"[{v},10,60,10,60,40,10,40]"
    ok = "[[10,10],[60,10],[60,40],[10,40]]"
    canon = (
        '{{"format": "detlens", "version": 1, "samples": [{{"id": "a", "gt": [{{"points":'
        ' {b}, "text": "w"}}], "det": [{{"points": {o}, "confidence": {c}}}]}}]}}'
    )
    ht = (
        '{{"annotations": [{{"image_id": "i1", "image_width": 100, "image_height": 100, '
        '"paragraphs": [{{"legible": true, "vertices": {b}, "lines": [{{"text": "l", '
        '"legible": true, "vertices": {b}, "words": [{{"text": "w", "legible": true, '
        '"vertices": {b}}}]}}]}}]}}]}}'
    )
    mm_gt = (
        '{{"metainfo": {{}}, "data_list": [{{"img_path": "img_1.jpg", "height": 100, '
        '"width": 100, "instances": [{{"polygon": {f}, "bbox": [10,10,60,40], '
        '"bbox_label": 0, "ignore": false}}]}}]}}'
    )
    doctr = (
        '{{"pages": [{{"page_idx": 0, "dimensions": [100, 100], "blocks": [{{"geometry": '
        '[[0.1,0.1],[0.6,0.4]], "lines": [{{"geometry": [[0.1,0.1],[0.6,0.4]], "words": '
        '[{{"value": "w", "confidence": {c}, "geometry": [[{g},0.1],[0.6,0.4]]}}]}}]}}]}}]}}'
    )
    art = '{{"res_1": [{{"points": {b}, "confidence": {c}, "transcription": "w"}}]}}'
    art_gt = '{{"gt_1": [{{"points": {o}, "transcription": "w", "illegibility": false}}]}}'
    paddle = 'img_1.jpg\t[{{"transcription": "w", "points": {b}}}]\n'
    return {
        "detlens coord": {"in/all.json": canon.format(b=box, o=ok, c="0.9")},
        "detlens confidence": {"in/all.json": canon.format(b=ok, o=ok, c=v)},
        "hiertext": {"in/gt.json": ht.format(b=box), "in/det.json": ht.format(b=ok)},
        "mmocr gt": {"in/gt.json": mm_gt.format(f=flat)},
        "mmocr scores": {
            "in/gt.json": mm_gt.format(f="[10,10,60,10,60,40,10,40]"),
            "in/det/img_1.json": f'{{"det_polygons": [[10,10,60,10,60,40,10,40]],'
            f' "det_scores": [{v}]}}',
        },
        "doctr coord": {
            "in/gt.json": mm_gt.format(f="[10,10,60,10,60,40,10,40]"),
            "in/det/img_1.json": doctr.format(c="0.9", g=v),
        },
        "doctr confidence": {
            "in/gt.json": mm_gt.format(f="[10,10,60,10,60,40,10,40]"),
            "in/det/img_1.json": doctr.format(c=v, g="0.1"),
        },
        "art": {"in/gt.json": art_gt.format(o=ok), "in/det.json": art.format(b=box, c="0.9")},
        "art confidence": {"in/gt.json": art_gt.format(o=ok), "in/det.json": art.format(b=ok, c=v)},
        "paddle": {"in/gt.txt": paddle.format(b=box)},
    }


def _sides(files: dict[str, str]) -> list[str]:
    names = list(files)
    gt = names[0]
    det = names[1] if len(names) > 1 else names[0]
    det = str(Path(det).parent) if det.startswith("in/det/") else det
    return ["--gt", gt, "--det", det]


def json_numbers() -> Iterator[Case]:
    """Attack 4: huge, non-finite and deep JSON values in every JSON reader."""
    for k, value in enumerate(JSON_VALUES):
        for fmt, files in _json_formats(value).items():
            raw = {n: t.encode() for n, t in files.items()}
            for cmd in (["eval", "--metric", "all", "-q"], ["check"]):
                yield Case("json", f"{fmt} v{k} {cmd[0]}", [cmd[0], *_sides(files), *cmd[1:]], raw)


CURVED_VALUES = ["nan", "inf", "-inf", "1e400", "1e10", "9" * 400, "-0", "0x1F", "1_0"]


def curved() -> Iterator[Case]:
    """Attack 5: non-finite numbers in every curved reader, GT and detection side."""
    for k, v in enumerate(CURVED_VALUES):
        sets = {
            "totaltext": {
                "in/gt/poly_gt_img11.txt": f"x: [[{v} 60 60 10]], y: [[10 10 40 40]]"
                ", ornt: [u'm'], transcriptions: [u'word']\n",
                "in/det/img11.txt": f"{v},10,60,10,60,40,10,40\n",
            },
            "ctw1500 txt": {
                "in/gt/1001.txt": f"{v},10,60,10,60,40,10,40,####HELLO\n",
                "in/det/1001.txt": "10,10,60,10,60,40,10,40\n",
            },
            "ctw1500 det": {
                "in/gt/1001.txt": "10,10,60,10,60,40,10,40,####HELLO\n",
                "in/det/1001.txt": f"10,10,60,10,60,40,{v},40\n",
            },
            "ctw1500 xml": {
                "in/gt/0200.xml": '<Annotations><image file="0200.jpg"><box '
                'height="20" left="10" top="10" width="30"><label>A</label><segs>'
                f"{v},10,60,10,60,40,10,40</segs></box></image></Annotations>"
            },
            "msra": {"in/gt/IMG_0059.gt": f"0 0 {v} 10 50 30 0\n"},
            "msra angle": {"in/gt/IMG_0059.gt": f"0 0 10 10 50 30 {v}\n"},
        }
        for fmt, files in sets.items():
            raw = {n: t.encode() for n, t in files.items()}
            gt = str(Path(next(iter(files))).parent)
            det = ["--det", "in/det"] if any(n.startswith("in/det/") for n in files) else []
            for cmd in (["eval", "--metric", "all", "-q"], ["check"]):
                yield Case(
                    "curved", f"{fmt} v{k} {cmd[0]}", [cmd[0], "--gt", gt, *det, *cmd[1:]], raw
                )


STATES = [
    '{"params": ' + "[" * 100_000 + "]" * 100_000 + "}",
    '{"zoom": 1e309}',
    '{"zoom": ' + "9" * 5000 + "}",
    '{"metric": "tiou", "params": {"tolerance": 2}}',
    '{"metric": "tiou", "params": {"tolerance": -1e309}}',
    '{"metric": "ic15_iou", "params": {"iou_threshold": ' + "1" * 4200 + "}}",
    '{"score_threshold": -0.5}',
    '{"surprise": 1}',
    '{"sample": "../../x", "select": "det:99999999999999999999"}',
    '{"layers": ["gt", "nope"], "names": ["a", "b", "c"]}',
    "[1, 2]",
    "\xff\xfe{}",
]


def states() -> Iterator[Case]:
    """Attack 6: view state files (the viewer must refuse in one line, never abort)."""
    for k, text in enumerate(STATES):
        files = {"in/s.json": text.encode("latin-1") if k == len(STATES) - 1 else text.encode()}
        yield Case(
            "states",
            f"state {k}",
            ["view", *_DEMO_IN, "--state", "in/s.json", "--screenshot", "out/v.png"],
            files,
            timeout=60,
        )
    yield Case(
        "states",
        "FIFO among images",
        ["view", *_DEMO_IN, "--images", "in/imgs", "--screenshot", "out/v.png"],
        setup=_fifo_images,
        timeout=60,
    )
    yield Case(
        "states",
        "FIFO among images check",
        ["check", *_DEMO_IN, "--images", "in/imgs"],
        setup=_fifo_images,
        timeout=60,
    )
    yield Case(
        "states",
        "FIFO among images export",
        ["export", *_DEMO_IN, "--images", "in/imgs", "--out", "out/x", "--worst", "2"],
        setup=_fifo_images,
        timeout=60,
    )


def _fifo_images(root: Path) -> None:
    imgs = root / "in" / "imgs"
    imgs.mkdir(parents=True)
    os.mkfifo(imgs / "img_1.jpg")
    (imgs / "img_2.jpg").write_bytes((DEMO / "images" / "img_2.jpg").read_bytes())


def signals(big: Path) -> Iterator[Case]:
    """Attack 7: SIGTERM / SIGHUP to the parent of workers and of long commands."""
    gt, det = str(big / "gt.zip"), str(big / "det.zip")
    runs = {
        "eval --workers 2": [
            "eval",
            "--gt",
            gt,
            "--det",
            det,
            "--metric",
            "all",
            "-q",
            "--workers",
            "2",
            "--json",
            "out/r.json",
        ],
        "eval --workers 2 (sharded)": [
            "eval",
            "--gt",
            gt,
            "--det",
            det,
            "--metric",
            "tiou",
            "-q",
            "--workers",
            "2",
            "--json",
            "out/r.json",
        ],
        "compare": [
            "compare",
            "--gt",
            gt,
            "--det",
            det,
            "--det",
            "{S}/in/det2.zip",
            "--json",
            "out/c.json",
        ],
        "report": ["report", "--gt", gt, "--det", det, "--out", "out/rep"],
    }

    def copy(root: Path) -> None:
        (root / "in" / "det2.zip").write_bytes(Path(det).read_bytes())

    for name, argv in runs.items():
        for sig in ("SIGTERM", "SIGHUP", "SIGINT"):
            for delay in (0.7, 2.5):
                yield Case(
                    "signals",
                    f"{name} {sig} {delay}",
                    argv,
                    setup=copy,
                    signal=(sig, delay),
                    timeout=120,
                )


ODD = {
    "zero-area quad": "10,10,10,10,10,10,10,10",
    "one point": "10,10",
    "two points": "10,10,50,10",
    "collinear quad": "10,10,20,10,30,10,40,10",
    "bow-tie": "0,0,10,10,10,0,0,10",
}


def odd_data() -> Iterator[Case]:
    """Attack 8: zero-area, one-point and two-point boxes in every format, every command."""
    for name, coords in ODD.items():
        nums = [int(v) for v in coords.split(",")]
        pts = [[nums[i], nums[i + 1]] for i in range(0, len(nums), 2)]
        xs = " ".join(str(p[0]) for p in pts)
        ys = " ".join(str(p[1]) for p in pts)
        sets = {
            "icdar": {
                "in/gt/gt_img_1.txt": f"{coords},word\n20,20,60,20,60,40,20,40,ok\n",
                "in/det/res_img_1.txt": f"{coords}\n20,20,60,20,60,40,20,40\n",
            },
            "icdar dc": {
                "in/gt/gt_img_1.txt": f"{coords},###\n",
                "in/det/res_img_1.txt": "20,20,60,20,60,40,20,40\n",
            },
            "icdar det only": {"in/gt/gt_img_1.txt": "", "in/det/res_img_1.txt": f"{coords}\n"},
            "totaltext": {
                "in/gt/poly_gt_img11.txt": f"x: [[{xs}]], y: [[{ys}]], ornt: [u'm'],"
                " transcriptions: [u'word']\n",
                "in/det/img11.txt": f"{coords}\n",
            },
            "ctw1500": {
                "in/gt/1001.txt": f"{coords},####HELLO\n",
                "in/det/1001.txt": f"{coords}\n",
            },
            "detlens": {
                "in/all.json": json.dumps(
                    {
                        "format": "detlens",
                        "version": 1,
                        "samples": [
                            {
                                "id": "a",
                                "gt": [{"points": pts, "text": "w"}],
                                "det": [{"points": pts, "confidence": 0.5}],
                            }
                        ],
                    }
                )
            },
            "hiertext": {
                "in/gt.json": _hiertext("i1", pts).decode(),
                "in/det.json": _hiertext("i1", pts).decode(),
            },
            "paddle": {
                "in/gt.txt": f'img_1.jpg\t[{{"transcription": "w", "points": {pts}}}]\n',
                "in/det.txt": f'img_1.jpg\t[{{"transcription": "", "points": {pts}}}]\n',
            },
        }
        for fmt, files in sets.items():
            raw = {n: t.encode() for n, t in files.items()}
            names = list(files)
            gt = (
                names[0]
                if names[0].endswith((".json", ".txt")) and "/gt/" not in names[0]
                else str(Path(names[0]).parent)
            )
            det = (
                names[-1]
                if len(names) > 1 and "/det/" not in names[-1]
                else str(Path(names[-1]).parent)
            )
            sides = ["--gt", gt, "--det", det]
            cmds = [
                ["check"],
                ["eval", "--metric", "all", "-q"],
                ["report", "--out", "out/r"],
                ["export", "--out", "out/x"],
                ["convert", "--to", "json", "out/c.json"],
            ]
            for cmd in cmds:
                yield Case(
                    "odd", f"{name} {fmt} {cmd[0]}", [cmd[0], *sides, *cmd[1:]], raw, timeout=60
                )
