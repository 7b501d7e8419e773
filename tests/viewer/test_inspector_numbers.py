"""The inspector's numbers follow the one rule (``metrics.core.numbers``): a credit, a near
miss, a ratio with 4 decimals; a count as an integer; areas in pixels. It printed
"credit 0" and "credit 1" (4 significant digits) next to "best iou 0.425" and a table of
"0.000" / "1.000"."""

from __future__ import annotations

import re
from pathlib import Path

from tests.support import wait_evaluated, write_zip
from viewer.app.main_window import MainWindow
from viewer.app.paths import DatasetPaths
from viewer.widgets.inspector import _fmt, describe

GT = "157,132,221,151,220,195,158,185,DEFY\n0,300,100,300,100,340,0,340,OK\n"
DET = "286,209,147,175,157,133,296,167\n0,300,100,300,100,340,0,340\n"


def test_credits_near_misses_and_the_table_have_four_decimals(qtbot, tmp_path: Path) -> None:
    gt = write_zip(tmp_path / "gt.zip", {"gt_img_1.txt": GT})
    det = write_zip(tmp_path / "det.zip", {"res_img_1.txt": DET})
    w = MainWindow(restore_layout=False)
    qtbot.addWidget(w)
    w.show()
    assert w.open_paths(DatasetPaths(str(gt), str(det)))
    wait_evaluated(qtbot, w.session)
    w.session.set_metric("ic15_iou")
    missed = describe(w.session, ("gt", 0))
    assert "credit 0.0000" in missed
    assert re.search(r"near miss: best iou 0\.\d{4} with", missed), missed
    assert re.search(r"refused, IoU 0\.\d{4} ≤ 0\.5", missed), missed  # the same value
    matched = describe(w.session, ("gt", 1))
    assert "credit 1.0000" in matched
    assert "iou 1.0000" in matched  # the match's values
    cells = re.findall(r"<td align=right>([^<]*)</td>", matched)  # every metric's credit
    assert cells and all(re.fullmatch(r"\d\.\d{4}", c) for c in cells), cells


def test_values_by_kind() -> None:
    assert _fmt("iou", 1.0) == "1.0000"
    assert _fmt("tiou_recall", 0.4251777) == "0.4252"
    assert _fmt("found", 3.0) == "3"  # characters found: a count
    assert _fmt("intersection", 3960.3) == "3,960.3"  # an area, in pixels
