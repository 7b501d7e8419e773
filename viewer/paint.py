"""Painting draw items with QPainter: one path for the window, exported images and tests.

``paint_overlay`` is a free function of a painter, the items and a frozen ``RenderContext``;
pens are cosmetic and markers are sized in screen pixels, so they keep their size at any zoom.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QFont, QPainter, QPainterPath, QPolygonF

from viewer.scene.items import DrawItem, Ref, bboxes
from viewer.scene.palette import PALETTE, TEXT_BOX, Style, StyleKey
from viewer.style import MARKER_OUTLINE, brush, draw_marker, pen, qcolor

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
    "warnings": 9,
}


@dataclass(frozen=True)
class RenderContext:
    """What to paint and at which scale (view pixels per image pixel).

    ``visible`` is the image-space rectangle (x0, y0, x1, y1) to paint (None = everything);
    texts of instances smaller than ``min_label_px`` on screen are left out unless selected
    or highlighted (level of detail: a fitted 1,000-word page stays readable and fast).
    """

    layers: frozenset[str]
    scale: float = 1.0
    selected: Ref | None = None
    highlighted: frozenset[Ref] = field(default_factory=frozenset)
    font_px: float = 12.0
    visible: tuple[float, float, float, float] | None = None
    min_label_px: float = 9.0
    marked: frozenset[Ref] = field(default_factory=frozenset)  # A and B disagree here


def polygon(coords: np.ndarray) -> QPolygonF:
    return QPolygonF([QPointF(x, y) for x, y in np.asarray(coords, dtype=float).tolist()])


class PreparedOverlay:
    """Draw items made ready once per sample: Qt polygons built once and grouped by layer and
    style (one pen change per group), other items kept in layer order.

    (Polygons are drawn one by one: with antialiasing, Qt rasterizes many small polygons far
    faster than one path holding all of them.)"""

    def __init__(self, items: Sequence[DrawItem]) -> None:
        self.items = sorted(items, key=lambda it: _Z_ORDER.get(it.layer, 10))
        self.layers = list(dict.fromkeys(it.layer for it in self.items))
        self.groups: dict[str, dict[StyleKey, list[int]]] = {}
        self.others: dict[str, list[int]] = {}
        self.polys: dict[int, QPolygonF] = {}
        self.outlines: dict[Ref, list[tuple[str, StyleKey, QPolygonF]]] = {}
        self.lines: dict[int, list[QLineF]] = {}
        for k, it in enumerate(self.items):
            if it.shape == "lines":
                self.lines[k] = [QLineF(a, b, c, d) for (a, b), (c, d) in it.coords.tolist()]
            if it.shape != "polygon":
                self.others.setdefault(it.layer, []).append(k)
                continue
            poly = self.polys[k] = polygon(it.coords)
            self.groups.setdefault(it.layer, {}).setdefault(it.style, []).append(k)
            if it.ref is not None and it.layer in ("gt", "det"):
                self.outlines.setdefault(it.ref, []).append((it.layer, it.style, poly))
        self.boxes = bboxes([np.asarray(it.coords).reshape(-1, 2) for it in self.items])


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
                _paint_lines(painter, it, prep.lines[k], ctx, emphasis)
            elif it.shape == "texts":
                _paint_texts(painter, it, ctx, emphasis)
            elif visible[k]:
                _paint_other(painter, it, ctx, it.ref in emphasis)
    _paint_emphasis(painter, prep, ctx)


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


def _paint_lines(
    painter: QPainter, it: DrawItem, lines: list[QLineF], ctx: RenderContext, emphasis: set[Ref]
) -> None:
    style = PALETTE[it.style]
    painter.setPen(pen(style))
    painter.drawLines(lines)
    if not emphasis:
        return
    for k, (ref, rel) in enumerate(zip(it.data["refs"], it.data["related"], strict=True)):
        if ref in emphasis or rel in emphasis:
            _paint_text(painter, it.coords[k].mean(axis=0), it.data["texts"][k], style, ctx)


def _paint_texts(painter: QPainter, it: DrawItem, ctx: RenderContext, emphasis: set[Ref]) -> None:
    """A batch of labels: only those on screen and large enough (or emphasized)."""
    pos = it.coords
    show = np.asarray(it.data["sizes"]) * ctx.scale >= ctx.min_label_px
    if ctx.visible is not None:
        x0, y0, x1, y1 = ctx.visible
        show &= (pos[:, 0] >= x0) & (pos[:, 0] <= x1) & (pos[:, 1] >= y0) & (pos[:, 1] <= y1)
    if emphasis:
        show |= np.fromiter((r in emphasis for r in it.data["refs"]), dtype=bool, count=len(pos))
    style = PALETTE[it.style]
    for k in np.flatnonzero(show):
        _paint_text(painter, pos[k], it.data["texts"][k], style, ctx)


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
    r = style.radius / max(ctx.scale, 1e-9)
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
    fm = painter.fontMetrics()
    w, h = fm.horizontalAdvance(text) + 8, fm.height() + 2
    box = QRectF(2, -h - 2, w, h)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(qcolor(TEXT_BOX))
    painter.drawRoundedRect(box, 3, 3)
    painter.setPen(qcolor(style.stroke))
    painter.drawText(box, Qt.AlignmentFlag.AlignCenter, text)
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
    mid = math.radians(a1 + span / 2)
    at = cb + np.array([math.cos(mid), -math.sin(mid)]) * radius * 1.3
    _paint_text(painter, at, it.text, style, ctx)
