"""Issue 28, point 2: at laptop sizes the canvases get most of the window (single, side by
side, swipe / blend, with the analysis docked), and a Problems row zooms to its instance."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget

from metrics.io.demo import demo_paths
from tests.support import demo_dataset_paths, wait_evaluated
from tests.viewer.test_problems import _dataset
from viewer.app.main_window import MainWindow
from viewer.widgets.problems import ProblemsPanel

SIZES = [(1600, 900), (1366, 768)]


def _window(qtbot, size: tuple[int, int], compare: bool = False) -> MainWindow:
    w = MainWindow(restore_layout=False)
    qtbot.addWidget(w)
    w.resize(*size)
    w.show()
    assert w.open_paths(demo_dataset_paths("a"))
    wait_evaluated(qtbot, w.session)
    if compare:
        assert w.session.add_detections(str(demo_paths().det_b))
        qtbot.waitUntil(
            lambda: bool(w.session.b.evaluations) and not w.session.is_busy(), timeout=60000
        )
    qtbot.wait(50)
    return w


def _canvas_area(w: MainWindow) -> int:
    return sum(c.width() * c.height() for c in (w.canvas, w.canvas_b) if c.isVisible())


@pytest.mark.parametrize("size", SIZES)
def test_side_by_side_canvases_take_most_of_a_laptop_window(qtbot, size) -> None:
    w = _window(qtbot, size, compare=True)
    assert w.canvas_b.isVisible()
    width, height = size
    for canvas in (w.canvas, w.canvas_b):
        assert canvas.width() >= 0.3 * width, (canvas.width(), width)  # 370 of 1600 before
        assert canvas.height() >= 0.75 * height
    assert _canvas_area(w) >= 0.55 * width * height
    w.session.cancel()


@pytest.mark.parametrize("size", SIZES)
def test_swipe_and_blend_canvas_takes_most_of_the_window(qtbot, size) -> None:
    w = _window(qtbot, size, compare=True)
    for mode in (1, 2):  # swipe, blend
        w.compare.mode.setCurrentIndex(mode)
        qtbot.wait(20)
        assert not w.canvas_b.isVisible()
        assert w.canvas.width() >= 0.65 * size[0]
        assert _canvas_area(w) >= 0.55 * size[0] * size[1]
    w.session.cancel()


@pytest.mark.parametrize("size", SIZES)
def test_docked_analysis_leaves_the_canvas_half_the_height(qtbot, size) -> None:
    w = _window(qtbot, size, compare=True)
    w.analysis_dock.show()
    w.resizeDocks([w.analysis_dock], [size[1]], Qt.Orientation.Vertical)
    qtbot.wait(50)
    assert w.analysis_dock.isVisible()
    for canvas in (w.canvas, w.canvas_b):
        assert canvas.height() >= size[1] // 2
    w.session.cancel()


def test_panels_are_tabs_in_one_column(qtbot) -> None:
    w = _window(qtbot, SIZES[1])
    big = {w.analysis_dock, w.gallery_dock}  # the wide panels, tabbed together
    docks = [d for d in w.findChildren(QDockWidget) if d not in big]
    assert {w.dockWidgetArea(d) for d in docks} == {Qt.DockWidgetArea.LeftDockWidgetArea}
    front = [d for d in docks if not d.visibleRegion().isEmpty()]
    assert {d.windowTitle() for d in front} == {"Samples", "Inspector"}  # two tab stacks
    assert w.centralWidget().geometry().left() > max(d.geometry().right() for d in front)
    w.session.cancel()


def test_a_problems_row_zooms_to_its_instance(qtbot, tmp_path: Path) -> None:
    w = MainWindow(restore_layout=False)
    qtbot.addWidget(w)
    w.resize(1366, 768)
    w.show()
    assert w.open_paths(_dataset(tmp_path))
    w.session.set_sample("img_1")
    qtbot.waitUntil(lambda: not w.session.checks.running, timeout=30000)
    wait_evaluated(qtbot, w.session)
    w.canvas.fit()
    fitted = w.canvas.transform().m11()  # img_1 in the whole canvas
    w.session.set_sample("img_2")
    panel = w.findChild(ProblemsPanel)
    assert panel is not None
    tie = next(
        panel.tree.topLevelItem(k)
        for k in range(panel.tree.topLevelItemCount())
        if panel.tree.topLevelItem(k).text(0) == "warning bow_tie"
    )
    panel.tree.itemClicked.emit(tie.child(0), 0)
    qtbot.wait(20)
    assert w.session.sample_id == "img_1" and w.session.selection == ("gt", 1)
    assert w.canvas.transform().m11() > 1.5 * fitted  # zoomed in on the word
    view = w.canvas.mapToScene(w.canvas.viewport().rect()).boundingRect()
    assert view.contains(125, 25)  # the bow-tie's crossing, in view
    assert view.width() < 200  # not the whole 200-wide image
    w.session.cancel()
