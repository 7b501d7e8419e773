"""CanvasView: the image with the evidence layers on top (QGraphicsView).

Wheel zooms at the cursor, drag pans, a click selects the instance under the mouse, hovering
lights up an instance and its partners. Pens and markers keep their screen size at any zoom.
All drawing goes through ``viewer.paint.paint_overlay``.
"""

from __future__ import annotations

import logging

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QImage, QMouseEvent, QPainter, QPixmap, QWheelEvent
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsPixmapItem,
    QGraphicsScene,
    QGraphicsView,
    QStyleOptionGraphicsItem,
    QWidget,
)

from viewer.overlay import DrawItem, PickIndex, Ref, bounds, build_overlay
from viewer.paint import PreparedOverlay, RenderContext, paint_overlay
from viewer.session import Session

log = logging.getLogger(__name__)


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
            paint_overlay(painter, self.prepared, ctx)
        except Exception:  # a drawing bug must never take the application down
            log.exception("painting the overlay failed")


class CanvasView(QGraphicsView):
    """The canvas; listens to the session, reports clicks and hovers back to it."""

    zoom_changed = Signal(float)

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.setScene(QGraphicsScene(self))
        self.setBackgroundBrush(QColor("#2b2b2b"))
        self.setRenderHints(
            QPainter.RenderHint.Antialiasing | QPainter.RenderHint.SmoothPixmapTransform
        )
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        self.setMouseTracking(True)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.FullViewportUpdate)
        self.pixmap_item = QGraphicsPixmapItem()
        self.pixmap_item.setTransformationMode(Qt.TransformationMode.SmoothTransformation)
        self.overlay = OverlayItem(self)
        self.scene().addItem(self.pixmap_item)
        self.scene().addItem(self.overlay)
        self._image_path: str | None = None
        # prepared overlays of recently shown (sample, result) pairs: going back is instant
        self._cache: dict[
            tuple[int, int], tuple[object, object, list[DrawItem], PreparedOverlay, PickIndex]
        ] = {}
        self._press: QPointF | None = None
        self._fit_pending = True
        session.sample_changed.connect(self._on_session_sample_changed)
        session.results_changed.connect(self.refresh)
        session.metric_changed.connect(lambda _: self.refresh())
        session.layers_changed.connect(lambda _: self._on_layers_changed())
        session.selection_changed.connect(lambda _: self.viewport().update())
        session.hover_changed.connect(lambda _: self.viewport().update())
        session.dataset_changed.connect(self._on_session_dataset_changed)

    # ------------------------------------------------------------------ content
    def render_context(
        self, visible: tuple[float, float, float, float] | None = None
    ) -> RenderContext:
        s = self.session
        related: set[Ref] = set()
        for ref in (s.hovered, s.selection):
            if ref is None:
                continue
            related.add(ref)
            for it in self.overlay.picker.items:
                if it.ref == ref:
                    related.update(it.related)
        return RenderContext(
            layers=s.layers,
            scale=self.transform().m11(),
            selected=s.selection,
            highlighted=frozenset(related),
            visible=visible,
        )

    def refresh(self) -> None:
        """Rebuild the draw items of the current sample (after results or metric changed)."""
        sample = self.session.sample()
        if sample is None:
            self.overlay.set_items([])
            self.viewport().update()
            return
        result = self.session.result()
        key = (id(sample), id(result))
        cached = self._cache.pop(key, None)
        if cached is None or cached[0] is not sample or cached[1] is not result:
            items = build_overlay(sample, result, self.session.problems())
            cached = (sample, result, items, PreparedOverlay(items), PickIndex(items))
        self._cache[key] = cached  # most recent last
        while len(self._cache) > 8:
            self._cache.pop(next(iter(self._cache)))
        self.overlay.set_prepared(*cached[2:])
        self._set_image(sample.image)
        x0, y0, x1, y1 = bounds(sample)
        rect = (
            self.pixmap_item.boundingRect()
            if self._image_path
            else QRectF(
                min(0, x0) - 20, min(0, y0) - 20, x1 - min(0, x0) + 40, y1 - min(0, y0) + 40
            )
        )
        self.overlay.prepareGeometryChange()
        self.overlay.rect = rect.united(QRectF(x0 - 10, y0 - 10, x1 - x0 + 20, y1 - y0 + 20))
        self.scene().setSceneRect(self.overlay.rect)
        if self._fit_pending:
            self.fit()
            self._fit_pending = False
        self.viewport().update()

    def _set_image(self, path: str | None) -> None:
        if path == self._image_path:
            return
        self._image_path = path
        pix = QPixmap()
        if path is not None:
            image = QImage(path)
            pix = QPixmap.fromImage(image) if not image.isNull() else QPixmap()
            if pix.isNull():
                self.session.error_raised.emit(f"cannot read image {path}")
                self._image_path = None
        self.pixmap_item.setPixmap(pix)
        self.pixmap_item.setVisible("image" in self.session.layers)

    def _on_session_sample_changed(self, _: str) -> None:
        self.refresh()

    def _on_session_dataset_changed(self) -> None:
        self._image_path = None
        self._cache.clear()
        self._fit_pending = True

    def _on_layers_changed(self) -> None:
        self.pixmap_item.setVisible("image" in self.session.layers)
        self.viewport().update()

    # ------------------------------------------------------------------ navigation
    def fit(self) -> None:
        self.fitInView(self.overlay.rect, Qt.AspectRatioMode.KeepAspectRatio)
        self.zoom_changed.emit(self.transform().m11())

    def actual_size(self) -> None:
        self.resetTransform()
        self.zoom_changed.emit(1.0)

    def zoom(self, factor: float) -> None:
        current = self.transform().m11()
        factor = min(max(factor, 0.02 / current), 64.0 / current)
        self.scale(factor, factor)
        self.zoom_changed.emit(self.transform().m11())

    def wheelEvent(self, event: QWheelEvent) -> None:
        steps = event.angleDelta().y() / 120.0
        if steps:
            self.zoom(1.2**steps)
        event.accept()

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self._press = event.position()
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        super().mouseReleaseEvent(event)
        if self._press is not None and (event.position() - self._press).manhattanLength() < 4:
            self.session.select(self.ref_at(event.position()))
        self._press = None

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        super().mouseMoveEvent(event)
        if event.buttons() == Qt.MouseButton.NoButton:
            self.session.hover(self.ref_at(event.position()))

    def ref_at(self, pos: QPointF) -> Ref | None:
        p = self.mapToScene(pos.toPoint())
        return self.overlay.picker.pick(p.x(), p.y(), self.session.layers)
