"""Matching of ``ctw1500_eval`` over a block of samples (flat arrays, global indices).

Detections are decided in evaluation order within each image: best GT = first argmax of the
IoU row (0 for invalid GT), TP when IoU > threshold and the GT is still free (the first such
detection in evaluation order), otherwise FP (``FP_gt_taken`` / ``FP_low_iou``); unusable
detections are skipped. Spec ``TOTALTEXT_CTW1500.md`` C3-C4.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import shapely

import metrics.cache as cache
from metrics.ctw1500.params import Ctw1500Params
from metrics.geometry import FlatGeometry
from metrics.matching import BoolArray, IntArray, best_partner, pair_iou
from metrics.model import FloatArray, Sample
from metrics.order import confidence_order

_NEAR = 1e-9  # IoUs this close to the threshold are recomputed exactly as the script does


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
    iou: FloatArray  # per candidate pair; 0 when either side is unusable
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


def _exact_iou(
    f: FlatGeometry, k: IntArray, g_area: FloatArray, d_area: FloatArray, lo: float
) -> FloatArray:
    """IoU of the pairs ``k`` as ``voc_eval_polygon`` computes it (GEOS intersection)."""
    inter = shapely.area(shapely.intersection(f.d_geoms[f.pj[k]], f.g_geoms[f.pi[k]]))
    union = g_area[f.pi[k]] + d_area[f.pj[k]] - inter
    out: FloatArray = inter / np.maximum(union, lo)
    return out


def block(samples: Sequence[Sample], params: Ctw1500Params) -> Block:
    f = cache.active().flat(samples, "exact")
    g_pts = [g.points for s in samples for g in s.gt]
    d_pts = [d.points for s in samples for d in s.det]
    g_reason = polygon_reasons(g_pts, f.g_invalid)
    d_reason = polygon_reasons(d_pts, f.d_invalid)
    g_ok = np.array([not r for r in g_reason], dtype=bool)
    d_ok = np.array([not r for r in d_reason], dtype=bool)
    g_area = np.where(g_ok, shapely.area(f.g_geoms), 0.0) if len(g_ok) else np.zeros(0)
    d_area = np.where(d_ok, shapely.area(f.d_geoms), 0.0) if len(d_ok) else np.zeros(0)
    use = g_ok[f.pi] & d_ok[f.pj]
    iou = np.where(
        use, pair_iou(f.inter, g_area[f.pi], d_area[f.pj], min_union=params.min_union), 0.0
    )
    near = np.flatnonzero(use & (np.abs(iou - params.iou_threshold) <= _NEAR))
    if len(near):
        iou[near] = _exact_iou(f, near, g_area, d_area, params.min_union)
    n_det = len(f.d_owner)
    best_gt, best_iou = best_partner(f.pj, f.pi, iou, n_det)
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
    return Block(f, g_reason, d_reason, iou, best_gt, best_iou, tp, fp, taken, rank, used)
