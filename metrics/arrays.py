"""Small array helpers shared by the metric modules (metric modules do not import each other)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

IntArray = npt.NDArray[np.intp]


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
