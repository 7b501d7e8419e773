"""CanvasView: the image with the evidence layers on top (QGraphicsView).

Wheel zooms at the cursor, drag pans, a click selects the instance under the mouse, hovering
lights up an instance and its partners. Pens and markers keep their screen size at any zoom.
All drawing goes through ``viewer.paint.painter.paint_overlay``.
"""

from __future__ import annotations

import logging
from typing import Any

from PySide6.QtCore import QPointF, QRect, QRectF, Qt
from PySide6.QtGui import (
    QColor,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPen,
    QPixmap,
)
from PySide6.QtWidgets import (
    QGraphicsPixmapItem,
    QGraphicsRectItem,
    QGraphicsScene,
    QGraphicsView,
    QWidget,
)

from metrics.core.model import Sample
from metrics.core.results import SampleResult
from viewer.app.session import Session
from viewer.paint.images import read_image
from viewer.paint.notes import label_area, notes_margins, paint_notes
from viewer.paint.overlay_item import OverlayItem
from viewer.paint.painter import PreparedOverlay, RenderContext, paint_mixed, paint_overlay
from viewer.scene.banner import banner_text, label_tooltip, side_tag
from viewer.scene.framing import Rect, fit_part
from viewer.scene.items import DrawItem, Ref, bounds, boxes_frame, intersect
from viewer.scene.overlay import build_overlay
from viewer.scene.picking import PickIndex, near_miss_of
from viewer.widgets.fitting_view import FittingView

log = logging.getLogger(__name__)


