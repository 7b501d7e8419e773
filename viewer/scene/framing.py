"""Fitting a sample to a canvas (no Qt): which part of the scene to show, at what scale.

The fit is computed for the viewport's own size, below the notes painted over its top (the
name tag and the banner), and the scene is widened to the whole area the viewport shows, so
the view can centre on the fitted part wherever it lies in the image. Computed against the
scene rectangle alone (as ``QGraphicsView.fitInView`` does), a fitted part at the edge of
the scene was pushed back into it: in a comparison the boxes at the bottom of an image
without picture came out cut off under a wide empty band.
"""

from __future__ import annotations

from dataclasses import dataclass

Rect = tuple[float, float, float, float]  # x0, y0, x1, y1 (scene coordinates)


@dataclass(frozen=True, slots=True)
class Fit:
    """The view that shows ``part`` whole: its scale (view pixels per scene unit), the scene
    point at the viewport's centre, and the scene area the whole viewport shows."""

    scale: float
    centre: tuple[float, float]
    shown: Rect


def fit_part(scene: Rect, boxes: Rect | None, *, comparing: bool) -> Rect:
    """What a fit shows: the whole scene (the image, or the boxes' frame without one); when
    comparing, the boxes of both sides with their margin (``boxes``), so the words fill the
    narrower canvases, even where that margin reaches past the image's edge."""
    if comparing and boxes is not None and boxes[2] > boxes[0] and boxes[3] > boxes[1]:
        return boxes
    return scene


def fit_view(part: Rect, width: int, height: int, *, top: int = 0, margin: int = 4) -> Fit:
    """The scale and centre that show ``part`` whole in a viewport of ``width`` x ``height``
    pixels whose top ``top`` pixels are covered by notes, ``margin`` pixels clear all round."""
    x0, y0, x1, y1 = part
    pw, ph = max(x1 - x0, 1e-6), max(y1 - y0, 1e-6)
    room_w = max(width - 2 * margin, 1)
    room_h = max(height - top - 2 * margin, 1)
    return _centred(part, min(room_w / pw, room_h / ph), width, height, top)


def zoom_view(box: Rect, width: int, height: int, *, top: int, current: float) -> Fit:
    """The view of ``box`` (an instance and its partners) with a margin of half its size all
    round, so its neighbours stay in view, below the notes. It never zooms out from
    ``current`` further than it takes to show ``box`` itself whole: a big word in the
    whole-image fit keeps that scale and is centred."""
    x0, y0, x1, y1 = box
    pad = max(x1 - x0, y1 - y0, 20.0) * 0.5
    padded = fit_view((x0 - pad, y0 - pad, x1 + pad, y1 + pad), width, height, top=top)
    if padded.scale >= current:
        return padded
    bare = fit_view(box, width, height, top=top)
    return _centred(box, min(current, bare.scale), width, height, top)


def _centred(part: Rect, scale: float, width: int, height: int, top: int) -> Fit:
    """``part``'s centre at the centre of the area below the notes, at ``scale``."""
    x0, y0, x1, y1 = part
    cx = (x0 + x1) / 2
    cy = (y0 + y1) / 2 - top / (2 * scale)
    half_w, half_h = width / (2 * scale), height / (2 * scale)
    return Fit(scale, (cx, cy), (cx - half_w, cy - half_h, cx + half_w, cy + half_h))


def union(a: Rect, b: Rect) -> Rect:
    """The smallest rectangle holding both."""
    return min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])
