"""Explaining decisions: the pair matrix, the inspector's links and "why it lost", clicking
through overlapping instances and zooming to the selection."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QDockWidget

from tests.support import wait_evaluated, write_zip
from viewer.app.main_window import MainWindow
from viewer.app.paths import DatasetPaths
from viewer.widgets.inspector import describe


def _window(qtbot, paths: DatasetPaths) -> MainWindow:
    w = MainWindow()
    qtbot.addWidget(w)
    w.resize(1600, 900)
    w.show()
    assert w.open_paths(paths)
    wait_evaluated(qtbot, w.session)
    w.findChild(QDockWidget, "Pair matrix").raise_()  # its tab in front: it follows the image
    return w


def _merge_data(tmp_path: Path) -> DatasetPaths:
    """IC13 style: two words, one detection over both (DetEval merges them and discards the
    one-to-one and split candidates on the way, spec 2.6 E4)."""
    gt = write_zip(tmp_path / "gt.zip", {"gt_img_1.txt": "0,0,99,19,ABCDE\n110,0,209,19,FGH\n"})
    det = write_zip(tmp_path / "det.zip", {"res_img_1.txt": "0,0,209,19\n"})
    return DatasetPaths(str(gt), str(det))


def test_pair_matrix_of_a_deteval_image_lists_discarded_candidates(qtbot, tmp_path: Path) -> None:
    w = _window(qtbot, _merge_data(tmp_path))
    w.session.set_metric("deteval")
    m = w.pairs.model
    assert m.rowCount() == 2 and m.columnCount() == 1
    assert m.headerData(0, Qt.Orientation.Vertical) == "GT 1 “ABCDE”"
    assert m.headerData(0, Qt.Orientation.Horizontal) == "det 1"
    cell = m.index(0, 0)
    assert m.data(cell) == "1.00"  # GT 1 lies wholly inside the merged box
    tip = m.data(cell, Qt.ItemDataRole.ToolTipRole)
    assert "matched (MO)" in tip and "area recall" in tip
    assert w.pairs.measure.count() == 2  # area recall, area precision
    w.pairs.measure.setCurrentIndex(1)
    assert m.data(m.index(1, 0)) == "0.48"  # area precision of GT 2's part of the box
    assert "area precision" in w.pairs.note.text()
    listed = [w.pairs.discarded.item(k).text() for k in range(w.pairs.discarded.count())]
    assert listed[0].startswith("Discarded candidates (")
    assert not any("merge (many-to-one)" in x for x in listed)  # the merge was accepted


def test_pair_matrix_gives_the_reason_a_candidate_was_discarded(qtbot, tmp_path: Path) -> None:
    """A detection over GT 1 that also touches GT 2: DetEval discards the one-to-one
    candidate (not a single overlap) before matching it (spec 2.3)."""
    gt = write_zip(tmp_path / "gt.zip", {"gt_img_1.txt": "0,0,99,19,ABCDE\n110,0,209,19,FGH\n"})
    det = write_zip(tmp_path / "det.zip", {"res_img_1.txt": "0,0,120,19\n"})
    w = _window(qtbot, DatasetPaths(str(gt), str(det)))
    w.session.set_metric("deteval")
    m = w.pairs.model
    tip = m.data(m.index(0, 0), Qt.ItemDataRole.ToolTipRole)
    assert "one-to-one candidate discarded: the GT or the detection also overlaps" in tip
    lst = w.pairs.discarded  # listed under the matrix too, not only on hover
    assert lst.item(0).text().startswith("Discarded candidates (")
    assert lst.item(1).text() == "GT 1 × det 1, one-to-one: overlaps other boxes too"
    assert "a one-to-one match needs a single overlap each" in lst.item(1).toolTip()
    w.session.select(("gt", 0))
    assert "one-to-one candidate discarded" in describe(w.session, ("gt", 0))


def test_near_miss_says_who_took_the_detection(qtbot, tmp_path: Path) -> None:
    gt = write_zip(
        tmp_path / "gt.zip",
        {"gt_img_1.txt": "0,0,100,0,100,20,0,20,AAA\n10,0,110,0,110,20,10,20,BBB\n"},
    )
    det = write_zip(tmp_path / "det.zip", {"res_img_1.txt": "0,0,100,0,100,20,0,20\n"})
    w = _window(qtbot, DatasetPaths(str(gt), str(det)))
    w.session.set_metric("ic15_iou")
    text = describe(w.session, ("gt", 1))
    assert "near miss" in text and "was taken by GT <a href='gt:0'>1</a>" in text
    w.inspector.anchorClicked.emit(__import__("PySide6.QtCore").QtCore.QUrl("gt:0"))
    assert w.session.selection == ("gt", 0)


def test_clicking_again_cycles_through_overlapping_instances(qtbot, tmp_path: Path) -> None:
    far = "900,900,1000,900,1000,920,900,920,BBB"  # so that the fit shows far more than a word
    gt = write_zip(tmp_path / "gt.zip", {"gt_img_1.txt": f"0,0,100,0,100,20,0,20,AAA\n{far}\n"})
    det = write_zip(tmp_path / "det.zip", {"res_img_1.txt": "2,2,98,2,98,18,2,18\n"})
    w = _window(qtbot, DatasetPaths(str(gt), str(det)))
    c = w.canvas
    c.fit()
    pos = c.mapFromScene(QPointF(50, 10))
    c.click_at(QPointF(pos))
    assert w.session.selection == ("det", 0)  # the smallest first
    c.click_at(QPointF(pos))
    assert w.session.selection == ("gt", 0)
    c.cycle(1)
    assert w.session.selection == ("det", 0)
    before = c.transform().m11()
    c.zoom_to_selection()
    zoomed = c.transform().m11()
    assert zoomed > 2 * before
    c.zoom_to_selection()  # already there: no zooming out
    assert c.transform().m11() >= zoomed * 0.999


def test_pair_matrix_behind_another_tab_waits_until_shown(qtbot, tmp_path: Path) -> None:
    """Behind the inspector's tab the matrix is not rebuilt at each image (a 1,000-word image
    has a 1,000 x 1,000 table); brought to the front it shows the current image."""
    w = MainWindow()
    qtbot.addWidget(w)
    w.resize(1600, 900)
    w.show()
    assert w.open_paths(_merge_data(tmp_path))
    wait_evaluated(qtbot, w.session)
    w.findChild(QDockWidget, "Inspector").raise_()
    w.session.set_metric("deteval")
    assert w.pairs._stale
    w.findChild(QDockWidget, "Pair matrix").raise_()
    qtbot.waitUntil(lambda: not w.pairs._stale, timeout=3000)
    assert w.pairs.model.rowCount() == 2
