"""Line and paragraph masks of a sample (HIERTEXT.md section 3), as ``eval.py`` builds them.

Every word is rasterised with OpenCV's ``fillPoly`` (``metrics.hiertext.raster``); a group's
mask is the union of its words' masks and its box ``[ymin, xmin, ymax, xmax]`` the min / max
of their vertices. A GT group uses its own vertices instead when it has no words, and a GT
paragraph also when it is illegible; its box then also spans the image corners
``(0, 0)``-``(w, h)``. Detected groups always use their words.

Pixel counts are exact integers, returned as float32 as the official ``np.sum(..., dtype=
float32)`` does. Two masks intersect only when their boxes overlap with positive area.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import numpy.typing as npt

from metrics.core.model import FloatArray, Group, Instance, Sample
from metrics.core.records import dataclass
from metrics.hiertext.raster import EMPTY, Raster, fill_polys
from metrics.shapes.cache import GeometryCache

F32 = npt.NDArray[np.float32]
BoolArray = npt.NDArray[np.bool_]

#: per level: does an illegible GT group use its own vertices? (official: paragraphs only)
OWN_WHEN_ILLEGIBLE = {"line": False, "paragraph": True}


@dataclass(frozen=True, slots=True, eq=False)
class Masks:
    """The masks of one side of one level: rasters, boxes (n, 4) and pixel areas."""

    rasters: tuple[Raster, ...]
    boxes: FloatArray
    area: F32


def word_boxes(words: Sequence[Instance]) -> FloatArray:
    """(n, 4) ``[ymin, xmin, ymax, xmax]`` of each word's vertices (vectorized)."""
    if not words:
        return np.zeros((0, 4))
    counts = np.array([len(w.points) for w in words])
    pts = np.concatenate([w.points for w in words])
    starts = np.cumsum(counts) - counts
    lo = np.minimum.reduceat(pts, starts, axis=0)
    hi = np.maximum.reduceat(pts, starts, axis=0)
    return np.column_stack([lo[:, 1], lo[:, 0], hi[:, 1], hi[:, 0]])


@dataclass(frozen=True, slots=True, eq=False)
class WordRasters:
    """The rasters and boxes of a sample's GT and detected words."""

    gt: tuple[Raster, ...]
    det: tuple[Raster, ...]
    gt_boxes: FloatArray
    det_boxes: FloatArray


def word_rasters(samples: Sequence[Sample], geometry: GeometryCache) -> list[WordRasters]:
    """Rasters of every word of a block of samples, in one vectorized pass (memoized in
    ``geometry``, the run's cache, so the line and paragraph levels share them)."""
    return geometry.memo(
        ("hiertext_words", *map(id, samples)),
        samples[0] if samples else None,
        lambda: _word_rasters(samples),
    )


def uses_own_vertices(group: Group, level: str) -> bool:
    """A GT group is the fill of its own vertices when it has no words, and (paragraphs
    only) when it is illegible."""
    return not group.words or (OWN_WHEN_ILLEGIBLE[level] and group.dont_care)


def own_rasters(
    samples: Sequence[Sample], level: str, geometry: GeometryCache
) -> list[dict[int, Raster]]:
    """Per sample, the GT groups of ``level`` drawn from their own vertices (group index ->
    raster), rasterised in one pass for the block and memoized in ``geometry``."""
    return geometry.memo(
        ("hiertext_own", level, *map(id, samples)),
        samples[0] if samples else None,
        lambda: _own_rasters(samples, level),
    )


def _own_rasters(samples: Sequence[Sample], level: str) -> list[dict[int, Raster]]:
    todo: list[tuple[int, int, FloatArray, int, int]] = []
    for q, s in enumerate(samples):
        h = s.hierarchy
        assert h is not None
        for k, g in enumerate(h.levels[level].gt):
            if uses_own_vertices(g, level):
                pts = g.points if g.points is not None else np.zeros((0, 2))
                todo.append((q, k, pts, h.width, h.height))
    rasters = fill_polys([t[2] for t in todo], [t[3] for t in todo], [t[4] for t in todo])
    out: list[dict[int, Raster]] = [{} for _ in samples]
    for (q, k, *_), r in zip(todo, rasters, strict=True):
        out[q][k] = r
    return out


