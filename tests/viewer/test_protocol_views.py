"""The protocols' own states drawn as such: a swept metric's threshold (shown at the best,
changeable), detections under it, VOC's "best GT already taken", skipped invalid polygons."""

from __future__ import annotations

from pathlib import Path

from tests.support import wait_evaluated, write_zip
from viewer.app.main_window import MainWindow
from viewer.app.paths import DatasetPaths
from viewer.scene.overlay import instance_items
from viewer.scene.palette import StyleKey
from viewer.widgets.inspector import describe

QUAD_A = "0,0,100,0,100,20,0,20"
POLY_A = "0,0,50,0,100,0,100,20,50,20,0,20"


def _window(qtbot, gt: dict[str, str], det: dict[str, str], tmp_path: Path) -> MainWindow:
    w = MainWindow()
    qtbot.addWidget(w)
    w.resize(1600, 900)
    w.show()
    paths = DatasetPaths(
        str(write_zip(tmp_path / "gt.zip", gt)), str(write_zip(tmp_path / "det.zip", det))
    )
    assert w.open_paths(paths)
    wait_evaluated(qtbot, w.session)
    return w


def _det_styles(w: MainWindow) -> list[StyleKey]:
    s = w.session
    return [it.style for it in instance_items(s.sample(), s.result()) if it.layer == "det"]


def test_sweep_is_shown_at_its_best_threshold_and_can_be_changed(qtbot, tmp_path: Path) -> None:
    w = _window(
        qtbot,
        {"gt_img_1.txt": f"{QUAD_A},WORD\n"},
        {"res_img_1.txt": f"{QUAD_A},0.95\n300,0,400,0,400,20,300,20,0.35\n"},
        tmp_path,
    )
    s = w.session
    s.set_metric("mmocr_hmean_iou")
    # best: 0.4 (the 0.35 false positive is dropped there), shown by default
    assert s.result().hmean == 1.0
    assert _det_styles(w) == [StyleKey.DET_MATCHED, StyleKey.DET_BELOW_THRESHOLD]
    assert "under the shown score threshold" in describe(s, ("det", 1))
    assert "images shown at 0.40" in w.summary.text()
    assert w.params.threshold.isVisible() and "(reported: best)" in w.params.threshold.itemText(1)
    w.params.threshold.setCurrentIndex(0)  # 0.30: the false positive counts
    assert s.result().precision == 0.5
    assert _det_styles(w) == [StyleKey.DET_MATCHED, StyleKey.DET_FALSE_POSITIVE]
    assert "images shown at 0.30" in w.summary.text()


def test_voc_false_positive_whose_best_gt_was_taken(qtbot, tmp_path: Path) -> None:
    shifted = "2,0,52,0,102,0,102,20,52,20,2,20"
    w = _window(
        qtbot,
        {"gt_img1.txt": f"{POLY_A},WORD\n"},
        {"img1.txt": f"{POLY_A}\n{shifted}\n"},
        tmp_path,
    )
    w.session.set_metric("totaltext_voc")
    assert _det_styles(w) == [StyleKey.DET_MATCHED, StyleKey.DET_FP_GT_TAKEN]
    assert "best GT was already taken" in describe(w.session, ("det", 1))


def test_skipped_invalid_polygon_is_drawn_not_evaluated(qtbot, tmp_path: Path) -> None:
    bowtie = "0,0,100,20,100,0,0,20"
    w = _window(
        qtbot,
        {"gt_img_1.txt": f"{QUAD_A},WORD\n"},
        {"res_img_1.txt": f"{QUAD_A}\n{bowtie}\n"},
        tmp_path,
    )
    w.session.set_metric("paddleocr_det_iou")
    assert _det_styles(w) == [StyleKey.DET_MATCHED, StyleKey.DET_NONE]
    assert "skipped by the protocol" in describe(w.session, ("det", 1))
