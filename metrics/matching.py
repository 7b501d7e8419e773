"""Matching rules several families share, over flat arrays of candidate (GT, det) pairs.

One copy of each: the IoU of a pair, the ICDAR15 don't-care test of a detection (spec 1.2
step 3; PaddleOCR ``DetMetric`` uses the same rule, TOOLKITS.md section 2), the greedy
first-found one-to-one matching in GT-major, det-minor order (spec 1.2 step 4; PaddleOCR and
MMOCR ``vanilla``, TOOLKITS.md section 3) and the best partner of each instance (near misses,
VOC's best GT of a detection).

Pairs are given as parallel arrays ``pi`` (GT index), ``pj`` (det index) and per-pair values;
indices are global over a block of samples, and only candidate pairs are listed (a missing
pair has intersection 0).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from metrics.model import FloatArray

IntArray = npt.NDArray[np.intp]
BoolArray = npt.NDArray[np.bool_]


def pair_iou(
    inter: FloatArray, gt_area: FloatArray, det_area: FloatArray, *, min_union: float = 0.0
) -> FloatArray:
    """IoU = inter / (|G| + |D| - inter) of each pair.

    ``min_union=0`` (ICDAR, PaddleOCR): a pair whose union is not positive has IoU 0.
    ``min_union > 0`` (CTW1500's ``voc_eval_polygon``): the union is clamped at that value.
    """
    union = gt_area + det_area - inter
    if min_union > 0:
        out: FloatArray = inter / np.maximum(union, min_union)
        return out
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(union > 0, inter / np.where(union > 0, union, 1.0), 0.0)


def dont_care_dets(
    pi: IntArray,
    pj: IntArray,
    inter: FloatArray,
    det_area: FloatArray,
    gt_dc: BoolArray,
    threshold: float,
) -> tuple[BoolArray, IntArray]:
    """Dets with |D ∩ G| / |D| > threshold for one don't-care GT G (a zero-area det: ratio 0).

    ``det_area`` is indexed by det, ``gt_dc`` by GT (False for GTs that may not absorb).
    Returns the don't-care flag of each det and the GT that absorbs it (the lowest-index such
    GT, i.e. the first in GT order), -1 for the others.
    """
    d_area = det_area[pj]
    with np.errstate(divide="ignore", invalid="ignore"):
        prec = np.where(d_area > 0, inter / np.where(d_area > 0, d_area, 1.0), 0.0)
    hit = gt_dc[pi] & (prec > threshold)
    absorbed = np.full(len(det_area), np.iinfo(np.intp).max, dtype=np.intp)
    np.minimum.at(absorbed, pj[hit], pi[hit])
    dc = absorbed != np.iinfo(np.intp).max
    absorbed[~dc] = -1
    return dc, absorbed


def greedy_pairs(
    pi: IntArray,
    pj: IntArray,
    iou: FloatArray,
    rank: IntArray,
    gt_ok: BoolArray,
    det_ok: BoolArray,
    threshold: float,
) -> IntArray:
    """Indices (into the pair arrays) of the greedy matches with IoU > threshold (strict).

    GTs in index order; for each, the first free det in evaluation order (``rank``, indexed
    by det) whose IoU exceeds the threshold is taken (not the best one).
    """
    cand = np.flatnonzero((iou > threshold) & gt_ok[pi] & det_ok[pj])
    cand = cand[np.lexsort((rank[pj[cand]], pi[cand]))]
    taken: set[int] = set()
    done: set[int] = set()
    out = []
    for k, i, j in zip(cand.tolist(), pi[cand].tolist(), pj[cand].tolist(), strict=True):
        if i in done or j in taken:
            continue
        done.add(i)
        taken.add(j)
        out.append(k)
    return np.asarray(out, dtype=np.intp)


def best_partner(
    idx: IntArray, other: IntArray, value: FloatArray, n: int
) -> tuple[IntArray, FloatArray]:
    """Per instance ``0..n-1``: the partner with the highest value, the lowest partner index
    on ties (numpy's first argmax); -1 and 0.0 for instances without a pair."""
    best_v = np.zeros(n)
    best_i = np.full(n, -1, dtype=np.intp)
    if len(idx):
        order = np.lexsort((-other, value, idx))
        last = np.flatnonzero(np.r_[idx[order][1:] != idx[order][:-1], True])
        sel = order[last]
        best_v[idx[sel]] = value[sel]
        best_i[idx[sel]] = other[sel]
    return best_i, best_v
