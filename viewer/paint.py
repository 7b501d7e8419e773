"""Painting draw items with QPainter: one path for the window, exported images and tests.

``paint_overlay`` is a free function of a painter, the items and a frozen ``RenderContext``;
pens are cosmetic and markers are sized in screen pixels, so they keep their size at any zoom.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPainterPath, QPen, QPolygonF

from viewer.overlay import DrawItem, Ref
from viewer.style import STYLES, Style

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
    """What to paint and at which scale (view pixels per image pixel)."""

    layers: frozenset[str]
    scale: float = 1.0
    selected: Ref | None = None
    highlighted: frozenset[Ref] = field(default_factory=frozenset)
    font_px: float = 12.0


def polygon(coords: np.ndarray) -> QPolygonF:
    return QPolygonF([QPointF(float(x), float(y)) for x, y in coords])


def _pen(style: Style, scale: float, width: float | None = None) -> QPen:
    pen = QPen(QColor(style.stroke) if style.stroke else Qt.GlobalColor.transparent)
    pen.setCosmetic(True)
    pen.setWidthF(width if width is not None else style.width)
    if style.dash:
        pen.setStyle(Qt.PenStyle.DashLine)
    del scale
    return pen


def _brush(style: Style) -> QBrush:
    if not style.fill:
        return QBrush(Qt.BrushStyle.NoBrush)
    brush = QBrush(QColor(style.fill))
    if style.hatch:
        brush.setStyle(Qt.BrushStyle.BDiagPattern)
    return brush


def sorted_items(items: Sequence[DrawItem], layers: frozenset[str]) -> list[DrawItem]:
    return sorted(
        (it for it in items if it.layer in layers), key=lambda it: _Z_ORDER.get(it.layer, 10)
    )


def paint_overlay(painter: QPainter, items: Sequence[DrawItem], ctx: RenderContext) -> None:
    """Paint the visible items in image coordinates (the painter carries the view transform)."""
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    emphasis = set(ctx.highlighted) | ({ctx.selected} if ctx.selected else set())
    for it in sorted_items(items, ctx.layers):
        style = STYLES.get(it.style, STYLES["gt.none"])
        if it.shape == "polygon":
            _paint_polygon(painter, it, style, ctx, it.ref in emphasis)
        elif it.shape == "line":
            painter.setPen(_pen(style, ctx.scale))
            painter.drawLine(QPointF(*it.coords[0]), QPointF(*it.coords[1]))
            if it.text and it.ref in emphasis:
                _paint_text(painter, it.coords.mean(axis=0), it.text, style, ctx)
        elif it.shape == "points":
            _paint_points(painter, it, style, ctx)
        elif it.shape == "text":
            _paint_text(painter, it.coords[0], it.text, style, ctx)
        elif it.shape == "arc":
            _paint_arc(painter, it, style, ctx)


def _paint_polygon(
    painter: QPainter, it: DrawItem, style: Style, ctx: RenderContext, emphasized: bool
) -> None:
    poly = polygon(it.coords)
    if emphasized and it.layer in ("gt", "det"):
        key = "selected" if it.ref == ctx.selected else "highlight"
        painter.setPen(_pen(STYLES[key], ctx.scale))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPolygon(poly)
    painter.setPen(_pen(style, ctx.scale))
    painter.setBrush(_brush(style))
    painter.drawPolygon(poly)


def _paint_points(painter: QPainter, it: DrawItem, style: Style, ctx: RenderContext) -> None:
    r = style.radius / max(ctx.scale, 1e-9)
    painter.setPen(_pen(Style("#000000", width=1.0), ctx.scale))
    painter.setBrush(QBrush(QColor(style.fill or style.stroke)))
    for x, y in it.coords:
        painter.drawEllipse(QPointF(float(x), float(y)), r, r)


def _paint_text(
    painter: QPainter, at: np.ndarray, text: str, style: Style, ctx: RenderContext
) -> None:
    """Text of constant screen size, on a light box, anchored at an image point."""
    painter.save()
    painter.translate(float(at[0]), float(at[1]))
    painter.scale(1.0 / max(ctx.scale, 1e-9), 1.0 / max(ctx.scale, 1e-9))
    font = QFont("DejaVu Sans")
    font.setPixelSize(int(ctx.font_px))
    painter.setFont(font)
    fm = painter.fontMetrics()
    w, h = fm.horizontalAdvance(text) + 8, fm.height() + 2
    box = QRectF(2, -h - 2, w, h)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QColor(style.fill or "#e6ffffff"))
    painter.drawRoundedRect(box, 3, 3)
    painter.setPen(QColor(style.stroke or "#000000"))
    painter.drawText(box, Qt.AlignmentFlag.AlignCenter, text)
    painter.restore()


def _paint_arc(painter: QPainter, it: DrawItem, style: Style, ctx: RenderContext) -> None:
    """Angle at pivot b between the directions to a's centre and to a's left pivot."""
    cb, ca, la = (np.asarray(p, float) for p in it.coords)
    painter.setPen(_pen(style, ctx.scale, 1.0))
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
    painter.setPen(_pen(style, ctx.scale, 2.5))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawPath(path)
    mid = math.radians(a1 + span / 2)
    at = cb + np.array([math.cos(mid), -math.sin(mid)]) * radius * 1.3
    _paint_text(painter, at, it.text, style, ctx)
