"""Labels on the canvas: which are due, where they go (``viewer.scene.labels``), painting.

The labels due in a view (instances that lost credit, or all) are placed in a fixed order
that does not depend on the selection or the hover, so they keep their places when something
is selected; the selected and hovered instances' labels that are not among them (left out for
want of room, or not due), and the labels of their match links, are placed afterwards around
them (``Placer.place`` against the labels already there) and drawn on top.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen

from viewer.paint.style import pen, qcolor
from viewer.scene.items import DrawItem, Ref
from viewer.scene.labels import Placed, Placer
from viewer.scene.palette import PALETTE, TEXT_BOX, Rgba, Style, StyleKey

# Labels placed in one view at most: those of the instances that lost credit in file order
# first; more would cover the image at this zoom (zoom in and the ones on screen get their
# turn).
MAX_LABELS = 150
_HALO = QPen(QColor(255, 255, 255, 150), 3.0)
_HALO.setCosmetic(True)

Entry = tuple[int, str, StyleKey, np.ndarray, tuple[Ref, ...]]  # rank, text, style, box, own
Shown = tuple[Placed, str, StyleKey, tuple[Ref, ...]]  # spot, text, style, own instances


@dataclass(frozen=True)
class RenderContext:
    """What to paint and at which scale (view pixels per image pixel).

    ``visible`` is the image-space rectangle (x0, y0, x1, y1) to paint (None = everything);
    texts of instances smaller than ``min_label_px`` on screen are left out unless selected
    or highlighted (level of detail: a fitted 1,000-word page stays readable and fast).
    Score labels are shown for the instances that lost credit (all with ``all_labels``) and
    placed so that each belongs visibly to its instance (``viewer.scene.labels``).
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


@dataclass
class LabelCache:
    """The last view's placed labels (the base layout and the emphasized ones on top)."""

    key: tuple[object, ...] | None = None
    layout: list[Shown] = field(default_factory=list)
    placer: Placer | None = None
    refs: dict[Ref, list[int]] = field(default_factory=dict)  # instance -> obstacle indices
    boxes: dict[Ref, np.ndarray] = field(default_factory=dict)  # instance -> image box
    shown: set[tuple[str, Ref]] = field(default_factory=set)
    left_out: int = 0
    extra_key: tuple[object, ...] | None = None
    extra: list[Shown] = field(default_factory=list)


class LabelSource(Protocol):
    """What the label painter reads of a prepared overlay (``viewer.paint.painter``)."""

    @property
    def items(self) -> Sequence[DrawItem]: ...
    @property
    def layers(self) -> Sequence[str]: ...
    @property
    def others(self) -> dict[str, list[int]]: ...
    @property
    def words(self) -> Sequence[int]: ...
    @property
    def boxes(self) -> np.ndarray: ...
    @property
    def labels(self) -> LabelCache: ...


def _in_view(pos: np.ndarray, ctx: RenderContext) -> np.ndarray:
    show = np.ones(len(pos), dtype=bool)
    if ctx.visible is not None:
        x0, y0, x1, y1 = ctx.visible
        show &= (pos[:, 0] >= x0) & (pos[:, 0] <= x1) & (pos[:, 1] >= y0) & (pos[:, 1] <= y1)
    return show


def _texts_items(prep: LabelSource, ctx: RenderContext) -> list[DrawItem]:
    return [
        prep.items[k]
        for layer in prep.layers
        if layer in ctx.layers
        for k in prep.others.get(layer, ())
        if prep.items[k].shape == "texts"
    ]


def _entry(it: DrawItem, j: int, rank: int) -> Entry:
    boxes = it.data.get("boxes")
    pos = it.coords
    box = boxes[j] if boxes is not None else np.concatenate([pos[j], pos[j]])
    ref = it.data["refs"][j]
    owners = it.data.get("owners")
    own = tuple(owners[j]) if owners is not None else (ref,)
    return rank, it.data["texts"][j], it.style, np.asarray(box, float), own


