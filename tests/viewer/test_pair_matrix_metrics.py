"""Issue 28, point 3: the pair matrix shows what every pair-deciding metric decided on
(TedEval's area recall / precision and multiline tests included), readable at 1600 x 900."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget

from tests.support import demo_dataset_paths, wait_evaluated, write_zip
from viewer.app.main_window import MainWindow
from viewer.app.paths import DatasetPaths


def _window(qtbot, paths: DatasetPaths, metric: str, sample: str) -> MainWindow:
    w = MainWindow(restore_layout=False)
    qtbot.addWidget(w)
    w.resize(1600, 900)
    w.show()
    assert w.open_paths(paths)
    wait_evaluated(qtbot, w.session)
    w.session.set_metric(metric)
    wait_evaluated(qtbot, w.session)
    w.session.set_sample(sample)
    w.findChild(QDockWidget, "Pair matrix").raise_()
    qtbot.wait(50)
    return w


def test_tedeval_pair_matrix_has_area_recall_precision_and_the_multiline_test(qtbot) -> None:
    # demo det_b on img_7: one detection over OPEN and DAILY, a merge the multiline test
    # rejects at 48.0° (an empty combo box before)
    w = _window(qtbot, demo_dataset_paths("b"), "tedeval", "img_7")
    m = w.pairs.model
    names = [w.pairs.measure.itemText(k) for k in range(w.pairs.measure.count())]
    assert names == ["area recall", "area precision"]
    assert m.rowCount() >= 3 and m.columnCount() >= 2
    lines = [short for short, _ in m.discards]
    assert any("merge GT 2, 3" in x and "rejected, angle 48.0° ≥ 45°" in x for x in lines), lines
    rejected = next(
        k
        for k in range(m.rowCount())
        if m.headerData(k, Qt.Orientation.Vertical).startswith("GT 2")
    )
    cells = [m.index(rejected, c) for c in range(m.columnCount())]
    tips = [m.data(c, Qt.ItemDataRole.ToolTipRole) or "" for c in cells if m.data(c)]
    assert any("multiline test" in t and "45°" in t for t in tips)
    assert "area recall" in w.pairs.note.text()
    w.session.cancel()


def _many_words(tmp_path: Path) -> DatasetPaths:
    """Nine words on three lines, three detections each over a line: DetEval merges and
    discards (the IC13 merge_line case in small)."""
    gt, det = [], []
    for row in range(3):
        y = 40 * row
        for k in range(3):
            gt.append(f"{110 * k},{y},{110 * k + 99},{y + 19},W{row}{k}")
        det.append(f"0,{y},{309},{y + 19}")
    g = write_zip(tmp_path / "gt.zip", {"gt_img_1.txt": "\n".join(gt) + "\n"})
    d = write_zip(tmp_path / "det.zip", {"res_img_1.txt": "\n".join(det) + "\n"})
    return DatasetPaths(str(g), str(d))


def test_pair_matrix_is_readable_at_1600x900(qtbot, tmp_path: Path) -> None:
    w = _window(qtbot, _many_words(tmp_path), "deteval", "img_1")
    view = w.pairs.view
    m = w.pairs.model
    assert m.rowCount() == 9
    shown = view.rowAt(view.viewport().height() - 1)
    assert shown == -1 or shown >= m.rowCount() - 1  # every row in view (2-4 before)
    assert not view.verticalScrollBar().isVisible()
    listing = w.pairs.discarded
    assert listing.wordWrap()  # reasons are whole sentences, not cut at the edge
    w.session.cancel()


def _one_refused(tmp_path: Path) -> DatasetPaths:
    """HELLO matched at IoU 0.8; WORLD under a detection four times its height (IoU 0.25)."""
    gt = "0,0,100,0,100,20,0,20,HELLO\n200,0,300,0,300,20,200,20,WORLD\n"
    det = "0,0,80,0,80,20,0,20\n200,0,300,0,300,80,200,80\n"
    g = write_zip(tmp_path / "gt.zip", {"gt_img_1.txt": gt})
    d = write_zip(tmp_path / "det.zip", {"res_img_1.txt": det})
    return DatasetPaths(str(g), str(d))


def test_a_refused_pair_names_the_limit_it_failed(qtbot, tmp_path: Path) -> None:
    # every pair that overlaps without a match says which IoU limit it failed, and the
    # note says what a match needs
    w = _window(qtbot, _one_refused(tmp_path), "tiou", "img_1")
    m = w.pairs.model
    assert "a match needs > 0.5" in w.pairs.note.text()
    tips = [
        m.data(m.index(r, c), Qt.ItemDataRole.ToolTipRole) or ""
        for r in range(m.rowCount())
        for c in range(m.columnCount())
        if m.data(m.index(r, c))
    ]
    refused = [t for t in tips if "not a one-to-one match" in t]
    assert len(tips) == 2 and len(refused) == 1, tips
    assert "GT 2 × det 2" in refused[0] and "IoU 0.25 ≤ 0.5" in refused[0]
    w.session.cancel()


def test_cleval_has_a_pair_matrix(qtbot, tmp_path: Path) -> None:
    w = _window(qtbot, _one_refused(tmp_path), "cleval_det", "img_1")
    names = [w.pairs.measure.itemText(k) for k in range(w.pairs.measure.count())]
    assert names == ["area precision", "character recall"]
    assert w.pairs.model.rowCount() == 2 and "a match needs >= 0.3" in w.pairs.note.text()
    w.session.cancel()


def test_deteval_pair_matrix_names_the_area_limit_it_failed(qtbot, tmp_path: Path) -> None:
    # DetEval's limits come from its params (not only from its formula text): the refused
    # pair's tooltip says which one it failed, with the value and the bound
    gt = "0,0,99,19,HELLO\n200,0,299,19,WORLD\n"  # IC13's boxes, inclusive pixels
    det = "0,0,79,19\n200,0,299,79\n"  # WORLD's: four times its height
    g = write_zip(tmp_path / "gt.zip", {"gt_img_1.txt": gt})
    d = write_zip(tmp_path / "det.zip", {"res_img_1.txt": det})
    w = _window(qtbot, DatasetPaths(str(g), str(d)), "deteval", "img_1")
    m = w.pairs.model
    w.pairs.measure.setCurrentIndex(1)  # area precision
    tips = [
        m.data(m.index(r, c), Qt.ItemDataRole.ToolTipRole) or ""
        for r in range(m.rowCount())
        for c in range(m.columnCount())
        if m.data(m.index(r, c))
    ]
    refused = [t for t in tips if "not a one-to-one match" in t]
    assert len(refused) == 1, tips
    assert "GT 2 × det 2" in refused[0] and "area precision 0.25 < 0.4" in refused[0], refused
    assert "a match needs >= 0.4" in w.pairs.note.text()
    w.session.cancel()
