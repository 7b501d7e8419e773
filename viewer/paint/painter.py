"""Painting draw items with QPainter: one path for the window, exported images and tests.

``paint_overlay`` is a free function of a painter, the items and a frozen ``RenderContext``;
pens are cosmetic and markers are sized in screen pixels, so they keep their size at any zoom.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPainterPath, QPolygonF

from viewer.paint.labels import (
    MAX_LABELS,
    LabelCache,
    RenderContext,
    Shown,
    paint_labels,
    text_box,
    text_size,
)
from viewer.paint.qt_bulk import points, polygons, polygons_and_boxes
from viewer.paint.style import MARKER_OUTLINE, brush, draw_marker, pen, qcolor
from viewer.scene.items import DrawItem, Ref, bboxes, drawn_segments
from viewer.scene.palette import PALETTE, TEXT_BOX, Style, StyleKey

_WORDS = ("gt", "det")  # the layers whose boxes labels avoid
_Z_ORDER = {
    "image": 0,
    "dont_care": 1,
    "tiou": 2,
    "gt": 3,
    "det": 4,
    "links": 5,
    "pcc": 6,
    "multiline": 7,
    "labels": 8,
    "text": 8,
    "warnings": 9,
}


def polygon(coords: np.ndarray) -> QPolygonF:
    return polygons([coords])[0]


__all__ = [
    "MAX_LABELS",
    "PreparedOverlay",
    "RenderContext",
    "paint_overlay",
    "polygon",
    "polygons",
]


class PreparedOverlay:
    """Draw items made ready once per sample: Qt polygons built once and grouped by layer and
    style (one pen change per group), other items kept in layer order.

    (Polygons are drawn one by one: with antialiasing, Qt rasterizes many small polygons far
    faster than one path holding all of them.)"""

    def __init__(self, items: Sequence[DrawItem]) -> None:
        self.items = items = sorted(items, key=lambda it: _Z_ORDER.get(it.layer, 10))
        self.layers = list(dict.fromkeys(it.layer for it in items))
        self.groups: dict[str, dict[StyleKey, list[int]]] = {}
        self.others: dict[str, list[int]] = {}
        self.lines: dict[int, QPolygonF] = {}  # segment ends, two points a segment
        shapes = [k for k, it in enumerate(items) if it.shape == "polygon"]
        polys, boxes = polygons_and_boxes([items[k].coords for k in shapes])
        self.polys = dict(zip(shapes, polys, strict=True))
        self.boxes = np.zeros((len(items), 4))
        self.boxes[shapes] = boxes
        rest = [k for k, it in enumerate(items) if it.shape != "polygon"]
        self.boxes[rest] = bboxes([points(items[k].coords) for k in rest])
        for k in shapes:
            it = items[k]
            self.groups.setdefault(it.layer, {}).setdefault(it.style, []).append(k)
        for k, it in enumerate(items):
            if it.shape == "polygon":
                continue
            if it.shape == "lines":
                self.lines[k] = polygons([drawn_segments(it.coords).reshape(-1, 2)])[0]
            self.others.setdefault(it.layer, []).append(k)
        self.words = [k for k in shapes if items[k].layer in _WORDS]
        self.labels = LabelCache()  # the last view's placed labels

    @property
    def label_layout(self) -> list[Shown]:
        """The labels shown in the last view: the due ones, then the emphasized ones."""
        return self.labels.layout + self.labels.extra

    @property
    def labels_left_out(self) -> int:
        """Labels due in the last view that were not shown (small or crowded words)."""
        return self.labels.left_out

    @functools.cached_property
    def outlines(self) -> dict[Ref, list[tuple[str, StyleKey, QPolygonF]]]:
        """The GT/det outlines of each instance (made when first asked: selection, hover)."""
        out: dict[Ref, list[tuple[str, StyleKey, QPolygonF]]] = {}
        for k in self.words:
            it = self.items[k]
            if it.ref is not None:
                out.setdefault(it.ref, []).append((it.layer, it.style, self.polys[k]))
        return out


def _visible_mask(prep: PreparedOverlay, ctx: RenderContext) -> np.ndarray:
    if ctx.visible is None or not len(prep.items):
        return np.ones(len(prep.items), dtype=bool)
    x0, y0, x1, y1 = ctx.visible
    b = prep.boxes
    return (b[:, 2] >= x0) & (b[:, 0] <= x1) & (b[:, 3] >= y0) & (b[:, 1] <= y1)


def paint_overlay(
    painter: QPainter, items: Sequence[DrawItem] | PreparedOverlay, ctx: RenderContext
) -> None:
    """Paint the visible items in image coordinates (the painter carries the view transform)."""
    prep = items if isinstance(items, PreparedOverlay) else PreparedOverlay(items)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    emphasis = set(ctx.highlighted) | ({ctx.selected} if ctx.selected else set())
    font = QFont("DejaVu Sans")
    font.setPixelSize(int(ctx.font_px))
    painter.setFont(font)
    visible = _visible_mask(prep, ctx)
    for layer in prep.layers:
        if layer not in ctx.layers:
            continue
        for key, members in prep.groups.get(layer, {}).items():
            style = PALETTE[key]
            painter.setPen(pen(style))
            painter.setBrush(brush(style))
            for k in members:
                if visible[k]:
                    painter.drawPolygon(prep.polys[k])
        for k in prep.others.get(layer, ()):
            it = prep.items[k]
            if it.shape == "lines":
                _paint_lines(painter, it, prep.lines[k])
            elif it.shape == "texts":
                continue  # placed together, after everything else (_paint_labels)
            elif visible[k]:
                _paint_other(painter, it, ctx, it.ref in emphasis)
    _paint_emphasis(painter, prep, ctx)
    paint_labels(painter, prep, ctx, emphasis)


def _paint_other(painter: QPainter, it: DrawItem, ctx: RenderContext, emphasized: bool) -> None:
    style = PALETTE[it.style]
    if it.shape == "line":
        painter.setPen(pen(style))
        painter.drawLine(QPointF(*it.coords[0]), QPointF(*it.coords[1]))
        if it.text and emphasized:
            _paint_text(painter, it.coords.mean(axis=0), it.text, style, ctx)
    elif it.shape == "points":
        _paint_points(painter, it, style, ctx)
    elif it.shape == "text" and (emphasized or _big_enough(it, ctx)):
        _paint_text(painter, it.coords[0], it.text, style, ctx)
    elif it.shape == "arc":
        _paint_arc(painter, it, style, ctx)


def _paint_lines(painter: QPainter, it: DrawItem, lines: QPolygonF) -> None:
    """Match links (their values are labels, placed when an end is emphasized)."""
    painter.setPen(pen(PALETTE[it.style]))
    if lines.size() >= 2:  # drawn from the buffer: a QPolygonF passed whole is copied per point
        painter.drawLines(lines.data(), lines.size() // 2)


def _paint_emphasis(painter: QPainter, prep: PreparedOverlay, ctx: RenderContext) -> None:
    """Selected and hovered instances (and their partners): a bright outline under the own;
    GTs that the two sides of a comparison treat differently: a dotted ring around them."""
    painter.setBrush(Qt.BrushStyle.NoBrush)
    for ref in ctx.marked:
        for layer, _, poly in prep.outlines.get(ref, ()):
            if layer in ctx.layers:
                painter.setPen(pen(PALETTE[StyleKey.COMPARE_DIFF]))
                r = poly.boundingRect()
                pad = 6.0 / max(ctx.scale, 1e-9)
                painter.drawRect(r.adjusted(-pad, -pad, pad, pad))
    refs = list(ctx.highlighted) + ([ctx.selected] if ctx.selected else [])
    for ref in refs:
        for layer, key, poly in prep.outlines.get(ref, ()):
            if layer not in ctx.layers:
                continue
            ring = StyleKey.SELECTED if ref == ctx.selected else StyleKey.HOVER
            painter.setPen(pen(PALETTE[ring]))
            painter.drawPolygon(poly)
            painter.setPen(pen(PALETTE[key]))
            painter.drawPolygon(poly)


def _big_enough(it: DrawItem, ctx: RenderContext) -> bool:
    return float(it.extra.get("size", 1e9)) * ctx.scale >= ctx.min_label_px


def _paint_points(painter: QPainter, it: DrawItem, style: Style, ctx: RenderContext) -> None:
    """Markers of constant screen size, smaller on small words (at most a quarter of the
    word's height on screen, never under 1.5 px)."""
    px = style.radius
    if "size" in it.extra:
        px = min(px, max(1.5, 0.25 * float(it.extra["size"]) * ctx.scale))
    r = px / max(ctx.scale, 1e-9)
    painter.setPen(pen(MARKER_OUTLINE))
    painter.setBrush(QBrush(qcolor(style.fill or style.stroke)))
    for x, y in it.coords:
        draw_marker(painter, style, float(x), float(y), r)


def _paint_text(
    painter: QPainter, at: np.ndarray, text: str, style: Style, ctx: RenderContext
) -> None:
    """Text of constant screen size, on a light box, anchored at an image point."""
    painter.save()
    painter.translate(float(at[0]), float(at[1]))
    painter.scale(1.0 / max(ctx.scale, 1e-9), 1.0 / max(ctx.scale, 1e-9))
    w, h = text_size(painter, text)
    text_box(painter, QRectF(2, -h - 2, w, h), text, style, TEXT_BOX)
    painter.restore()


def _paint_arc(painter: QPainter, it: DrawItem, style: Style, ctx: RenderContext) -> None:
    """Angle at pivot b between the directions to a's centre and to a's left pivot."""
    cb, ca, la = (np.asarray(p, float) for p in it.coords)
    painter.setPen(pen(style, 1.0))
    painter.drawLine(QPointF(*cb), QPointF(*ca))
    painter.drawLine(QPointF(*cb), QPointF(*la))
    radius = 28.0 / max(ctx.scale, 1e-9)
    a1 = math.degrees(math.atan2(-(ca[1] - cb[1]), ca[0] - cb[0]))
    a2 = math.degrees(math.atan2(-(la[1] - cb[1]), la[0] - cb[0]))
    span = (a2 - a1 + 180) % 360 - 180
    path = QPainterPath()
    rect = QRectF(cb[0] - radius, cb[1] - radius, 2 * radius, 2 * radius)
    path.arcMoveTo(rect, a1)
    path.arcTo(rect, a1, span)
    painter.setPen(pen(style, 2.5))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawPath(path)


def paint_mixed(
    painter: QPainter,
    own: PreparedOverlay,
    other: PreparedOverlay,
    ctx: RenderContext,
    mode: str,
    mix: float,
    left: float,
    rect: QRectF,
) -> None:
    """A and B in one canvas: ``swipe`` shows A left of the divider at ``left`` and B right of
    it; ``blend`` paints B over A with opacity ``mix``."""
    if mode == "swipe":
        painter.save()
        painter.setClipRect(QRectF(rect.left(), rect.top(), left - rect.left(), rect.height()))
        paint_overlay(painter, own, ctx)
        painter.setClipRect(QRectF(left, rect.top(), rect.right() - left, rect.height()))
        paint_overlay(painter, other, ctx)
        painter.restore()
        painter.setPen(QColor("#ffffff"))
        painter.drawLine(QPointF(left, rect.top()), QPointF(left, rect.bottom()))
        return
    painter.setOpacity(1.0 - mix)
    paint_overlay(painter, own, ctx)
    painter.setOpacity(mix)
    paint_overlay(painter, other, ctx)
    painter.setOpacity(1.0)
