"""``detlens compare``'s shared options: ``--csv``, ``--policy``, ``--workers``, ``--images``."""

from __future__ import annotations

import csv
import json
import struct
import zipfile
import zlib
from pathlib import Path

import pytest

from metrics.analysis.compare import COMPARISON_COLUMNS
from metrics.cli.main import main
from metrics.io.demo import demo_paths


def _zip(path: Path, files: dict[str, str]) -> str:
    with zipfile.ZipFile(path, "w") as z:
        for name, text in files.items():
            z.writestr(name, text)
    return str(path)


@pytest.fixture
def sets(tmp_path: Path) -> tuple[str, str, str]:
    """A GT of two images; A reads whole; B's second file has a line that is no box."""
    gt = _zip(
        tmp_path / "gt.zip",
        {
            "gt_img_1.txt": "10,10,50,10,50,30,10,30,hello\n60,60,90,60,90,80,60,80,world\n",
            "gt_img_2.txt": "10,10,50,10,50,30,10,30,hello\n",
        },
    )
    a = _zip(
        tmp_path / "a.zip",
        {
            "res_img_1.txt": "10,10,50,10,50,30,10,30\n",
            "res_img_2.txt": "10,10,50,10,50,30,10,30\n",
        },
    )
    b = _zip(
        tmp_path / "b.zip",
        {
            "res_img_1.txt": "60,60,90,60,90,80,60,80\n",
            "res_img_2.txt": "abc,10,50,10,50,30,10,30\n",
        },
    )
    return gt, a, b


def test_strict_refuses_and_names_the_option_it_offers(
    sets: tuple[str, str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    gt, a, b = sets
    assert main(["compare", "--gt", gt, "--det", a, "--det", b, "--metric", "iou"]) == 2
    err = capsys.readouterr().err
    assert "b.zip:res_img_2.txt:1" in err and "skip_sample" in err
    with pytest.raises(SystemExit) as exc:  # the advice names an option compare takes
        main(["compare", "--help"])
    assert exc.value.code == 0 and "--policy {strict,skip_sample}" in capsys.readouterr().out


def test_skip_sample_compares_the_rest_and_the_csv_says_what_was_left_out(
    sets: tuple[str, str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gt, a, b = sets
    out_csv, out_json = tmp_path / "c.csv", tmp_path / "c.json"
    args = ["compare", "--gt", gt, "--det", a, "--det", b, "--metric", "iou"]
    args += ["--policy", "skip_sample", "--csv", str(out_csv), "--json", str(out_json)]
    assert main([*args, "--resamples", "0"]) == 0
    text = capsys.readouterr().out
    assert "on the 1 of 2 images both evaluated" in text
    rows = list(csv.reader(out_csv.open(encoding="utf-8")))
    assert tuple(rows[0]) == COMPARISON_COLUMNS
    head = dict(zip(COMPARISON_COLUMNS, rows[1], strict=True))
    one = dict(zip(COMPARISON_COLUMNS, rows[2], strict=True))
    gone = dict(zip(COMPARISON_COLUMNS, rows[3], strict=True))
    assert len(rows) == 4
    # img_1: A finds GT 1 (hello), B finds GT 2 (world): H 0.667 each, delta 0
    assert (one["sample"], one["gt_found_by_a_only"], one["gt_found_by_b_only"]) == (
        "img_1",
        "1",
        "2",
    )
    assert float(one["hmean_a"]) == pytest.approx(2 / 3) and float(one["delta_hmean"]) == 0.0
    # the global row covers the compared image only, as the printed table and the JSON
    data = json.loads(out_json.read_text())
    assert head["sample"] == "*" and float(head["hmean_b"]) == data["b"]["hmean"]
    assert gone["sample"] == "img_2" and gone["hmean_a"] == ""
    assert (
        gone["left_out"].startswith("not evaluated by B: ")
        and "res_img_2.txt:1" in gone["left_out"]
    )


def test_two_workers_compare_as_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    outs = []
    for n in (1, 2):
        out = tmp_path / f"w{n}.csv"
        assert main(["compare", "--csv", str(out), "--workers", str(n), "--resamples", "50"]) == 0
        outs.append(out.read_bytes())
    capsys.readouterr()
    assert outs[0] == outs[1] and outs[0].count(b"\n") == 1 + 1 + 12


def test_output_and_images_mistakes_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    same = str(tmp_path / "x")
    assert main(["compare", "--json", same, "--csv", same]) == 2
    assert "named for two outputs" in capsys.readouterr().err
    d = demo_paths()
    gt = str(d.gt)
    assert main(["compare", "--csv", gt]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    assert main(["compare", "--images", str(tmp_path / "none")]) == 2
    assert "--images" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        main(["compare", "--workers", "0"])
    assert exc.value.code == 2


def _png(path: Path, w: int, h: int) -> None:
    """A grey PNG of w x h (what ``metrics.check.image_sizes`` reads is its header)."""
    raw = b"".join(b"\x00" + b"\x80" * w for _ in range(h))

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    head = struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0)
    path.write_bytes(
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", head)
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


def test_images_that_do_not_fit_are_said(
    sets: tuple[str, str, str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    gt, a, _ = sets
    folder = tmp_path / "images"
    folder.mkdir()
    for name in ("img_1", "img_2"):  # 20 x 20: the GT boxes reach to x 90
        _png(folder / f"{name}.png", 20, 20)
    args = ["compare", "--gt", gt, "--det", a, "--det", a, "--metric", "iou"]
    assert main([*args, "--images", str(folder), "--resamples", "0"]) == 0
    assert "the images do not fit the GT" in caplog.text  # said (a warning), then compared
    assert "2 images" in capsys.readouterr().out
