"""Qt pens, brushes and colours built from the Qt-free palette (``viewer.scene.palette``).

Pens are cosmetic (their width is in screen pixels at any zoom) and made once per look.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPen, QPolygonF

from viewer.scene.palette import PALETTE, Rgba, Style, StyleKey

_PENS: dict[tuple[Rgba | None, bool, bool, float, tuple[float, ...]], QPen] = {}
_BRUSHES: dict[tuple[Rgba | None, bool], QBrush] = {}


def qcolor(rgba: Rgba | None, default: str = "#000000") -> QColor:
    """The QColor of a palette colour (``default`` for None)."""
    return QColor(default) if rgba is None else QColor(rgba.r, rgba.g, rgba.b, rgba.a)


def style_of(key: StyleKey) -> Style:
    return PALETTE[key]


def stroke_color(key: StyleKey) -> QColor:
    return qcolor(PALETTE[key].stroke)


def fill_color(key: StyleKey) -> QColor:
    return qcolor(PALETTE[key].fill)


def pen(style: Style, width: float | None = None) -> QPen:
    """A cosmetic pen of the style's outline (dashed, dotted or the style's own pattern)."""
    key = (
        style.stroke,
        style.dash,
        style.dot,
        width if width is not None else style.width,
        style.dashes,
    )
    cached = _PENS.get(key)
    if cached is None:
        cached = QPen(qcolor(style.stroke) if style.stroke else Qt.GlobalColor.transparent)
        cached.setCosmetic(True)
        cached.setWidthF(key[3])
        if style.dashes:
            cached.setDashPattern(list(style.dashes))
        elif style.dash:
            cached.setStyle(Qt.PenStyle.DashLine)
        elif style.dot:
            cached.setStyle(Qt.PenStyle.DotLine)
        _PENS[key] = cached
    return cached


def brush(style: Style) -> QBrush:
    """The style's fill: none, plain, or hatched."""
    key = (style.fill, style.hatch)
    cached = _BRUSHES.get(key)
    if cached is None:
        cached = QBrush(Qt.BrushStyle.NoBrush) if style.fill is None else QBrush(qcolor(style.fill))
        if style.fill is not None and style.hatch:
            cached.setStyle(Qt.BrushStyle.BDiagPattern)
        _BRUSHES[key] = cached
    return cached


MARKER_OUTLINE = Style(Rgba(0, 0, 0), width=1.0)  # the thin black ring around point markers


def draw_marker(painter: QPainter, style: Style, x: float, y: float, r: float) -> None:
    """One point marker of the style's shape (circle, square, diamond, cross) of radius ``r``."""
    if style.marker == "cross":  # an X with a white halo, seen on any background
        for colour, width in ((QColor("white"), 4.0), (qcolor(style.stroke), 2.0)):
            painter.save()
            cross = QPen(colour, width)
            cross.setCosmetic(True)
            painter.setPen(cross)
            painter.drawLine(QPointF(x - r, y - r), QPointF(x + r, y + r))
            painter.drawLine(QPointF(x - r, y + r), QPointF(x + r, y - r))
            painter.restore()
    elif style.marker == "square":
        painter.drawRect(QRectF(x - r, y - r, 2 * r, 2 * r))
    elif style.marker == "diamond":
        painter.drawPolygon(
            QPolygonF([QPointF(x, y - r), QPointF(x + r, y), QPointF(x, y + r), QPointF(x - r, y)])
        )
    else:
        painter.drawEllipse(QPointF(x, y), r, r)


SWATCH_W, SWATCH_H = 28, 16  # wide enough to show an outline's pattern


def draw_swatch(painter: QPainter, key: StyleKey, rect: QRectF) -> None:
    """The legend sample of a style: its marker for point styles, else its outline and fill
    (hatched, dashed, dotted or in its pattern, at its width, as drawn on the canvas)."""
    st = PALETTE[key]
    painter.save()
    if st.fill is not None and st.fill == st.stroke:  # a point marker
        painter.setPen(pen(MARKER_OUTLINE))
        painter.setBrush(QBrush(qcolor(st.fill)))
        r = min(rect.width(), rect.height()) / 2 - 1
        draw_marker(painter, st, rect.center().x(), rect.center().y(), r)
    else:
        painter.setBrush(brush(st))
        painter.setPen(pen(st, min(st.width, 3.0)))
        inset = math.ceil(min(st.width, 3.0)) / 2 + 1.0  # the outline on whole pixels
        painter.drawRect(rect.adjusted(inset, inset, -inset, -inset))
    painter.restore()
