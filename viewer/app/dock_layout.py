"""Where the panels go, so the canvases keep most of a laptop's window (issue 28).

Every panel sits in one column of tabbed docks beside the canvases: the sample table with
the summary and the problems on top, the inspector with the pair matrix, the layers and the
metric below. The column takes ``SIDE_SHARE`` of the window's width (between ``SIDE_MIN``
and ``SIDE_MAX`` pixels), so at 1600 x 900 and 1366 x 768 the canvases get about 70 % of
the width, side by side too. A panel docked under the canvases (the analysis) never takes
them below ``CANVAS_MIN_SHARE`` of the window's height: the central widget's minimum height
follows the window's. A docked panel whose ``canvas_share`` property is lower (the failure
gallery: a grid wants rows) lowers that floor while it is in front. Any dock can be popped
out (its title bar's float button).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QMainWindow, QScrollArea, QWidget

SIDE_SHARE = 0.28
SIDE_MIN, SIDE_MAX = 340, 460
CANVAS_MIN_SHARE = 0.5
TOP_SHARE = 0.6  # of the column's height: the sample table and its filters
FAVOURED_SHARE = 0.6  # a stack showing the pair matrix
SIDE_AREA = Qt.DockWidgetArea.LeftDockWidgetArea


def scrolled(widget: QWidget) -> QScrollArea:
    """``widget`` in a scroll area: a tab stack can be shorter than its content."""
    scroll = QScrollArea()
    scroll.setWidget(widget)
    scroll.setWidgetResizable(True)
    return scroll


def side_width(window_width: int) -> int:
    """The column's width for a window ``window_width`` pixels wide."""
    return max(SIDE_MIN, min(SIDE_MAX, round(SIDE_SHARE * window_width)))


def stack_tabs(window: QMainWindow, groups: Sequence[Sequence[QDockWidget]]) -> None:
    """One column in ``SIDE_AREA``: each group a tab stack under the previous, its first
    dock in front."""
    for group in groups:
        window.addDockWidget(SIDE_AREA, group[0], Qt.Orientation.Vertical)
        for before, dock in pairwise(group):
            window.tabifyDockWidget(before, dock)
    for group in groups:
        group[0].raise_()


def fit_column(
    window: QMainWindow, groups: Sequence[Sequence[QDockWidget]], shrink_only: bool = False
) -> None:
    """The column at its width for this window (never wider than it is with
    ``shrink_only``: a column the user narrowed stays so), the first stack taking
    ``TOP_SHARE`` of the height and the others sharing the rest."""
    first = [g[0] for g in groups if not g[0].isFloating()]
    if not first:
        return
    width = side_width(window.width())
    if shrink_only:
        width = min(width, first[0].width())
    window.resizeDocks(first[:1], [width], Qt.Orientation.Horizontal)
    top = round(window.height() * TOP_SHARE)
    rest = max((window.height() - top) // max(len(first) - 1, 1), 1)
    window.resizeDocks(first, [top] + [rest] * (len(first) - 1), Qt.Orientation.Vertical)


def favour(window: QMainWindow, groups: Sequence[Sequence[QDockWidget]], k: int) -> None:
    """Stack ``k`` at least ``FAVOURED_SHARE`` of the column's height (the pair matrix when
    its tab is chosen: a table wants rows), the others sharing the rest."""
    first = [g[0] for g in groups if not g[0].isFloating()]
    chosen = groups[k][0]
    if chosen not in first or len(first) < 2:
        return
    total = sum(d.height() for d in first)
    if chosen.height() >= FAVOURED_SHARE * total - 1:
        return
    want = int(total * FAVOURED_SHARE)
    rest = (total - want) // (len(first) - 1)
    window.resizeDocks(
        first, [want if d is chosen else rest for d in first], Qt.Orientation.Vertical
    )


def in_front(dock: QDockWidget) -> bool:
    """Shown, and its tab the current one (a dock behind a tab stays ``isVisible``)."""
    return dock.isVisible() and not dock.visibleRegion().isEmpty()


def keep_canvas_height(window: QMainWindow, central: QWidget | None) -> None:
    """The central widget (the canvases) at least ``CANVAS_MIN_SHARE`` of the window's
    height, whatever is docked under it, or the lower ``canvas_share`` of a docked panel in
    front; such a panel sits under the canvases only, the column keeping the window's whole
    height (the gallery's rows pushed the sample table to its minimum). Otherwise a bottom
    panel takes the whole width (the Analysis panel's two plots side by side need it)."""
    if central is None:
        return
    share = CANVAS_MIN_SHARE
    for dock in window.findChildren(QDockWidget):
        wants = dock.property("canvas_share")
        if isinstance(wants, float) and in_front(dock) and not dock.isFloating():
            share = min(share, wants)
    central.setMinimumHeight(int(window.height() * share) + 1)
    corner = SIDE_AREA if share < CANVAS_MIN_SHARE else Qt.DockWidgetArea.BottomDockWidgetArea
    if window.corner(Qt.Corner.BottomLeftCorner) != corner:
        window.setCorner(Qt.Corner.BottomLeftCorner, corner)
