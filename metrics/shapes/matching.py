"""Matching rules several families share: one copy of each.

Over flat arrays of candidate (GT, det) pairs (indices global over a block of samples; a
missing pair has intersection 0): the IoU of a pair (``pair_iou``), the ICDAR15 don't-care
test of a detection (spec 1.2 step 3; PaddleOCR's ``DetMetric`` uses the same rule,
TOOLKITS.md section 2), the greedy first-found one-to-one matching in GT-major, det-minor
order (``greedy_pairs``: spec 1.2 step 4; PaddleOCR and MMOCR ``vanilla``, TOOLKITS.md
section 3) and the best partner of each instance (near misses, VOC's best GT of a
detection).

Over dense GT x det matrices: ``iou_matrix``, ``greedy_match`` / ``greedy_cells`` (the same
greedy rule), ``maximum_matching`` (MMOCR's ``strategy='max_matching'``, which calls scipy's
``maximum_bipartite_matching``; scipy is not a dependency, so this is augmenting paths in
plain Python, seeded with the greedy pairs) and ``best_in_matrix``.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from metrics.core.model import FloatArray

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


def iou_matrix(inter: FloatArray, gt_area: FloatArray, det_area: FloatArray) -> FloatArray:
    """|G ∩ D| / (|G| + |D| - |G ∩ D|), 0 where the union is empty."""
    return pair_iou(inter, gt_area[:, None], det_area[None, :])


def greedy_match(
    iou: FloatArray, gt_ok: BoolArray, det_ok: BoolArray, threshold: float
) -> list[tuple[int, int]]:
    """GT-major, det-minor first-found matching with IoU > threshold (spec 1.2 step 4)."""
    return greedy_cells((iou > threshold) & gt_ok[:, None] & det_ok[None, :])


def greedy_cells(cand: BoolArray) -> list[tuple[int, int]]:
    """First-come pairs of a boolean candidate matrix in row-major order."""
    taken = np.zeros(cand.shape[1], dtype=bool)
    pairs = []
    for i in np.flatnonzero(cand.any(axis=1)):
        free = np.flatnonzero(cand[i] & ~taken)
        if len(free):
            j = int(free[0])
            taken[j] = True
            pairs.append((int(i), j))
    return pairs


def maximum_matching(cand: BoolArray) -> list[tuple[int, int]]:
    """A maximum bipartite matching of ``cand`` (rows x columns), as (row, col) pairs sorted.

    The size is that of every maximum matching; which pairs are chosen is this function's
    own choice (the greedy pairs, then augmenting paths from each free row in order).
    """
    adj = [np.flatnonzero(row).tolist() for row in cand]
    col_of: list[int] = [-1] * len(adj)
    row_of: list[int] = [-1] * cand.shape[1]
    for i, j in greedy_cells(cand):
        col_of[i], row_of[j] = j, i
    for i in range(len(adj)):
        if col_of[i] < 0 and adj[i]:
            _augment(i, adj, col_of, row_of)
    return [(i, j) for i, j in enumerate(col_of) if j >= 0]


def _augment(root: int, adj: list[list[int]], col_of: list[int], row_of: list[int]) -> bool:
    """One augmenting path from the free row ``root`` (iterative DFS); applied if found."""
    seen: set[int] = set()
    stack: list[tuple[int, int]] = [(root, 0)]
    path: list[tuple[int, int]] = []  # (row, col) edges of the current path
    while stack:
        i, k = stack.pop()
        if k >= len(adj[i]):
            if path:
                path.pop()
            continue
        stack.append((i, k + 1))
        j = adj[i][k]
        if j in seen:
            continue
        seen.add(j)
        path.append((i, j))
        if row_of[j] < 0:
            for pi, pj in path:
                col_of[pi], row_of[pj] = pj, pi
            return True
        stack.append((row_of[j], 0))
    return False


def best_in_matrix(iou: FloatArray, other_ok: BoolArray, axis: int) -> tuple[IntArray, FloatArray]:
    """For each row (axis=1) or column (axis=0): best IoU among allowed partners."""
    if iou.size == 0:
        n = iou.shape[0] if axis == 1 else iou.shape[1]
        return np.zeros(n, dtype=np.intp), np.zeros(n)
    masked = np.where(other_ok[None, :] if axis == 1 else other_ok[:, None], iou, -1.0)
    idx = np.argmax(masked, axis=axis)
    val = np.max(masked, axis=axis)
    return idx.astype(np.intp), np.maximum(val, 0.0)