def _word_rasters(samples: Sequence[Sample]) -> list[WordRasters]:
    polys: list[FloatArray] = []
    sizes: list[tuple[int, int]] = []
    for s in samples:
        h = s.hierarchy
        assert h is not None
        polys += [w.points for w in (*s.gt, *s.det)]
        sizes += [(h.width, h.height)] * (len(s.gt) + len(s.det))
    rasters = fill_polys(polys, [w for w, _ in sizes], [h for _, h in sizes])
    out, k = [], 0
    for s in samples:
        n, m = len(s.gt), len(s.det)
        out.append(
            WordRasters(
                tuple(rasters[k : k + n]),
                tuple(rasters[k + n : k + n + m]),
                word_boxes(s.gt),
                word_boxes(s.det),
            )
        )
        k += n + m
    return out


def union(rasters: Sequence[Raster]) -> Raster:
    """The logical OR of rasters, on the window that holds them all."""
    parts = [r for r in rasters if r.mask.size]
    if not parts:
        return EMPTY
    if len(parts) == 1:
        return parts[0]
    y0 = min(r.y0 for r in parts)
    x0 = min(r.x0 for r in parts)
    y1 = max(r.y0 + r.mask.shape[0] for r in parts)
    x1 = max(r.x0 + r.mask.shape[1] for r in parts)
    out = np.zeros((y1 - y0, x1 - x0), dtype=bool)
    for r in parts:
        h, w = r.mask.shape
        out[r.y0 - y0 : r.y0 - y0 + h, r.x0 - x0 : r.x0 - x0 + w] |= r.mask
    return Raster(y0, x0, out)


def level_masks(
    sample: Sample, words: WordRasters, own: Mapping[int, Raster], level: str, side: str
) -> Masks:
    """Masks, boxes and areas of the ``level`` groups of one side of the sample."""
    hier = sample.hierarchy
    assert hier is not None
    groups = hier.levels[level].gt if side == "gt" else hier.levels[level].det
    rasters = words.gt if side == "gt" else words.det
    word_boxes = words.gt_boxes if side == "gt" else words.det_boxes
    out: list[Raster] = []
    boxes = np.zeros((len(groups), 4))
    for k, g in enumerate(groups):
        idx = list(g.words)
        wb = word_boxes[idx] if idx else np.zeros((0, 4))
        if side == "gt" and uses_own_vertices(g, level):
            raster = own[k]
            corners = np.array([0.0, 0.0, hier.height, hier.width])
            wb = np.vstack([wb, corners[None, :]])
        else:
            raster = union([rasters[i] for i in idx])
        out.append(raster)
        boxes[k] = (wb[:, 0].min(), wb[:, 1].min(), wb[:, 2].max(), wb[:, 3].max())
    area = np.array([r.area for r in out], dtype=np.float32)
    return Masks(tuple(out), boxes.astype(np.float32).astype(np.float64), area)


def boxes_overlap(a: FloatArray, b: FloatArray) -> BoolArray:
    """(n, m): the boxes ``[ymin, xmin, ymax, xmax]`` overlap with positive area."""
    h = np.minimum(a[:, None, 2], b[None, :, 2]) - np.maximum(a[:, None, 0], b[None, :, 0])
    w = np.minimum(a[:, None, 3], b[None, :, 3]) - np.maximum(a[:, None, 1], b[None, :, 1])
    return np.asarray((np.maximum(h, 0) * np.maximum(w, 0)) > 0, dtype=bool)


def overlap(a: Raster, b: Raster) -> int:
    """Number of pixels set in both rasters."""
    y0, x0 = max(a.y0, b.y0), max(a.x0, b.x0)
    y1 = min(a.y0 + a.mask.shape[0], b.y0 + b.mask.shape[0])
    x1 = min(a.x0 + a.mask.shape[1], b.x0 + b.mask.shape[1])
    if y0 >= y1 or x0 >= x1:
        return 0
    sa = a.mask[y0 - a.y0 : y1 - a.y0, x0 - a.x0 : x1 - a.x0]
    sb = b.mask[y0 - b.y0 : y1 - b.y0, x0 - b.x0 : x1 - b.x0]
    return int(np.count_nonzero(sa & sb))


def intersections(gt: Masks, det: Masks, *, box_prefilter: bool) -> F32:
    """(n_gt, n_det) pixel intersections (float32), zero where the boxes do not overlap with
    positive area (official) or, with ``box_prefilter=False``, wherever no pixel is shared."""
    out = np.zeros((len(gt.rasters), len(det.rasters)), dtype=np.float32)
    if out.size == 0:
        return out
    cand = boxes_overlap(gt.boxes, det.boxes) if box_prefilter else np.ones(out.shape, bool)
    for i, j in zip(*np.nonzero(cand), strict=True):
        out[i, j] = overlap(gt.rasters[i], det.rasters[j])
    return out