def due_entries(prep: LabelSource, ctx: RenderContext) -> tuple[list[Entry], int]:
    """The labels due in this view whatever is selected: those of instances that lost
    credit, then the rest (``all_labels``), of words big enough on screen; and how many were
    due in view, counting those of words too small on screen at this zoom."""
    out, due = [], 0
    for it in _texts_items(prep, ctx):
        n = len(it.coords)
        show = _in_view(it.coords, ctx)
        lost = np.asarray(it.data.get("lost", np.ones(n, dtype=bool)), dtype=bool)
        if not ctx.all_labels:
            show &= lost
        due += int(show.sum())  # in view and asked for, big enough on screen or not
        show &= np.asarray(it.data["sizes"]) * ctx.scale >= ctx.min_label_px
        out += [_entry(it, int(j), 0 if lost[j] else 1) for j in np.flatnonzero(show)]
    out.sort(key=lambda e: e[0])
    return out, due


def _obstacles(
    prep: LabelSource, ctx: RenderContext, cache: LabelCache
) -> tuple[np.ndarray, list[np.ndarray]]:
    """Screen boxes of the instances in view (GT and detections of the layers shown) and
    their polygons (image coordinates)."""
    s = max(ctx.scale, 1e-9)
    words = [k for k in prep.words if prep.items[k].layer in ctx.layers]
    if ctx.visible is not None and words:
        x0, y0, x1, y1 = ctx.visible
        b = prep.boxes[words]
        near = (b[:, 2] >= x0) & (b[:, 0] <= x1) & (b[:, 3] >= y0) & (b[:, 1] <= y1)
        words = [k for k, keep in zip(words, near.tolist(), strict=True) if keep]
    cache.refs, cache.boxes = {}, {}
    for n, k in enumerate(words):
        ref = prep.items[k].ref
        if ref is not None:
            cache.refs.setdefault(ref, []).append(n)
            cache.boxes.setdefault(ref, prep.boxes[k])
    shapes = [prep.items[k].coords for k in words]
    return (prep.boxes[words] * s if words else np.zeros((0, 4))), shapes


def _place(
    painter: QPainter, placer: Placer, entries: list[Entry], cache: LabelCache, s: float
) -> list[tuple[Placed, Entry]]:
    out = []
    for e in entries:
        w, h = text_size(painter, e[1])
        own = {n for ref in e[4] for n in cache.refs.get(ref, ())}
        box = e[3] * s
        out.append((placer.place((box[0], box[1], box[2], box[3]), w, h, own), e))
    return out


def base_layout(painter: QPainter, prep: LabelSource, ctx: RenderContext) -> list[Shown]:
    """The due labels placed (screen pixels relative to the image origin), cached per view;
    those with no free spot are left out and counted in ``labels.left_out``."""
    cache = prep.labels
    key = (ctx.scale, ctx.visible, ctx.all_labels, ctx.layers, ctx.font_px)
    if cache.key == key:
        return cache.layout
    entries, due = due_entries(prep, ctx)
    entries = entries[:MAX_LABELS]
    s = max(ctx.scale, 1e-9)
    bounds = None if ctx.visible is None else tuple(v * s for v in ctx.visible)
    rects, shapes = _obstacles(prep, ctx, cache)
    cache.placer = Placer(rects, bounds, shapes, s)  # type: ignore[arg-type]
    placed = _place(painter, cache.placer, entries, cache, s)
    cache.layout = [(p, e[1], e[2], e[4]) for p, e in placed if not p.crowded]
    cache.shown = {(e[1], e[4][0]) for p, e in placed if not p.crowded}
    cache.left_out = max(due - len(cache.layout), 0)
    cache.key, cache.extra_key = key, None
    return cache.layout


