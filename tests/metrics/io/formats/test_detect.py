"""Auto-detection of formats from content: mixed sides, forced formats, and what a path that
holds no known format says (never a silent empty dataset)."""

from __future__ import annotations

from pathlib import Path

import pytest

from metrics.cli.main import main
from metrics.core.model import InputError
from metrics.io.archive import Member
from metrics.io.formats import FORMATS, TEXT_FORMATS
from metrics.io.formats.detect import detect
from tests.metrics.io.formats_support import load, write, zipped

QUAD = "10,10,50,10,50,30,10,30"


@pytest.mark.parametrize(
    ("name", "content", "role", "expected"),
    [
        ("gt_1.txt", f"{QUAD},word\n", "gt", "icdar"),
        ("gt_1.txt", f"{QUAD},Latin,word\n", "gt", "mlt"),
        ("res_1.txt", f"{QUAD},Latin,word\n", "det", "icdar"),
        ("gt_1.txt", f'{QUAD},0,"word"\n', "gt", "rctw"),
        ("1001.txt", f"{QUAD},####word\n", "gt", "ctw1500_txt"),
        ("1001.txt", f"{QUAD},CARE\n", "gt", "icdar"),
        (
            "img1.txt",
            "x: [[1 2 3]], y: [[1 2 3]], ornt: [u'h'], transcriptions: [u'a']\n",
            "gt",
            "totaltext",
        ),
        ("IMG_1.gt", "0 0 1 2 3 4 0.5\n", "gt", "msra_td500"),
        ("label.txt", 'a.jpg\t[{"points": [[1, 2], [3, 4], [5, 6]]}]\n', "gt", "paddle"),
        ("a.json", '{"det_polygons": [], "det_scores": []}', "det", "mmocr_pred"),
        ("a_res.json", '{"input_path": "a.jpg", "dt_polys": []}', "det", "paddle_res"),
        ("a.json", '{"imgs": {}, "anns": {}}', "gt", "cocotext"),
        ("a.json", '{"annotations": [{"image_id": "a", "paragraphs": []}]}', "det", "hiertext"),
        ("a.json", '{"gt_1": [{"points": [[1, 2]], "illegibility": false}]}', "gt", "art"),
        ("a.json", '{"pages": [{"dimensions": [1, 1], "blocks": []}]}', "det", "doctr"),
        ("a.json", '{"format": "detlens", "samples": []}', "det", "json"),
        ("a.json", '{"metainfo": {}, "data_list": []}', "gt", "mmocr"),
    ],
)
def test_detected_from_content(
    tmp_path: Path, name: str, content: str, role: str, expected: str
) -> None:
    path = write(tmp_path, name, content)
    assert detect(path, role).format.name == expected  # type: ignore[arg-type]


def test_unknown_json_says_what_was_found_and_expected(tmp_path: Path) -> None:
    path = write(tmp_path, "x.json", {"boxes": [1], "image": "a.jpg"})
    with pytest.raises(InputError) as caught:
        detect(path, "gt")
    msg = str(caught.value.problems[0])
    assert "not a GT file of any known format: found" in msg
    assert "JSON, an object with keys 'boxes', 'image'" in msg
    assert "expected one of: json, mlt" in msg and "--gt-format" in msg


def test_folder_without_readable_files(tmp_path: Path) -> None:
    write(tmp_path, "det/notes.md", "hello")
    with pytest.raises(InputError) as caught:
        detect(tmp_path / "det", "det")
    assert "no detection files found" in str(caught.value)


def test_folder_where_no_file_parsed_as_detections(tmp_path: Path) -> None:
    gt = write(tmp_path, "gt/gt_img_1.txt", f"{QUAD},a\n").parent
    write(tmp_path, "det/img_1.json", {"det_polygons": "nope", "det_scores": []})
    ds = load(gt, tmp_path / "det")  # parsed, with its error located
    assert [str(p).split("error: ")[1] for p in ds.problems] == ["det_polygons: is not a list"]
    ds = None
    write(tmp_path, "det2/img_1.json", '{"det_polygons": [')
    with pytest.raises(InputError) as caught:
        ds = load(gt, tmp_path / "det2", det_format="mmocr_pred")
    assert ds is None
    assert "no file parsed as detections" in str(caught.value)
    assert "img_1.json:1: error: not valid JSON" in str(caught.value.problems[0])


