"""Float coordinates in the viewer (issue 26, point 1): evaluated as given, the summary
says how many boxes had them; ``--floats`` reaches the viewer through its paths."""

from __future__ import annotations

from pathlib import Path

from tests.support import wait_evaluated
from viewer.app.main_window import MainWindow
from viewer.app.paths import DatasetPaths


def _set(tmp_path: Path, dx: float) -> tuple[Path, Path]:
    gt, det = tmp_path / "gt", tmp_path / "det"
    gt.mkdir()
    det.mkdir()
    (gt / "gt_img_1.txt").write_text("0,0,10,0,10,10,0,10,word\n")
    (det / "res_img_1.txt").write_text(f"{dx},0,{10 + dx},0,{10 + dx},10,{dx},10\n")
    return gt, det


def _window(qtbot, paths: DatasetPaths) -> MainWindow:
    w = MainWindow()
    qtbot.addWidget(w)
    w.resize(1366, 768)
    w.show()
    assert w.open_paths(paths)
    wait_evaluated(qtbot, w.session)
    return w


def test_floats_are_scored_as_given_and_said(qtbot, tmp_path: Path) -> None:
    gt, det = _set(tmp_path, 3.6)  # IoU 64/136 < 0.5 as given; truncated to 3: a match
    w = _window(qtbot, DatasetPaths(str(gt), str(det)))
    text = w.summary.text()
    assert "1 of 1 detections have non-integer coordinates: evaluated as given" in text
    ev = w.session.evaluation()
    assert ev is not None and ev.excluded == () and ev.recall == 0.0  # IoU 0.47: missed


def test_floats_truncate_reaches_the_viewer(qtbot, tmp_path: Path) -> None:
    gt, det = _set(tmp_path, 3.6)
    w = _window(qtbot, DatasetPaths(str(gt), str(det), floats="truncate"))
    assert "truncated toward zero when read" in w.summary.text()
    ev = w.session.evaluation()
    assert ev is not None and ev.recall > 0.3  # IoU 70/130: matched (TIoU credit)