def _emphasis_entries(prep: LabelSource, ctx: RenderContext, emphasis: set[Ref]) -> list[Entry]:
    """Labels of the selected and hovered instances not shown already, and the labels of
    their match links (the pair's value, placed around both boxes)."""
    cache, out = prep.labels, []
    for it in _texts_items(prep, ctx):
        for j, ref in enumerate(it.data["refs"]):
            if ref in emphasis and (it.data["texts"][j], ref) not in cache.shown:
                out.append(_entry(it, j, 0))
    if "links" not in ctx.layers:
        return out
    for k in prep.others.get("links", ()):
        it = prep.items[k]
        if it.shape != "lines":
            continue
        for j, (ref, rel) in enumerate(zip(it.data["refs"], it.data["related"], strict=True)):
            a, b = cache.boxes.get(ref), cache.boxes.get(rel)
            if (ref in emphasis or rel in emphasis) and a is not None and b is not None:
                box = np.concatenate([np.minimum(a[:2], b[:2]), np.maximum(a[2:], b[2:])])
                out.append((0, it.data["texts"][j], it.style, box, (ref, rel)))
    return out


def emphasis_layout(
    painter: QPainter, prep: LabelSource, ctx: RenderContext, emphasis: set[Ref]
) -> list[Shown]:
    """The emphasized labels placed around the base layout, which they never move."""
    cache = prep.labels
    key = (cache.key, frozenset(emphasis))
    if cache.extra_key == key:
        return cache.extra
    cache.extra_key, cache.extra = key, []
    if not emphasis or cache.placer is None:
        return cache.extra
    placer = cache.placer.fork()
    placed = _place(painter, placer, _emphasis_entries(prep, ctx, emphasis), cache, ctx.scale)
    cache.extra = [(p, e[1], e[2], e[4]) for p, e in placed]
    return cache.extra


def paint_labels(
    painter: QPainter, prep: LabelSource, ctx: RenderContext, emphasis: set[Ref]
) -> None:
    """Labels at their placed spots, with a leader line when set apart from their box; all
    inside the visible area (without ``ctx.visible``: the painter's device, so an export or
    a snapshot cuts none at its edge)."""
    if ctx.visible is None:
        ctx = replace(ctx, visible=device_view(painter))
    layout = base_layout(painter, prep, ctx) + emphasis_layout(painter, prep, ctx, emphasis)
    if not layout:
        return
    s = max(ctx.scale, 1e-9)
    painter.save()
    painter.scale(1.0 / s, 1.0 / s)
    for p, _, key, _ in layout:  # every leader line first: no line crosses a label's text
        if p.leader is not None:
            end = QPointF(
                min(max(p.leader[0], p.x), p.x + p.w), min(max(p.leader[1], p.y), p.y + p.h)
            )
            painter.setPen(_HALO)  # light under the line: seen on dark images too
            painter.drawLine(end, QPointF(*p.leader))
            painter.setPen(pen(PALETTE[key], 1.0))
            painter.drawLine(end, QPointF(*p.leader))
    for p, text, key, _ in layout:
        style = PALETTE[key]
        text_box(painter, QRectF(p.x, p.y, p.w, p.h), text, style, _label_fill(style))
    painter.restore()


def device_view(painter: QPainter) -> tuple[float, float, float, float] | None:
    """The painter's whole device in image coordinates (x0, y0, x1, y1)."""
    dev = painter.device()
    inverse, ok = painter.worldTransform().inverted()
    if dev is None or not ok or dev.width() <= 0 or dev.height() <= 0:
        return None
    r = inverse.mapRect(QRectF(0, 0, dev.width(), dev.height()))
    return r.left(), r.top(), r.right(), r.bottom()


def _label_fill(style: Style) -> Rgba:
    """The style's own light fill (transcriptions), else the light box: a marker's fill
    (TedEval's angles) would hide the text drawn in the same colour."""
    f = style.fill
    if f is None or 0.299 * f.r + 0.587 * f.g + 0.114 * f.b < 200:
        return TEXT_BOX
    return f


def text_size(painter: QPainter, text: str) -> tuple[float, float]:
    """Screen size of a text's box: the text with a little margin."""
    fm = painter.fontMetrics()
    return fm.horizontalAdvance(text) + 8, fm.height() + 2


def text_box(painter: QPainter, box: QRectF, text: str, style: Style, fill: Rgba) -> None:
    """A text centred on a rounded box of ``fill``, in the style's colour."""
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(qcolor(fill))
    painter.drawRoundedRect(box, 3, 3)
    painter.setPen(qcolor(style.stroke))
    painter.drawText(box, Qt.AlignmentFlag.AlignCenter, text)
