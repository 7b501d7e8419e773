"""One-to-one matching on a GT x det score matrix, shared by the families.

``iou_matrix`` turns intersection areas into IoU; ``greedy_match`` is the ICDAR 2015 rule
(GT-major, det-minor, the first free pair above the threshold: the RRC script, PaddleOCR's
``DetectionIoUEvaluator`` and MMOCR's ``strategy='vanilla'``); ``maximum_matching`` gives
a maximum bipartite matching of a boolean candidate matrix (MMOCR's
``strategy='max_matching'``, which calls scipy's ``maximum_bipartite_matching``; scipy is
not a dependency, so this is augmenting paths in plain Python, seeded with the greedy
pairs); ``best_partner`` names the best candidate of an unmatched instance.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.intp]


def iou_matrix(inter: FloatArray, gt_area: FloatArray, det_area: FloatArray) -> FloatArray:
    """|G ∩ D| / (|G| + |D| - |G ∩ D|), 0 where the union is empty."""
    union = gt_area[:, None] + det_area[None, :] - inter
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(union > 0, inter / np.where(union > 0, union, 1), 0.0)


def greedy_match(
    iou: FloatArray, gt_ok: BoolArray, det_ok: BoolArray, threshold: float
) -> list[tuple[int, int]]:
    """GT-major, det-minor first-found matching with IoU > threshold (spec 1.2 step 4)."""
    return greedy_pairs((iou > threshold) & gt_ok[:, None] & det_ok[None, :])


def greedy_pairs(cand: BoolArray) -> list[tuple[int, int]]:
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
    for i, j in greedy_pairs(cand):
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


def best_partner(iou: FloatArray, other_ok: BoolArray, axis: int) -> tuple[IntArray, FloatArray]:
    """For each row (axis=1) or column (axis=0): best IoU among allowed partners."""
    if iou.size == 0:
        n = iou.shape[0] if axis == 1 else iou.shape[1]
        return np.zeros(n, dtype=np.intp), np.zeros(n)
    masked = np.where(other_ok[None, :] if axis == 1 else other_ok[:, None], iou, -1.0)
    idx = np.argmax(masked, axis=axis)
    val = np.max(masked, axis=axis)
    return idx.astype(np.intp), np.maximum(val, 0.0)
