"""The scene item that paints a sample's draw items on the canvas."""

from __future__ import annotations

import logging
from typing import Protocol

from PySide6.QtCore import QRectF
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from viewer.paint.painter import PreparedOverlay, RenderContext
from viewer.scene.items import DrawItem
from viewer.scene.picking import PickIndex

log = logging.getLogger(__name__)


class CanvasView(Protocol):
    """What the item asks of the view that shows it (``viewer.widgets.canvas.CanvasView``)."""

    def render_context(self, visible: tuple[float, float, float, float]) -> RenderContext: ...

    def paint_layers(
        self, painter: QPainter, prepared: PreparedOverlay, ctx: RenderContext
    ) -> None: ...


class OverlayItem(QGraphicsItem):
    """One scene item that paints every draw item of the current sample."""

    def __init__(self, view: CanvasView) -> None:
        super().__init__()
        self.view = view
        self.items: list[DrawItem] = []
        self.prepared = PreparedOverlay([])
        self.picker = PickIndex([])
        self.rect = QRectF(0, 0, 1, 1)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption, True)

    def set_items(self, items: list[DrawItem]) -> None:
        self.set_prepared(items, PreparedOverlay(items), PickIndex(items))

    def set_prepared(
        self, items: list[DrawItem], prepared: PreparedOverlay, picker: PickIndex
    ) -> None:
        self.items, self.prepared, self.picker = items, prepared, picker

    def boundingRect(self) -> QRectF:
        return self.rect

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        del widget
        try:
            r = option.exposedRect  # type: ignore[attr-defined]
            ctx = self.view.render_context((r.left(), r.top(), r.right(), r.bottom()))
            self.view.paint_layers(painter, self.prepared, ctx)
        except Exception:  # a drawing bug must never take the application down
            log.exception("painting the overlay failed")
