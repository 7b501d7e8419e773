"""MMOCR's decisions for a block of samples, flat over the block (global instance indices).

Everything ``hmean`` needs before the per-threshold matching, computed for all samples at
once: the scores as compared and each detection's level (at how many thresholds it is
kept), the ignore test, the candidate pairs (IoU strictly above ``match_iou_thr``) and the
best-IoU partners shown as near misses.

Only pairs whose bounding boxes meet are considered (``metrics.shapes.boxpairs``), and of
those only the pairs whose exact area can decide something are clipped: a pair whose upper
bound (the smaller area and the boxes' overlap) cannot pass the IoU or the ignore test, nor
reach the best IoU already found for its detection (or, with the GT lists, for its GT),
cannot change any verdict, match or near miss. The values of the pairs clipped are those
of ``geometry.pair_areas`` on every pair, pair by pair, so the results are the same as
with the dense matrices of ``block_areas``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from metrics.core.model import FloatArray, Sample
from metrics.core.records import dataclass
from metrics.mmocr.geometry import IGNORE_EPS, mmocr_polygons, pair_areas
from metrics.mmocr.params import HmeanIouParams
from metrics.shapes.boxpairs import box_pairs

BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.intp]
SLACK = 1e-6  # bounds are compared with this margin (float error of the exact areas)


def scores_of_dets(conf: FloatArray, params: HmeanIouParams) -> FloatArray:
    """Detection scores as compared: float32 values (official) or the written decimals."""
    return conf if params.decimal_scores else conf.astype(np.float32).astype(np.float64)


def levels_of(scores: FloatArray, params: HmeanIouParams) -> IntArray:
    """Per det, at how many thresholds it is kept (``not (score < t)``; nested sets)."""
    thr = np.asarray(params.thresholds, dtype=np.float64)
    if params.decimal_scores:
        kept = scores[:, None] >= np.round(thr, 10)[None, :]
    else:
        kept = ~(scores[:, None] < thr[None, :])
    return np.asarray(np.cumprod(kept, axis=1).sum(axis=1), dtype=np.intp)


@dataclass(frozen=True)
class Block:
    """A block's decisions before the sweep (instance arrays flat, sample-major).

    ``absorbed[j]`` is the ignored GT that drops det j (-1: none) with ``absorbed_ratio``;
    ``cand`` the candidate pairs (indices into ``pi``/``pj``/``iou``), sorted by GT then det;
    ``near_d`` / ``near_g`` each instance's best-IoU partner among care GT / counted dets
    (-1 when no positive IoU; ``near_g`` only with the GT lists).
    """

    g_off: IntArray
    d_off: IntArray
    scores: FloatArray
    counted: IntArray
    levels: IntArray
    dc: BoolArray
    removed: BoolArray
    absorbed: IntArray
    absorbed_ratio: FloatArray
    pi: IntArray
    pj: IntArray
    iou: FloatArray
    cand: IntArray
    near_d: tuple[IntArray, FloatArray]
    near_g: tuple[IntArray, FloatArray]


def _ratio(num: FloatArray, den: FloatArray) -> FloatArray:
    out = np.where(den > 0, num / np.where(den > 0, den, 1.0), 0.0)
    return np.asarray(out, dtype=np.float64)


def _best(
    key: IntArray, other: IntArray, value: FloatArray, sel: BoolArray, n: int
) -> tuple[IntArray, FloatArray]:
    """Per ``key`` (0..n-1): the highest positive ``value`` among ``sel`` and its ``other``
    (the first in ``other`` order on ties; -1 and 0 when none)."""
    idx, val = np.full(n, -1, dtype=np.intp), np.zeros(n)
    k = np.flatnonzero(sel & (value > 0))
    if len(k):
        order = k[np.lexsort((other[k], -value[k], key[k]))]
        first = order[np.r_[True, key[order][1:] != key[order][:-1]]]
        idx[key[first]], val[key[first]] = other[first], value[first]
    return idx, val


def _top(key: IntArray, value: FloatArray, sel: BoolArray) -> IntArray:
    """Per ``key`` among ``sel``: the index of the highest ``value``."""
    k = np.flatnonzero(sel)
    order = k[np.lexsort((-value[k], key[k]))]
    return order[np.r_[True, key[order][1:] != key[order][:-1]]] if len(k) else k


def evaluate_block(samples: Sequence[Sample], prm: HmeanIouParams, lists: bool) -> Block:
    """The block's decisions (``lists``: also the GT near misses, read only by GT lists)."""
    g_off = np.zeros(len(samples) + 1, dtype=np.intp)
    d_off = np.zeros(len(samples) + 1, dtype=np.intp)
    g_off[1:] = np.cumsum([len(s.gt) for s in samples])
    d_off[1:] = np.cumsum([len(s.det) for s in samples])
    gts = [g for s in samples for g in s.gt]
    dets = [d for s in samples for d in s.det]
    gt = mmocr_polygons([g.points for g in gts])
    det = mmocr_polygons([d.points for d in dets])
    conf = np.fromiter(
        (np.nan if d.confidence is None else d.confidence for d in dets),
        dtype=np.float64,
        count=len(dets),
    )
    scores = scores_of_dets(conf, prm)
    counted = levels_of(scores, prm)
    dc = np.fromiter((g.dont_care for g in gts), dtype=bool, count=len(gts))
    removed = ~gt.enough_points
    care, ignored = ~dc & ~removed, dc & ~removed
    pi, pj, box = box_pairs(gt.repaired, g_off, det.repaired, d_off)
    ag, ad = gt.repaired_area[pi], det.repaired_area[pj]
    top = np.minimum(np.minimum(ag, ad), box)
    bound = _ratio(top, ag + ad - top)
    inter, iou = np.zeros(len(pi)), np.full(len(pi), -1.0)
    done = np.zeros(len(pi), dtype=bool)
    thresholds = (prm.match_iou_thr, prm.ignore_precision_thr)

    def clip(k: IntArray) -> None:
        if len(k):
            inter[k], iou[k] = pair_areas(gt, det, pi[k], pj[k], thresholds)
            done[k] = True

    live = counted[pj] > 0
    ratio_bound = top / (det.raw_area[pj] + IGNORE_EPS)
    clip(
        np.flatnonzero(
            live
            & (
                (care[pi] & (bound > prm.match_iou_thr - SLACK))
                | (ignored[pi] & (ratio_bound > prm.ignore_precision_thr - SLACK))
            )
        )
    )
    # the ignore test: the first ignored GT (GT order) over the ratio, per eligible det
    ratio = inter / (det.raw_area[pj] + IGNORE_EPS)
    hit = done & ignored[pi] & live & (ratio > prm.ignore_precision_thr)
    absorbed, absorbed_ratio = np.full(len(dets), -1, dtype=np.intp), np.zeros(len(dets))
    k = np.flatnonzero(hit)
    if len(k):
        order = k[np.lexsort((pi[k], pj[k]))]
        first = order[np.r_[True, pj[order][1:] != pj[order][:-1]]]
        absorbed[pj[first]], absorbed_ratio[pj[first]] = pi[first], ratio[first]
    levels = counted.copy()
    levels[absorbed >= 0] = 0
    cand = np.flatnonzero(done & care[pi] & (levels[pj] > 0) & (iou > prm.match_iou_thr))
    # near misses: every pair that could still be an instance's best (or tie with it);
    # first each instance's pair of highest bound, which then bounds out most others
    free_d = care[pi] & (absorbed[pj] < 0)
    free_g = care[pi] & (levels[pj] > 0) & lists

    def still_open() -> tuple[BoolArray, BoolArray]:
        best_d = _best(pj, pi, iou, done & free_d, len(dets))[1]
        best_g = _best(pi, pj, iou, done & free_g, len(gts))[1]
        reach = ~done & (bound > 0)
        return reach & free_d & (bound + SLACK >= best_d[pj]), reach & free_g & (
            bound + SLACK >= best_g[pi]
        )

    open_d, open_g = still_open()
    clip(np.union1d(_top(pj, bound, open_d), _top(pi, bound, open_g)))
    clip(np.flatnonzero(np.logical_or(*still_open())))
    near_d = _best(pj, pi, iou, done & free_d, len(dets))
    near_g = _best(pi, pj, iou, done & free_g, len(gts))
    return Block(
        g_off,
        d_off,
        scores,
        counted,
        levels,
        dc,
        removed,
        absorbed,
        absorbed_ratio,
        pi,
        pj,
        iou,
        cand,
        near_d,
        near_g,
    )