def test_forced_format_that_cannot_hold_the_side(tmp_path: Path) -> None:
    path = write(tmp_path, "gt_1.txt", f"{QUAD},a\n")
    with pytest.raises(InputError) as caught:
        detect(path, "det", forced="mlt")
    assert "format 'mlt' cannot hold detections" in str(caught.value)


def test_mixed_sides_icdar_zip_and_json(tmp_path: Path) -> None:
    gt = zipped(tmp_path / "gt.zip", {"gt_img_1.txt": f"{QUAD},a\n", "gt_img_2.txt": ""})
    det = write(
        tmp_path,
        "preds.json",
        {
            "predictions": [
                {
                    "img_path": "img_1.jpg",
                    "det_polygons": [[10, 10, 50, 10, 50, 30, 10, 30]],
                    "det_scores": [0.5],
                }
            ]
        },
    )
    ds = load(gt, det)
    assert [len(s.det) for s in ds] == [1, 0]
    assert ds["img_2"].det_source is None


def test_icdar_zip_of_both_sides_splits_by_prefix(tmp_path: Path) -> None:
    both = zipped(tmp_path / "both.zip", {"gt_img_1.txt": f"{QUAD},a\n", "res_img_1.txt": QUAD})
    ds = load(both, both)
    assert len(ds) == 1 and len(ds["img_1"].gt) == 1 and len(ds["img_1"].det) == 1


def test_cli_format_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    far = "110,10,150,10,150,30,110,30"
    gt = write(tmp_path, "gt/gt_img_1.txt", f"{far},Latin,###\n{QUAD},Latin,a\n").parent
    det = write(tmp_path, "det/res_img_1.txt", f"{QUAD}\n").parent
    argv = ["eval", "--gt", str(gt), "--det", str(det), "--metric", "ic15_iou"]
    assert main(argv) == 0
    assert _row(capsys.readouterr().out) == ["1.0000", "1.0000", "1.0000"]
    assert main([*argv, "--gt-format", "icdar"]) == 0  # forced: the script read as text
    assert _row(capsys.readouterr().out) == ["0.5000", "1.0000", "0.6667"]
    with pytest.raises(SystemExit) as stop:
        main([*argv, "--gt-format", "nope"])
    assert stop.value.code == 2
    assert "invalid choice: 'nope'" in capsys.readouterr().err


def _row(out: str) -> list[str]:
    return next(ln.split()[1:] for ln in out.splitlines() if ln.startswith("ic15_iou"))


def test_cli_format_names_are_the_readers() -> None:
    from metrics.cli.format_options import FORMAT_NAMES
    from metrics.io.formats import BY_NAME

    assert tuple(BY_NAME) == FORMAT_NAMES


def test_text_formats_are_every_format_that_reads_text() -> None:
    """Detection shows a file that does not start as JSON to ``TEXT_FORMATS`` only (the JSON
    readers are then not loaded): every other format scores 0 on such files, and the list
    keeps ``FORMATS``' order, which breaks ties."""
    text = [
        f"{QUAD},word\n",
        f"{QUAD},Latin,word\n",
        f'{QUAD},0,"word"\n',
        f"{QUAD},####word\n",
        "x: [[1 2 3]], y: [[1 2 3]], ornt: [u'h'], transcriptions: [u'a']\n",
        "0 0 1 2 3 4 0.5\n",
        'a.jpg\t[{"points": [[1, 2], [3, 4], [5, 6]]}]\n',
        "<annotations><image file='1.jpg'><box><label>a</label></box></image></annotations>",
        '\ufeff  "pages": [], {"a": 1}\n',
    ]
    members = [Member(f"{k}.txt", f"{k}.txt", t.encode()) for k, t in enumerate(text)]
    assert tuple(f for f in FORMATS if f in TEXT_FORMATS) == TEXT_FORMATS
    for fmt in FORMATS:
        if fmt not in TEXT_FORMATS:
            for role in fmt.roles:
                assert all(not fmt.sniff(m, role) for m in members), fmt.name