class CanvasView(FittingView):
    """The canvas; listens to the session, reports clicks and hovers back to it."""

    def __init__(self, session: Session, parent: QWidget | None = None, side: str = "a") -> None:
        super().__init__(parent)
        self.session = session
        self.side = side  # "a": the session's detector/metric; "b": the comparison's
        self.index = 0 if side == "a" else 1  # in ``session.sides``
        self.mix_mode = "off"  # on side A in single view: "swipe" or "blend" shows B too
        self.mix = 0.5  # swipe divider (fraction of the width) or B's opacity
        self._b_overlay: PreparedOverlay | None = None
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
        self.frame_item = QGraphicsRectItem()  # the image bounds when there is no image
        frame_pen = QPen(QColor("#9ca3af"))
        frame_pen.setCosmetic(True)
        frame_pen.setStyle(Qt.PenStyle.DashLine)
        self.frame_item.setPen(frame_pen)
        self.frame_item.setBrush(QColor("#3a3a3a"))
        self.frame_item.setVisible(False)
        self.scene().addItem(self.frame_item)
        self.scene().addItem(self.pixmap_item)
        self.scene().addItem(self.overlay)
        self._image_path: str | None = None
        # prepared overlays of recently shown (sample, result, findings): going back is instant
        self._cache: dict[tuple[int, ...], tuple[Any, Any, list[DrawItem], Any, PickIndex]] = {}
        self._press: QPointF | None = None
        self._stack: list[Ref] = []  # the instances under the last click, smallest first
        self._fit_pending = True
        session.sample_changed.connect(self._on_session_sample_changed)
        session.results_changed.connect(self.refresh)
        session.checks.changed.connect(self.refresh)
        session.metric_changed.connect(lambda _: self.refresh())
        session.layers_changed.connect(lambda _: self._on_layers_changed())
        session.selection_changed.connect(lambda _: self.viewport().update())
        session.hover_changed.connect(lambda _: self.viewport().update())
        session.focus_changed.connect(lambda _: self.viewport().update())
        session.dataset_changed.connect(self._on_session_dataset_changed)
        session.comparison_changed.connect(self.refresh)

    # ------------------------------------------------------------------ content
    def render_context(
        self, visible: tuple[float, float, float, float] | None = None
    ) -> RenderContext:
        s = self.session
        related: set[Ref] = {("gt", i) for i in s.focus_gts.get(s.sample_id or "", ())}
        for ref in (s.hovered, s.selection):
            if ref is None:
                continue
            related.add(ref)
            for it in self.overlay.picker.items:
                if it.ref == ref:
                    related.update(it.related)
        if visible is not None:  # labels stay clear of the notes drawn over the view
            visible = intersect(visible, label_area(self, self.banner(), self._named()))
        return RenderContext(
            layers=s.layers,
            scale=self.transform().m11(),
            selected=s.selection,
            highlighted=frozenset(related),
            visible=visible,
            marked=self._marked(),
            all_labels=s.all_labels,
        )

    def _marked(self) -> frozenset[Ref]:
        """GTs that A and B treat differently (found by one side only)."""
        diff = self.session.diff()
        if diff is None:
            return frozenset()
        return frozenset(("gt", i) for i in (*diff.found_by_a_only, *diff.found_by_b_only))

    def _content(self) -> tuple[Sample | None, SampleResult | None]:
        s = self.session
        side = s.sides[self.index]
        if side is None:
            return None, None
        return side.sample(s.sample_id), side.result(s.sample_id)

    def _params(self) -> object:
        side = self.session.sides[self.index]
        return None if side is None else side.params()

    def paint_layers(
        self, painter: QPainter, prepared: PreparedOverlay, ctx: RenderContext
    ) -> None:
        """Own overlay; in single view with a comparison also B's (swiped or blended)."""
        other = self._b_overlay if self.mix_mode != "off" else None
        if other is None:
            paint_overlay(painter, prepared, ctx)
            return
        left = self.mapToScene(int(self.viewport().width() * self.mix), 0).x()
        paint_mixed(painter, prepared, other, ctx, self.mix_mode, self.mix, left, self.overlay.rect)

    def set_mix(self, mode: str, value: float | None = None) -> None:
        self.mix_mode = mode
        if value is not None:
            self.mix = min(max(value, 0.0), 1.0)
        self.refresh()

    def banner(self) -> str:
        """What the canvas says above the image (``viewer.scene.banner``)."""
        s = self.session
        return banner_text(s.sides[self.index], s.sample_id, bool(self._image_path))

    def drawForeground(self, painter: QPainter, rect: QRectF | QRect) -> None:
        """The banner saying why an image is not evaluated, the note on labels that did not
        fit, and the metric (with the detector's name when comparing) in the corner."""
        del rect
        s, left_out = self.session, self.overlay.prepared.labels_left_out
        name = self._name_tag()
        footer = ""
        if left_out and "labels" in s.layers:
            footer = (
                f"{left_out:,} score label{'' if left_out == 1 else 's'} not shown at this zoom "
                "(small or crowded words): "
                "zoom in, or hover an instance"
            )
        painter.save()
        painter.resetTransform()
        paint_notes(painter, self.viewport().rect(), self.banner(), footer, name)
        painter.restore()

    def fit_target(self) -> tuple[Rect, Rect, int]:
        """The whole image (comparing: the boxes of A and B with a margin, so the words fill
        the narrower canvases), below the name tag and the banner."""
        sid = self.session.sample_id
        found = boxes_frame([side.sample(sid) for side in self.session.sides if side is not None])
        r = self.overlay.rect
        content = (r.left(), r.top(), r.right(), r.bottom())
        part = fit_part(content, found, comparing=self.session.comparing())
        top, _ = notes_margins(
            self.fontMetrics(), self.viewport().width(), self.banner(), self._named()
        )
        return content, part, top

    def _name_tag(self) -> str:
        """The corner's tag: the metric shown (and any parameter off its default), with the
        detector's name when comparing; both sides' in a swipe or blend."""
        s = self.session
        if self.mix_mode != "off" and s.comparing():
            return "  |  ".join(side_tag(side, named=True) for side in s.sides)
        return side_tag(s.sides[self.index], named=s.comparing())

    def _named(self) -> bool:
        return bool(self._name_tag())

    # ------------------------------------------------------------------ synchronization
    def refresh(self) -> None:
        """Rebuild the draw items of the current sample (after results or metric changed)."""
        sample, result = self._content()
        if sample is None:
            self.overlay.set_items([])
            self.viewport().update()
            return
        self._b_overlay = None
        b = self.session.b
        if self.index == 0 and self.mix_mode != "off" and b is not None:
            sid = self.session.sample_id
            b_sample = b.sample(sid)
            if b_sample is not None:
                self._b_overlay = PreparedOverlay(
                    build_overlay(
                        b_sample, b.result(sid), self.session.problems(), params=b.params()
                    )
                )
        checks = self.session.checks
        cached = self._cache.pop(key := (id(sample), id(result), checks.version), None)
        if cached is None or cached[0] is not sample or cached[1] is not result:
            items = build_overlay(
                sample,
                result,
                self.session.problems(),
                checks.of_sample(sample.id),
                params=self._params(),
            )
            prepared = PreparedOverlay(items)
            picker = PickIndex(prepared.items, prepared.boxes)
            cached = (sample, result, items, prepared, picker)
        self._cache[key] = cached  # most recent last
        while len(self._cache) > 8:
            self._cache.pop(next(iter(self._cache)))
        self.overlay.set_prepared(*cached[2:])
        self._set_image(sample.image)
        x0, y0, x1, y1 = bounds(sample)
        if self._image_path:
            rect = self.pixmap_item.boundingRect()
            self.frame_item.setVisible(False)
        else:  # no image: its bounds as far as the boxes tell (from the origin)
            rect = QRectF(0, 0, max(x1, 1.0), max(y1, 1.0))
            self.frame_item.setRect(rect)
            self.frame_item.setVisible(True)
        self.overlay.prepareGeometryChange()
        self.overlay.rect = rect.united(QRectF(x0, y0, x1 - x0, y1 - y0)).adjusted(-6, -6, 6, 6)
        self.update_scene_rect()
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
            image = read_image(path)  # a regular file only: a pipe would hang the window
            pix = QPixmap.fromImage(image) if not image.isNull() else QPixmap()
            if pix.isNull():
                self.session.error_raised.emit(f"cannot read image {path}")
                self._image_path = None
        self.pixmap_item.setPixmap(pix)
        self.pixmap_item.setVisible("image" in self.session.layers)

    def _on_session_sample_changed(self, _: str) -> None:
        if not self.session.keep_zoom:
            self._fit_pending = True  # each image is shown whole, unless asked otherwise
        self.refresh()

    def _on_session_dataset_changed(self) -> None:
        self._image_path = None
        self.pixmap_item.setPixmap(QPixmap())  # never leave the last dataset's picture
        self._cache.clear()
        self.forget_fit()
        self._fit_pending = True

    def _on_layers_changed(self) -> None:
        self.pixmap_item.setVisible("image" in self.session.layers)
        self.viewport().update()

    # ------------------------------------------------------------------ navigation
    def mousePressEvent(self, event: QMouseEvent) -> None:
        self._press = event.position()
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        super().mouseReleaseEvent(event)
        if self._press is not None and (event.position() - self._press).manhattanLength() < 4:
            self.click_at(event.position())
        self._press = None

    def click_at(self, pos: QPointF) -> None:
        """Select the instance under ``pos``; clicking again where instances overlap selects
        the next one under it (smallest first), as do the Up and Down keys."""
        p = self.mapToScene(pos.toPoint())
        refs = self.overlay.picker.pick_all(p.x(), p.y(), self.session.layers)
        self._stack = refs
        current = self.session.selection
        if current in refs and len(refs) > 1:
            self.session.select(refs[(refs.index(current) + 1) % len(refs)])
        else:
            self.session.select(refs[0] if refs else None)

    def cycle(self, step: int) -> None:
        """The next (or previous) instance under the last click."""
        refs, current = self._stack, self.session.selection
        if len(refs) > 1 and current in refs:
            self.session.select(refs[(refs.index(current) + step) % len(refs)])

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Up, Qt.Key.Key_Down) and len(self._stack) > 1:
            self.cycle(1 if event.key() == Qt.Key.Key_Down else -1)
            event.accept()
            return
        super().keyPressEvent(event)

    def zoom_to_selection(self) -> None:
        """Fit the selected instance, its partners and its best near miss (the one the
        inspector names), with their neighbours around them, in the view."""
        ref = self.session.selection
        near = None if ref is None else near_miss_of(self._content()[1], ref)
        picker = self.overlay.picker
        box = (
            None
            if ref is None
            else picker.bounds_with_partners(ref, () if near is None else (near,))
        )
        if box is not None:
            self.zoom_to(box)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        super().mouseMoveEvent(event)
        if event.buttons() == Qt.MouseButton.NoButton:
            ref = self.ref_at(event.position())
            if ref != self.session.hovered:
                self.viewport().setToolTip(label_tooltip(self.overlay.items, ref, self._metric()))
            self.session.hover(ref)

    def _metric(self) -> str | None:
        side = self.session.sides[self.index]
        return side.metric if side is not None else None

    def ref_at(self, pos: QPointF) -> Ref | None:
        p = self.mapToScene(pos.toPoint())
        return self.overlay.picker.pick(p.x(), p.y(), self.session.layers)
