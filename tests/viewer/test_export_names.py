"""Issue 30, point 1: ``export`` and ``report`` write every file inside ``--out``, whatever
the sample ids say (``../../escape``, an absolute path, the input's own name)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from metrics.cli.main import main

QUAD = [[10, 10], [50, 10], [50, 30], [10, 30]]


def _doc(*ids: str) -> dict[str, object]:
    box = {"points": QUAD, "box_type": "QUAD", "text": "ab"}
    return {
        "format": "detlens",
        "version": 1,
        "samples": [{"id": i, "gt": [box], "det": [box]} for i in ids],
    }


def _files(root: Path) -> set[Path]:
    return {p for p in root.rglob("*") if p.is_file()}


@pytest.mark.parametrize("sid", ["../../escape", "/tmp/detlens-escape-test", "..", "a\x1b[2Jb"])
def test_export_writes_inside_out_whatever_the_id(qtbot, tmp_path: Path, sid: str) -> None:
    src = tmp_path / "a" / "b" / "in.json"
    src.parent.mkdir(parents=True)
    src.write_text(json.dumps(_doc(sid, "img_2")))
    out = tmp_path / "a" / "b" / "out" / "shots"
    before = _files(tmp_path)
    code = main(
        ["export", "--gt", str(src), "--det", str(src), "--metric", "iou", "--out", str(out)]
    )
    assert code == 0
    new = _files(tmp_path) - before
    assert new and all(out in p.parents for p in new), sorted(map(str, new))
    assert not Path("/tmp/detlens-escape-test.png").exists()
    assert json.loads(src.read_text())["samples"][0]["id"] == sid  # the input unchanged


def test_export_never_writes_over_its_input(
    qtbot, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "in.json"
    text = json.dumps(_doc("in", "img_2"))
    src.write_text(text)
    argv = ["export", "--gt", str(src), "--det", str(src), "--metric", "iou"]
    code = main([*argv, "--out", str(tmp_path), "--allow-next-to-inputs"])
    assert code == 2 and "input" in capsys.readouterr().err
    assert src.read_text() == text and not (tmp_path / "in.png").exists()


def test_report_thumbnails_stay_inside_out(qtbot, tmp_path: Path) -> None:
    src = tmp_path / "a" / "b" / "in.json"
    src.parent.mkdir(parents=True)
    src.write_text(json.dumps(_doc("../../../../escape", "img_2")))
    out = tmp_path / "a" / "b" / "rep"
    before = _files(tmp_path)
    code = main(
        ["report", "--gt", str(src), "--det", str(src), "--metric", "iou", "--out", str(out)]
    )
    assert code == 0
    new = _files(tmp_path) - before
    assert new and all(out in p.parents for p in new), sorted(map(str, new))


def test_report_on_detections_without_any_gt_box(
    qtbot, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 30, point 8: the size buckets of a set without GT boxes (IndexError before)."""
    for k in (1, 2):
        (tmp_path / "gt").mkdir(exist_ok=True)
        (tmp_path / "det").mkdir(exist_ok=True)
        (tmp_path / "gt" / f"gt_img_{k}.txt").write_text("")
        (tmp_path / "det" / f"res_img_{k}.txt").write_text("10,10,50,10,50,30,10,30,0.9\n")
    out = tmp_path / "rep"
    argv = ["report", "--gt", str(tmp_path / "gt"), "--det", str(tmp_path / "det")]
    assert main([*argv, "--metric", "iou", "--out", str(out)]) == 0
    assert "IndexError" not in (out / "index.html").read_text()
