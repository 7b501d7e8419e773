"""Small array helpers shared by the metric modules (metric modules do not import each other)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

import numpy as np
import numpy.typing as npt

IntArray = npt.NDArray[np.intp]
ScalarT = TypeVar("ScalarT", bound=np.generic)
FloatArray = npt.NDArray[np.float64]


def stacked(rings: Sequence[FloatArray], n: int) -> FloatArray:
    """``np.stack`` of rings of ``n`` vertices each, shape (len, n, 2): one C-level pass
    (``np.stack`` walks the list three times in Python: 3x slower on 200,000 quads)."""
    if not rings:
        return np.zeros((0, n, 2))
    return np.concatenate(rings).reshape(len(rings), n, 2)


def grouped(key: IntArray, item: IntArray, n: int) -> list[tuple[int, ...]]:
    """Per key 0..n-1: the items of its rows, in ascending item order."""
    out: list[tuple[int, ...]] = [()] * n
    if len(key) == 0:
        return out
    order = np.lexsort((item, key))
    keys, items = key[order], item[order]
    starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    ends = np.r_[starts[1:], len(keys)]
    single = ends - starts == 1
    ones = starts[single]
    for k, t in zip(keys[ones].tolist(), zip(items[ones].tolist()), strict=True):
        out[k] = t
    many = np.flatnonzero(~single)
    if len(many):
        values = items.tolist()
        for k, lo, hi in zip(
            keys[starts[many]].tolist(), starts[many].tolist(), ends[many].tolist(), strict=True
        ):
            out[k] = tuple(values[lo:hi])
    return out


def unique_values(a: npt.NDArray[ScalarT]) -> npt.NDArray[ScalarT]:
    """``np.unique(a)`` of a 1-D array (its distinct values, sorted) without importing
    ``numpy.ma`` as ``np.unique`` does: 8 ms of every process's start."""
    s = np.sort(a)
    if len(s) < 2:
        return s
    return s[np.concatenate(([True], s[1:] != s[:-1]))]


def first_of_each(
    a: npt.NDArray[ScalarT],
) -> tuple[npt.NDArray[ScalarT], IntArray, IntArray]:
    """``np.unique(a, return_index=True, return_counts=True)`` of a 1-D array: distinct
    values (sorted), the index of each one's first occurrence, and its count."""
    order = np.argsort(a, kind="stable")
    s = a[order]
    if len(s) == 0:
        return s, order, np.zeros(0, dtype=np.intp)
    starts = np.flatnonzero(np.concatenate(([True], s[1:] != s[:-1])))
    counts = np.diff(np.append(starts, len(s)))
    return s[starts], order[starts], counts


_PAIRWISE = 8  # numpy adds fewer values than this one after the other, from 0.0


def segment_sums(values: FloatArray, at: Sequence[int]) -> list[float]:
    """``float(np.sum(values[at[s]:at[s + 1]]))`` of every segment s, bit for bit, without a
    numpy call per segment: numpy adds a run of fewer than 8 values left to right from 0.0
    (its pairwise sum starts with 8 accumulators), which is done here column by column
    over every segment at once; a longer segment is summed by ``np.sum`` itself."""
    if len(at) < 2:
        return []
    bounds = np.asarray(at, dtype=np.intp)
    lo, n = bounds[:-1], np.diff(bounds)
    out = np.zeros(len(n))
    for j in range(min(int(n.max()), _PAIRWISE - 1)):
        k = np.flatnonzero(n > j)
        out[k] += values[lo[k] + j]
    sums: list[float] = out.tolist()
    for s in np.flatnonzero(n >= _PAIRWISE).tolist():
        sums[s] = float(np.sum(values[at[s] : at[s + 1]]))
    return sums
