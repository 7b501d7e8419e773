"""Draw items: what the overlay hands the painter (no Qt), and their bounding boxes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np

from metrics.core.model import Sample
from viewer.scene.palette import StyleKey

Ref = tuple[str, int]  # ("gt", i) or ("det", j)
_NONE: Mapping[str, Any] = MappingProxyType({})


@dataclass(slots=True, eq=False)
class DrawItem:
    """One thing to draw, in image coordinates.

    shape: "polygon" (closed ring), "line" (polyline), "points", "text", "arc", and two
    batches that stand for many small things at once (cheap at 1,000 words per image):
    "texts" (coords = (n, 2) anchors; data: texts, sizes, refs) and "lines" (coords =
    (n, 2, 2) segments; data: texts, refs, related).
    style: its state, a key of ``viewer.scene.palette.PALETTE`` (colour, fill, pen).
    ref: the instance it belongs to (for picking); related: instances to light up with it.
    Treated as immutable once made (not frozen: a 1,000-word page makes thousands of them
    per image, and a frozen dataclass costs three times as much to build).
    """

    layer: str
    shape: str
    coords: np.ndarray
    style: StyleKey
    text: str = ""
    ref: Ref | None = None
    related: tuple[Ref, ...] = ()
    extra: Mapping[str, float] = field(default_factory=lambda: _NONE)
    data: Mapping[str, Any] = field(default_factory=lambda: _NONE)


def drawn_segments(segments: np.ndarray) -> np.ndarray:
    """(n, 2, 2) segments without those of no length: a match link whose ends coincide (the
    words overlap where it would start) is not drawn, nor named in a legend."""
    seg = segments.reshape(-1, 2, 2)
    return seg[np.any(seg[:, 0] != seg[:, 1], axis=1)]


def bounds(sample: Sample) -> tuple[float, float, float, float]:
    """(xmin, ymin, xmax, ymax) of every box of the sample (for a canvas without image)."""
    pts = [i.points for i in (*sample.gt, *sample.det)]
    if not pts:
        return (0.0, 0.0, 640.0, 480.0)
    allp = np.concatenate(pts)
    return (
        float(allp[:, 0].min()),
        float(allp[:, 1].min()),
        float(allp[:, 0].max()),
        float(allp[:, 1].max()),
    )


def bboxes(coords: Sequence[np.ndarray]) -> np.ndarray:
    """(n, 4) bounding boxes (x0, y0, x1, y1) of many coordinate arrays, in one pass."""
    if not coords:
        return np.zeros((0, 4))
    arrays = [
        c if isinstance(c, np.ndarray) and c.ndim == 2 else np.asarray(c, float).reshape(-1, 2)
        for c in coords
    ]
    lengths = np.fromiter((len(a) for a in arrays), dtype=np.intp, count=len(arrays))
    out = np.zeros((len(arrays), 4))
    keep = lengths > 0
    if keep.any():
        flat = np.concatenate([a for a in arrays if len(a)])
        starts = np.concatenate([[0], np.cumsum(lengths[keep])[:-1]])
        out[keep, :2] = np.minimum.reduceat(flat, starts, axis=0)
        out[keep, 2:] = np.maximum.reduceat(flat, starts, axis=0)
    return out


_BOX_CACHE: dict[int, tuple[Sample, np.ndarray, np.ndarray]] = {}


def sample_boxes(sample: Sample) -> tuple[np.ndarray, np.ndarray]:
    """Bounding boxes of the GTs and of the detections (kept for the last few samples)."""
    hit = _BOX_CACHE.get(id(sample))
    if hit is None or hit[0] is not sample:
        if len(_BOX_CACHE) > 16:
            _BOX_CACHE.clear()
        hit = (
            sample,
            bboxes([g.points for g in sample.gt]),
            bboxes([d.points for d in sample.det]),
        )
        _BOX_CACHE[id(sample)] = hit
    return hit[1], hit[2]


def boxes_frame(
    samples: Sequence[Sample | None], margin: float = 0.06, least: float = 16.0
) -> tuple[float, float, float, float] | None:
    """The extent of the boxes of these samples (the sides of a comparison) with a margin of
    ``margin`` of its size, ``least`` pixels at least; None without any box."""
    found = [bounds(s) for s in samples if s is not None and (s.gt or s.det)]
    if not found:
        return None
    x0, y0 = min(b[0] for b in found), min(b[1] for b in found)
    x1, y1 = max(b[2] for b in found), max(b[3] for b in found)
    pad = max(least, margin * max(x1 - x0, y1 - y0))
    return x0 - pad, y0 - pad, x1 + pad, y1 + pad


def intersect(
    a: tuple[float, float, float, float], b: tuple[float, float, float, float]
) -> tuple[float, float, float, float]:
    """The common part of two rectangles (x0, y0, x1, y1), empty (not inverted) if none."""
    x0, y0 = max(a[0], b[0]), max(a[1], b[1])
    return x0, y0, max(min(a[2], b[2]), x0), max(min(a[3], b[3]), y0)
