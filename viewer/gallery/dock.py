"""The failure gallery's place in the main window: a dock at the bottom, tabbed with the
Analysis panel, hidden until View › Panels › Gallery; a click on a crop zooms the canvases
to the instance it selected. Shown, it is given room for two rows of crops."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QDockWidget, QMainWindow

from viewer.app.session import Session
from viewer.gallery.widget import GalleryPanel
from viewer.widgets.canvas import CanvasView


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
    dock.hide()

    def room() -> None:  # once the window has laid the dock out
        want = min(panel.sizeHint().height(), window.height() // 2)
        if dock.isVisible() and not dock.isFloating() and dock.height() < want:
            window.resizeDocks([dock], [want], Qt.Orientation.Vertical)

    dock.visibilityChanged.connect(lambda on: on and QTimer.singleShot(0, room))
    return panel, dock
