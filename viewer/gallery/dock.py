"""The failure gallery's place in the main window: a dock at the bottom, tabbed with the
Analysis panel, hidden until View › Panels › Gallery; a click on a crop zooms the canvases
to the instance it selected. In front, it takes most of the window's height (the canvases
keep a strip of ``CANVAS_SHARE``, where a clicked crop shows zoomed): three rows of crops or
more at 1366 x 768. Popped out (the title bar's float button), it is sized to most of the
window."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QDockWidget, QMainWindow

from viewer.app import dock_layout
from viewer.app.session import Session
from viewer.gallery.widget import GalleryPanel
from viewer.widgets.canvas import CanvasView

CANVAS_SHARE = 0.2  # of the window's height, kept by the canvases while the gallery is in front


def add_gallery(
    window: QMainWindow,
    session: Session,
    canvases: tuple[CanvasView, CanvasView],
    beside: QDockWidget,
) -> tuple[GalleryPanel, QDockWidget]:
    panel = GalleryPanel(session)

    def zoom(opened: tuple[object, int]) -> None:
        """Each shown canvas zoomed to the instance, the crop's own side last: a canvas
        still fitted re-fits when its scroll bars come and, mirrored, undid the zoom."""
        owner = opened[1]
        for canvas in (canvases[1 - owner], canvases[owner]):
            if canvas.isVisible():
                canvas.zoom_to_selection()

    panel.opened.connect(zoom)
    dock = QDockWidget("Gallery", window)
    dock.setObjectName("Gallery")
    dock.setWidget(panel)
    window.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, dock)
    window.tabifyDockWidget(beside, dock)
    dock.setProperty("canvas_share", CANVAS_SHARE)
    dock.hide()

    def room() -> None:  # once the window has laid the dock out
        dock_layout.keep_canvas_height(window, window.centralWidget())
        if dock_layout.in_front(dock) and not dock.isFloating():  # all the canvases leave
            window.resizeDocks([dock], [window.height()], Qt.Orientation.Vertical)

    def popped(floating: bool) -> None:
        dock_layout.keep_canvas_height(window, window.centralWidget())
        if floating:
            size = window.size()
            dock.resize(max(size.width() * 9 // 10, 900), max(size.height() * 9 // 10, 600))

    dock.visibilityChanged.connect(lambda _: QTimer.singleShot(0, room))
    dock.topLevelChanged.connect(popped)
    return panel, dock
