"""Painting draw items with QPainter: one path for the window, exported images and tests.

``paint_overlay`` is a free function of a painter, the items and a frozen ``RenderContext``;
pens are cosmetic and markers are sized in screen pixels, so they keep their size at any zoom.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPainterPath, QPolygonF

from viewer.qt_bulk import points, polygons, polygons_and_boxes
from viewer.scene.items import DrawItem, Ref, bboxes
from viewer.scene.labels import Placed, place_labels
from viewer.scene.palette import PALETTE, TEXT_BOX, Rgba, Style, StyleKey
from viewer.style import MARKER_OUTLINE, brush, draw_marker, pen, qcolor

_WORDS = ("gt", "det")  # the layers whose boxes labels avoid
# Labels placed in one view at most: the selected and hovered first, then those of the
# instances that lost credit in file order; more would cover the image at this zoom (zoom in
# and the ones on screen get their turn).
MAX_LABELS = 150
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


@dataclass(frozen=True)
class RenderContext:
    """What to paint and at which scale (view pixels per image pixel).

    ``visible`` is the image-space rectangle (x0, y0, x1, y1) to paint (None = everything);
    texts of instances smaller than ``min_label_px`` on screen are left out unless selected
    or highlighted (level of detail: a fitted 1,000-word page stays readable and fast).
    Score labels are shown for the instances that lost credit (all with ``all_labels``) and
    placed so that they avoid each other and the words (``viewer.scene.labels``).
    """

    layers: frozenset[str]
    scale: float = 1.0
    selected: Ref | None = None
    highlighted: frozenset[Ref] = field(default_factory=frozenset)
    font_px: float = 12.0
    visible: tuple[float, float, float, float] | None = None
    min_label_px: float = 9.0
    marked: frozenset[Ref] = field(default_factory=frozenset)  # A and B disagree here
    all_labels: bool = False  # False: label only instances that lost credit (and emphasized)


def polygon(coords: np.ndarray) -> QPolygonF:
    return polygons([coords])[0]


__all__ = ["PreparedOverlay", "RenderContext", "paint_overlay", "polygon", "polygons"]


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
                self.lines[k] = polygons([it.coords.reshape(-1, 2)])[0]
            self.others.setdefault(it.layer, []).append(k)
        self.words = [k for k in shapes if items[k].layer in _WORDS]
        self.label_key: tuple[object, ...] | None = None
        self.label_layout: list[tuple[Placed, str, StyleKey]] = []
        self.labels_left_out = 0  # labels due in the last view that were not shown

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
                _paint_lines(painter, it, prep.lines[k], ctx, emphasis)
            elif it.shape == "texts":
                continue  # placed together, after everything else (_paint_labels)
            elif visible[k]:
                _paint_other(painter, it, ctx, it.ref in emphasis)
    _paint_emphasis(painter, prep, ctx)
    _paint_labels(painter, prep, ctx, emphasis)


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
    painter: QPainter, it: DrawItem, lines: QPolygonF, ctx: RenderContext, emphasis: set[Ref]
) -> None:
    style = PALETTE[it.style]
    painter.setPen(pen(style))
    if lines.size() >= 2:  # drawn from the buffer: a QPolygonF passed whole is copied per point
        painter.drawLines(lines.data(), lines.size() // 2)
    if not emphasis:
        return
    for k, (ref, rel) in enumerate(zip(it.data["refs"], it.data["related"], strict=True)):
        if ref in emphasis or rel in emphasis:
            _paint_text(painter, it.coords[k].mean(axis=0), it.data["texts"][k], style, ctx)


def _label_entries(
    prep: PreparedOverlay, ctx: RenderContext, emphasis: set[Ref]
) -> tuple[list[tuple[int, str, StyleKey, np.ndarray]], int]:
    """(priority, text, style, instance box) of every label to show: emphasized first, then
    the instances that lost credit, then the rest (``all_labels``); and how many labels were
    due in view, counting those of words too small on screen at this zoom."""
    out, due = [], 0
    for layer in prep.layers:
        if layer not in ctx.layers:
            continue
        for k in prep.others.get(layer, ()):
            it = prep.items[k]
            if it.shape != "texts":
                continue
            pos = it.coords
            n = len(pos)
            show = np.ones(n, dtype=bool)
            if ctx.visible is not None:
                x0, y0, x1, y1 = ctx.visible
                show &= (pos[:, 0] >= x0) & (pos[:, 0] <= x1)
                show &= (pos[:, 1] >= y0) & (pos[:, 1] <= y1)
            lost = np.asarray(it.data.get("lost", np.ones(n, dtype=bool)), dtype=bool)
            if not ctx.all_labels:
                show &= lost
            due += int(show.sum())  # in view and asked for, big enough on screen or not
            show &= np.asarray(it.data["sizes"]) * ctx.scale >= ctx.min_label_px
            emph = np.fromiter((r in emphasis for r in it.data["refs"]), dtype=bool, count=n)
            boxes = it.data.get("boxes")
            for j in np.flatnonzero(show | emph):
                box = boxes[j] if boxes is not None else np.concatenate([pos[j], pos[j]])
                rank = 0 if emph[j] else (1 if lost[j] else 2)
                out.append((rank, it.data["texts"][j], it.style, np.asarray(box, float)))
    out.sort(key=lambda e: e[0])
    return out, due


def _layout(
    painter: QPainter, prep: PreparedOverlay, ctx: RenderContext, emphasis: set[Ref]
) -> list[tuple[Placed, str, StyleKey]]:
    """The placed labels (screen pixels relative to the image origin), cached per view."""
    key = (ctx.scale, ctx.visible, frozenset(emphasis), ctx.all_labels, ctx.layers, ctx.font_px)
    if prep.label_key == key:
        return prep.label_layout
    entries, due = _label_entries(prep, ctx, emphasis)
    entries = entries[:MAX_LABELS]
    prep.labels_left_out = max(due - len(entries), 0)
    s = max(ctx.scale, 1e-9)
    sizes = np.array([_text_size(painter, text) for _, text, _, _ in entries], dtype=float)
    sizes = sizes.reshape(-1, 2)
    boxes = np.array([box for *_, box in entries], dtype=float).reshape(-1, 4) * s
    words = [k for k in prep.words if prep.items[k].layer in ctx.layers]
    obstacles = prep.boxes[words] * s if words else np.zeros((0, 4))
    bounds = None if ctx.visible is None else tuple(v * s for v in ctx.visible)
    placed = place_labels(boxes, sizes, obstacles, bounds)  # type: ignore[arg-type]
    pairs = list(zip(placed, entries, strict=True))
    # no free spot: left out (counted in the note), except the selected / hovered ones
    layout = [(p, text, style) for p, (rank, text, style, _) in pairs if rank == 0 or not p.crowded]
    prep.labels_left_out += len(pairs) - len(layout)
    prep.label_key, prep.label_layout = key, layout
    return layout


def _paint_labels(
    painter: QPainter, prep: PreparedOverlay, ctx: RenderContext, emphasis: set[Ref]
) -> None:
    """Score labels at their placed spots, with a leader line when set apart from their box."""
    layout = _layout(painter, prep, ctx, emphasis)
    if not layout:
        return
    s = max(ctx.scale, 1e-9)
    painter.save()
    painter.scale(1.0 / s, 1.0 / s)
    for p, _, key in layout:  # every leader line first: no line crosses a label's text
        if p.leader is not None:
            painter.setPen(pen(PALETTE[key], 1.0))
            end = QPointF(
                min(max(p.leader[0], p.x), p.x + p.w), min(max(p.leader[1], p.y), p.y + p.h)
            )
            painter.drawLine(end, QPointF(*p.leader))
    for p, text, key in layout:
        style = PALETTE[key]
        _text_box(painter, QRectF(p.x, p.y, p.w, p.h), text, style, style.fill or TEXT_BOX)
    painter.restore()


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
    w, h = _text_size(painter, text)
    _text_box(painter, QRectF(2, -h - 2, w, h), text, style, TEXT_BOX)
    painter.restore()


def _text_size(painter: QPainter, text: str) -> tuple[float, float]:
    """Screen size of a text's box: the text with a little margin."""
    fm = painter.fontMetrics()
    return fm.horizontalAdvance(text) + 8, fm.height() + 2


def _text_box(painter: QPainter, box: QRectF, text: str, style: Style, fill: Rgba) -> None:
    """A text centred on a rounded box of ``fill``, in the style's colour."""
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(qcolor(fill))
    painter.drawRoundedRect(box, 3, 3)
    painter.setPen(qcolor(style.stroke))
    painter.drawText(box, Qt.AlignmentFlag.AlignCenter, text)


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
