"""Each image is fitted when shown: every box of a comparison whole in both canvases, centred
below the notes, without scrollbars, at 1366x768 and after a resize (issue: Total-Text img1
compared came out cut off at the bottom and right, under a wide empty band)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QRectF

from metrics.io.demo import demo_paths
from tests.support import demo_dataset_paths, rect, wait_evaluated, write_zip
from viewer.app.main_window import MainWindow
from viewer.app.paths import DatasetPaths
from viewer.scene.items import bounds
from viewer.widgets.canvas import CanvasView


def _quad(x0: int, y0: int, x1: int, y1: int, dx: int = 0) -> str:
    """A slanted quad (a word at an angle) of the box x0..x1, y0..y1."""
    return f"{x0 + dx},{y0},{x1},{y0},{x1 - dx},{y1},{x0},{y1}"


def _no_image_set(tmp: Path) -> tuple[DatasetPaths, str]:
    """Images without picture whose words lie far from the origin (at the bottom right of
    their frame, as in Total-Text img1), next to the origin, and in a wide strip."""
    gt = {
        "gt_img_1.txt": f"{_quad(140, 629, 646, 1009, 60)},WORD\n",
        "gt_img_2.txt": f"{rect(10, 12, 90, 40)},AB\n{rect(20, 60, 70, 90)},CD\n",
        "gt_img_3.txt": f"{rect(30, 400, 250, 430)},LEFT\n{rect(900, 405, 1250, 440)},RIGHT\n",
    }
    det_a = {
        "res_img_1.txt": f"{_quad(98, 720, 665, 981, 80)}\n",
        "res_img_2.txt": f"{rect(12, 14, 88, 40)}\n",
        "res_img_3.txt": f"{rect(31, 401, 250, 431)}\n{rect(1180, 380, 1270, 450)}\n",
    }
    det_b = {
        "res_img_1.txt": f"{_quad(140, 630, 653, 1015, 60)}\n",
        "res_img_2.txt": f"{rect(10, 12, 90, 40)}\n{rect(20, 60, 72, 92)}\n",
        "res_img_3.txt": f"{rect(900, 405, 1250, 440)}\n",
    }
    paths = DatasetPaths(
        str(write_zip(tmp / "gt.zip", gt)), str(write_zip(tmp / "det_a.zip", det_a))
    )
    return paths, str(write_zip(tmp / "det_b.zip", det_b))


def _window(qtbot, paths: DatasetPaths, det_b: str) -> MainWindow:
    w = MainWindow(restore_layout=False)
    qtbot.addWidget(w)
    w.resize(1366, 768)
    w.show()
    assert w.open_paths(paths)
    wait_evaluated(qtbot, w.session)
    assert w.session.add_detections(det_b)
    qtbot.waitUntil(
        lambda: bool(w.session.b.evaluations) and not w.session.is_busy(), timeout=60000
    )
    return w


def _boxes_frame_on_screen(w: MainWindow, canvas: CanvasView) -> tuple[float, ...]:
    """The extent of every box of both sides, in the canvas's viewport pixels."""
    sid = w.session.sample_id
    found = [bounds(s) for side in w.session.sides if side and (s := side.sample(sid))]
    x0, y0 = min(b[0] for b in found), min(b[1] for b in found)
    x1, y1 = max(b[2] for b in found), max(b[3] for b in found)
    r = canvas.mapFromScene(QRectF(x0, y0, x1 - x0, y1 - y0)).boundingRect()
    return r.left(), r.top(), r.right() + 1, r.bottom() + 1


def _assert_fitted(w: MainWindow, where: str) -> None:
    for canvas in (w.canvas, w.canvas_b):
        vp = canvas.viewport().rect()
        top = canvas.fit_target()[2]  # the name tag and the banner cover the top
        x0, y0, x1, y1 = _boxes_frame_on_screen(w, canvas)
        said = (where, w.session.sample_id, canvas.side, (x0, y0, x1, y1), vp.getRect(), top)
        assert not canvas.horizontalScrollBar().isVisible(), said
        assert not canvas.verticalScrollBar().isVisible(), said
        assert x0 >= 4 and x1 <= vp.width() - 4, said  # whole, with room for the pens
        assert y0 >= top + 4 and y1 <= vp.height() - 4, said
        # centred: the empty room is shared on both sides, not a band on one
        assert abs(x0 - (vp.width() - x1)) <= 3, said
        assert abs((y0 - top) - (vp.height() - y1)) <= 3, said


@pytest.mark.parametrize("data", ["no image", "demo"])
def test_a_comparison_fits_every_box_in_both_canvases(qtbot, tmp_path: Path, data: str) -> None:
    if data == "demo":
        paths, det_b = demo_dataset_paths("a"), str(demo_paths().det_b)
    else:
        paths, det_b = _no_image_set(tmp_path)
    w = _window(qtbot, paths, det_b)
    assert w.canvas_b.isVisible()
    for sid in w.samples.visible_ids()[:6]:
        w.session.set_sample(sid)
        qtbot.wait(30)
        _assert_fitted(w, "1366x768")
    w.resize(1600, 900)  # stays fitted through a resize
    qtbot.wait(60)
    _assert_fitted(w, "1600x900")
    w.canvas.zoom(2.0)  # zoomed, the scrollbars say where the view is; a fit hides them
    qtbot.wait(30)
    assert w.canvas.horizontalScrollBar().isVisible()
    w.canvas.fit()
    qtbot.wait(30)
    _assert_fitted(w, "fit after zoom")
