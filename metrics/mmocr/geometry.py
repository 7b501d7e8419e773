"""Polygons and pair areas as MMOCR builds them (``mmocr/utils/polygon_utils.py``).

``poly2shapely``: the flat coordinates converted to **float32**, then a shapely polygon.
``poly_make_valid``: an invalid polygon is replaced by ``buffer(0)``, and by the convex hull
of that when it falls into several pieces. ``poly_intersection`` / ``poly_union`` work on the
repaired polygons; ``poly_iou`` = intersection / union area, 0 when the union is empty. The
prediction's own area in the ignore test is that of the polygon as given (not repaired).
Everything is computed for a block of samples at once; only pairs of the same sample whose
bounding boxes meet are intersected.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
import shapely

from metrics.core.model import FloatArray, Sample
from metrics.core.records import dataclass
from metrics.shapes import robust
from metrics.shapes.geometry import GeomArray, Quads, pair_intersection_areas, same_sample_pairs
from metrics.shapes.quads import is_convex_quad
from metrics.shapes.ringstack import convert

BoolArray = npt.NDArray[np.bool_]
_POLYGON = 3  # shapely type id
IGNORE_EPS = 1e-5  # MMOCR: intersection / (area(pred) + 1e-5)


@dataclass(frozen=True)
class Polygons:
    """Polygons of one side, flat over a block: as given, their area, and repaired."""

    raw: GeomArray
    raw_area: FloatArray
    repaired: GeomArray
    repaired_area: FloatArray
    enough_points: BoolArray  # at least 3 vertices (MMOCR asserts this)
    quads: Quads  # the float32 vertices (as float64) of the convex quads, for numpy clipping


def mmocr_polygons(points: Sequence[FloatArray]) -> Polygons:
    """float32 vertices -> polygons (empty for < 3 points), areas and repaired copies."""
    n = len(points)
    lengths = np.fromiter((len(p) for p in points), dtype=np.intp, count=n)
    ok = lengths >= 3
    raw = np.empty(n, dtype=object)
    raw[~ok] = shapely.Polygon()
    quads: Quads = (np.zeros((n, 4, 2)), np.zeros(n, dtype=bool))
    if ok.any():
        keep = np.flatnonzero(ok)
        coords = convert(np.concatenate([points[i] for i in keep.tolist()]), "curved")
        owner = np.repeat(np.arange(len(keep)), lengths[keep])
        raw[keep] = shapely.polygons(shapely.linearrings(coords, indices=owner))
        quads = _convex_quads(coords, lengths[keep], keep, n)
    repaired = raw.copy()
    # a strictly convex quad with finite vertices is valid: GEOS checks only the others
    rest = np.flatnonzero(~(quads[1] & np.isfinite(quads[0]).all(axis=(1, 2))))
    bad = rest[~shapely.is_valid(raw[rest])] if len(rest) else np.zeros(0, np.intp)
    if len(bad):
        fixed = shapely.buffer(raw[bad], 0)
        pieces = shapely.get_type_id(fixed) != _POLYGON
        fixed[pieces] = shapely.convex_hull(fixed[pieces])
        repaired[bad] = fixed
    area = np.asarray(shapely.area(raw) if n else np.zeros(0), dtype=np.float64)
    fixed_area = area.copy()
    if len(bad):
        fixed_area[bad] = shapely.area(repaired[bad])
    return Polygons(raw, area, repaired, fixed_area, ok, quads)


def _convex_quads(
    coords: FloatArray, lengths: npt.NDArray[np.intp], keep: npt.NDArray[np.intp], n: int
) -> Quads:
    """(n, 4, 2) vertices of the 4-point rings (zeros elsewhere) and which are convex quads
    (``ringstack.stack_quads`` of the rings, from the converted ``coords`` of ``keep``)."""
    out, convex = np.zeros((n, 4, 2)), np.zeros(n, dtype=bool)
    four = np.flatnonzero(lengths == 4)
    if len(four):
        starts = (np.cumsum(lengths) - lengths)[four]
        rings = coords[starts[:, None] + np.arange(4)]
        out[keep[four]] = rings
        convex[keep[four]] = is_convex_quad(rings)
    return out, convex


@dataclass(frozen=True)
class SampleAreas:
    """One sample: GT x det intersection areas and IoU (repaired polygons), det raw areas."""

    gt_enough_points: BoolArray
    det_raw_area: FloatArray
    inter: FloatArray
    iou: FloatArray


def pair_areas(
    gt: Polygons,
    det: Polygons,
    pi: npt.NDArray[np.intp],
    pj: npt.NDArray[np.intp],
    thresholds: tuple[float, float],
) -> tuple[FloatArray, FloatArray]:
    """Intersection area and IoU of the pairs (GT ``pi``, det ``pj``).

    Convex quad pairs are clipped in numpy (``metrics.shapes.geometry.pair_intersection_areas``),
    the rest by GEOS; the union's area is |G| + |D| - |G ∩ D|. Where a decision lies within
    1e-6 of its threshold (IoU vs ``thresholds[0]``, the ignore ratio vs ``thresholds[1]``)
    both are recomputed by GEOS as MMOCR does, so the strict ``>`` tests decide identically.
    """
    a, b = gt.repaired[pi], det.repaired[pj]
    inter = pair_intersection_areas(gt.quads, det.quads, gt.repaired, det.repaired, pi, pj)
    area_a, area_b = gt.repaired_area[pi], det.repaired_area[pj]
    iou = _ratio(inter, area_a + area_b - inter)
    ratio = inter / (det.raw_area[pj] + IGNORE_EPS)
    near = np.flatnonzero(
        (np.abs(iou - thresholds[0]) <= 1e-6) | (np.abs(ratio - thresholds[1]) <= 1e-6)
    )
    if len(near):
        inter[near] = shapely.area(robust.intersection(a[near], b[near]))
        iou[near] = _ratio(inter[near], shapely.area(robust.union(a[near], b[near])))
    return inter, iou


def _ratio(num: FloatArray, den: FloatArray) -> FloatArray:
    """num / den, 0 where den is 0 (MMOCR's ``zero_division``)."""
    out = np.where(den > 0, num / np.where(den > 0, den, 1.0), 0.0)
    return np.asarray(out, dtype=np.float64)


def block_areas(
    samples: Sequence[Sample], thresholds: tuple[float, float] = (0.5, 0.5)
) -> list[SampleAreas]:
    """``SampleAreas`` of every sample of the block, in one vectorized pass; ``thresholds``
    = (match IoU, ignore ratio), near which areas are computed exactly (``pair_areas``)."""
    g_counts = np.fromiter((len(s.gt) for s in samples), dtype=np.intp, count=len(samples))
    d_counts = np.fromiter((len(s.det) for s in samples), dtype=np.intp, count=len(samples))
    gt = mmocr_polygons([g.points for s in samples for g in s.gt])
    det = mmocr_polygons([d.points for s in samples for d in s.det])
    g_owner = np.repeat(np.arange(len(samples)), g_counts)
    d_owner = np.repeat(np.arange(len(samples)), d_counts)
    pi, pj = same_sample_pairs(gt.repaired, g_owner, det.repaired, d_owner)
    inter, iou = pair_areas(gt, det, pi, pj, thresholds) if len(pi) else (np.zeros(0), np.zeros(0))
    return _split(samples, g_counts, d_counts, gt, det, (pi, pj, inter, iou))


def _split(
    samples: Sequence[Sample],
    g_counts: npt.NDArray[np.intp],
    d_counts: npt.NDArray[np.intp],
    gt: Polygons,
    det: Polygons,
    pairs: tuple[npt.NDArray[np.intp], npt.NDArray[np.intp], FloatArray, FloatArray],
) -> list[SampleAreas]:
    pi, pj, inter, iou = pairs
    g_off = np.concatenate([[0], np.cumsum(g_counts)]).astype(np.intp)
    d_off = np.concatenate([[0], np.cumsum(d_counts)]).astype(np.intp)
    owner = np.searchsorted(g_off, pi, side="right") - 1
    bounds = np.searchsorted(owner, np.arange(len(samples) + 1))
    out = []
    for s in range(len(samples)):
        sel = slice(bounds[s], bounds[s + 1])
        shape = (int(g_counts[s]), int(d_counts[s]))
        m_inter, m_iou = np.zeros(shape), np.zeros(shape)
        rows, cols = pi[sel] - g_off[s], pj[sel] - d_off[s]
        m_inter[rows, cols] = inter[sel]
        m_iou[rows, cols] = iou[sel]
        out.append(
            SampleAreas(
                gt.enough_points[g_off[s] : g_off[s + 1]],
                det.raw_area[d_off[s] : d_off[s + 1]],
                m_inter,
                m_iou,
            )
        )
    return out
