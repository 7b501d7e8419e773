"""``--select`` and `Z`: the selected instance, its partners and the near miss the inspector
names all in view below the notes (issue: IC15 img_111 ``--select gt:1`` at 1366x768 cut the
near-miss detection off at the right edge)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QRectF

from tests.support import wait_evaluated, write_zip
from viewer.app.main_window import MainWindow
from viewer.app.paths import DatasetPaths
from viewer.widgets.inspector import describe

# IC15 img_111's GT 1 and its near miss, det 1 (IoU 0.425): the detection reaches far to the
# right of the word and past the frame of the GTs; a far word makes the whole-image fit small
GT = "157,132,221,151,220,195,158,185,DEFY\n600,600,700,600,700,640,600,640,FAR\n"
DET = "286,209,147,175,157,133,296,167\n"


def _on_screen(canvas, box: tuple[float, float, float, float]) -> tuple[float, ...]:
    x0, y0, x1, y1 = box
    r = canvas.mapFromScene(QRectF(x0, y0, x1 - x0, y1 - y0)).boundingRect()
    return r.left(), r.top(), r.right() + 1, r.bottom() + 1


@pytest.mark.parametrize("size", [(1366, 768), (1600, 900)])
def test_select_shows_the_near_miss_whole(qtbot, tmp_path: Path, size: tuple[int, int]) -> None:
    gt = write_zip(tmp_path / "gt.zip", {"gt_img_1.txt": GT})
    det = write_zip(tmp_path / "det.zip", {"res_img_1.txt": DET})
    w = MainWindow(restore_layout=False)
    qtbot.addWidget(w)
    w.resize(*size)
    w.show()
    assert w.open_paths(DatasetPaths(str(gt), str(det)))
    wait_evaluated(qtbot, w.session)
    w.session.set_metric("ic15_iou")
    c = w.canvas
    c.fit()
    fitted = c.transform().m11()
    w.session.select(("gt", 0))
    assert "near miss" in describe(w.session, ("gt", 0))  # det 1, named by the inspector
    c.zoom_to_selection()
    assert c.transform().m11() > 1.5 * fitted  # zoomed in on the word, not the whole frame
    vp, top = c.viewport().rect(), c.fit_target()[2]
    for box in ((157, 132, 221, 195), (147, 133, 296, 209)):  # the GT and its near miss
        x0, y0, x1, y1 = _on_screen(c, box)
        said = (size, box, (x0, y0, x1, y1), vp.getRect(), top)
        assert x0 >= 0 and x1 <= vp.width(), said
        assert top <= y0 and y1 <= vp.height(), said
    # neighbours in view: a margin of half the group's size where the viewport allows
    x0, _, x1, _ = _on_screen(c, (147, 132, 296, 209))
    assert x0 > 0.1 * (x1 - x0) and vp.width() - x1 > 0.1 * (x1 - x0)
