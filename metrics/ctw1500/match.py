"""Matching of ``ctw1500_eval`` over a block of samples (flat arrays, global indices).

Detections are decided in evaluation order within each image: best GT = first argmax of the
IoU row (0 for invalid GT), TP when IoU > threshold and the GT is still free (the first such
detection in evaluation order), otherwise FP (``FP_gt_taken`` / ``FP_low_iou``); unusable
detections are skipped. Spec ``TOTALTEXT_CTW1500.md`` C3-C4.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import shapely

from metrics.core.model import FloatArray, Sample
from metrics.core.records import dataclass
from metrics.ctw1500.params import Ctw1500Params
from metrics.shapes import robust
from metrics.shapes.geometry import FlatGeometry, flat_geometry, intersection_bounds
from metrics.shapes.matching import BoolArray, IntArray, best_partner
from metrics.shapes.order import confidence_order

_SLACK = 1e-9  # bounds within this of a computed IoU are computed too (rounding)


def polygon_reasons(points: Sequence[FloatArray], invalid: BoolArray) -> list[str]:
    """Why each polygon cannot be used ("" when it can): fewer than 3 points, or shapely's
    ``is_valid`` fails (self-intersection, too few distinct points, zero-area ring)."""
    out = []
    for pts, bad in zip(points, invalid, strict=True):
        if len(pts) < 3:
            out.append(f"fewer than 3 points ({len(pts)})")
        elif bad:
            out.append(f"not a valid polygon: {shapely.is_valid_reason(shapely.Polygon(pts))}")
        else:
            out.append("")
    return out


@dataclass(frozen=True)
class Block:
    """Per-pair and per-instance arrays of a block of samples (global indices)."""

    f: FlatGeometry
    g_reason: list[str]
    d_reason: list[str]
    iou: FloatArray  # per candidate pair; -1 when not computed (cannot matter) or unusable
    best_gt: IntArray  # per det: first argmax GT (global), -1 without GT
    best_iou: FloatArray
    tp: BoolArray  # per det
    fp: BoolArray
    taken: BoolArray  # per det: FP because its best GT was taken
    rank: IntArray  # per det: evaluation position within its sample
    sorted_conf: list[bool]


def _ranks(
    samples: Sequence[Sample], f: FlatGeometry, by_conf: bool
) -> tuple[IntArray, list[bool]]:
    rank = np.arange(len(f.d_owner), dtype=np.intp) - f.d_off[f.d_owner]
    used = []
    for s, sample in enumerate(samples):
        on = by_conf and bool(sample.det) and all(d.confidence is not None for d in sample.det)
        used.append(on)
        order = confidence_order(sample.det, on)
        if order != list(range(len(order))):
            rank[f.d_off[s] + np.asarray(order, dtype=np.intp)] = np.arange(len(order))
    return rank, used


def _bounds(f: FlatGeometry, g_area: FloatArray, d_area: FloatArray, lo: float) -> FloatArray:
    """An upper bound of each pair's IoU (from the bound of its intersection)."""
    top = intersection_bounds(f, g_area, d_area)
    out: FloatArray = top / np.maximum(g_area[f.pi] + d_area[f.pj] - top, lo)
    return out


@dataclass(frozen=True)
class _Exact:
    """IoUs computed on demand as ``voc_eval_polygon`` does (GEOS ``det ∩ gt``, shapely
    areas, union clamped); -1 marks a pair not computed (or unusable).

    A detection covered by the GT (tested only when its bounding box lies in the GT's)
    intersects it in its own area: no clipping needed; IoUs that land at the threshold are
    clipped all the same."""

    f: FlatGeometry
    g_area: FloatArray
    d_area: FloatArray
    lo: float
    threshold: float
    iou: FloatArray

    def compute(self, k: IntArray) -> None:
        if not len(k):
            return
        f = self.f
        pi, pj = f.pi[k], f.pj[k]
        inter = np.full(len(k), np.nan)
        gb, db = shapely.bounds(f.g_geoms[pi]), shapely.bounds(f.d_geoms[pj])
        boxed = np.flatnonzero(
            np.all(gb[:, :2] <= db[:, :2], axis=1) & np.all(db[:, 2:] <= gb[:, 2:], axis=1)
        )
        if len(boxed):
            shapely.prepare(f.g_geoms[pi[boxed]])
            inside = boxed[shapely.covers(f.g_geoms[pi[boxed]], f.d_geoms[pj[boxed]])]
            inter[inside] = self.d_area[pj[inside]]
        self._clip(inter, pi, pj, np.isnan(inter))
        union = self.g_area[pi] + self.d_area[pj] - inter
        iou = inter / np.maximum(union, self.lo)
        self._clip(inter, pi, pj, np.abs(iou - self.threshold) <= _SLACK)
        union = self.g_area[pi] + self.d_area[pj] - inter
        self.iou[k] = inter / np.maximum(union, self.lo)

    def _clip(self, inter: FloatArray, pi: IntArray, pj: IntArray, sel: BoolArray) -> None:
        if sel.any():
            f = self.f
            inter[sel] = shapely.area(robust.intersection(f.d_geoms[pj[sel]], f.g_geoms[pi[sel]]))


def _best_gts(ex: _Exact, use: BoolArray, n_det: int) -> tuple[IntArray, FloatArray]:
    """First argmax GT of every det and its IoU, computing only the pairs that can be it:
    each det's pair of highest bound first, then the pairs whose bound reaches that IoU."""
    f = ex.f
    bound = np.where(use, _bounds(f, ex.g_area, ex.d_area, ex.lo), -1.0)
    top, _ = best_partner(f.pj, np.arange(len(f.pj), dtype=np.intp), bound, n_det)
    top = top[top >= 0]
    ex.compute(top[use[top]])
    first = np.maximum(best_partner(f.pj, f.pi, ex.iou, n_det)[1], 0.0)
    ex.compute(np.flatnonzero(use & (ex.iou < 0) & (bound >= first[f.pj] - _SLACK)))
    best_gt, best_iou = best_partner(f.pj, f.pi, ex.iou, n_det)
    return best_gt, np.maximum(best_iou, 0.0)


def block(
    samples: Sequence[Sample], params: Ctw1500Params, near: bool = True, every: bool = False
) -> Block:
    """The block's matching; ``near`` False leaves out the missed GTs' near misses (the
    IoUs of their other pairs: only their GT results show them); ``every`` computes the IoU
    of every usable pair (the pair table)."""
    g_pts = [g.points for s in samples for g in s.gt]
    d_pts = [d.points for s in samples for d in s.det]
    f = flat_geometry(
        [[g.points for g in s.gt] for s in samples],
        [[d.points for d in s.det] for s in samples],
        "exact",
        intersections=False,
    )
    g_reason = polygon_reasons(g_pts, f.g_invalid)
    d_reason = polygon_reasons(d_pts, f.d_invalid)
    g_ok = np.array([not r for r in g_reason], dtype=bool)
    d_ok = np.array([not r for r in d_reason], dtype=bool)
    g_area = np.where(g_ok, shapely.area(f.g_geoms), 0.0) if len(g_ok) else np.zeros(0)
    d_area = np.where(d_ok, shapely.area(f.d_geoms), 0.0) if len(d_ok) else np.zeros(0)
    use = g_ok[f.pi] & d_ok[f.pj]
    ex = _Exact(f, g_area, d_area, params.min_union, params.iou_threshold, np.full(len(f.pi), -1.0))
    n_det = len(f.d_owner)
    best_gt, best_iou = _best_gts(ex, use, n_det)
    first_gt = np.where(f.g_off[f.d_owner + 1] > f.g_off[f.d_owner], f.g_off[f.d_owner], -1)
    best_gt = np.where(best_iou > 0, best_gt, first_gt).astype(np.intp)
    rank, used = _ranks(samples, f, params.sort_by_confidence)
    qual = np.flatnonzero(d_ok & (best_iou > params.iou_threshold))
    qual = qual[np.lexsort((rank[qual], best_gt[qual]))]
    first = np.r_[True, best_gt[qual][1:] != best_gt[qual][:-1]] if len(qual) else np.zeros(0, bool)
    tp = np.zeros(n_det, dtype=bool)
    tp[qual[first]] = True
    taken = np.zeros(n_det, dtype=bool)
    taken[qual[~first]] = True
    fp = d_ok & ~tp
    # near misses of the missed GTs: their remaining pairs with counted dets
    matched = np.zeros(len(g_ok), dtype=bool)
    matched[best_gt[tp]] = True
    if near or every:
        ex.compute(np.flatnonzero(use & (ex.iou < 0) & (every | ~matched[f.pi])))
    return Block(f, g_reason, d_reason, ex.iou, best_gt, best_iou, tp, fp, taken, rank, used)
