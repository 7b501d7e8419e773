"""GEOS validity of rings, each ring's answer computed once per process.

Validity is asked of the same rings up to three times in one run of a polygon set: the
reader's geometry warnings, a family's own check (the curved script refuses invalid
polygons) and the repair before clipping. On CTW1500 (some 6,400 rings of 14 and 40
vertices) each pass costs about as much as the floor process's reading. ``valid_rings``
answers from a memo keyed by the ring's coordinates (their float64 bytes and vertex
count), so the second and third passes cost a dictionary lookup per ring. The answer is
``shapely.is_valid`` of ``shapely.polygons(ring)``, a function of the coordinates alone,
so the memo changes no result; it is bounded (cleared past ``LIMIT`` rings).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
import shapely

LIMIT = 200_000  # rings remembered; past it the memo starts again
_memo: dict[bytes, bool] = {}


def valid_rings(
    rings: npt.NDArray[np.float64], known: npt.NDArray[np.bool_] | None = None
) -> npt.NDArray[np.bool_]:
    """``shapely.is_valid(shapely.polygons(rings))`` for a ``(k, n, 2)`` stack of rings of
    ``n >= 3`` vertices (float64), each ring's answer remembered. ``known``: rings the
    caller knows to be valid (neither GEOS nor the memo is asked about them)."""
    if known is not None and known.any():
        out = known.copy()
        rest = np.flatnonzero(~known)
        if len(rest):
            out[rest] = valid_rings(rings[rest])
        return out
    k = rings.shape[0]
    if k == 0:
        return np.zeros(0, dtype=bool)
    flat = np.ascontiguousarray(rings, dtype=np.float64).reshape(k, -1)
    raw = flat.tobytes()
    size = flat.shape[1] * 8
    keys = [raw[i : i + size] for i in range(0, k * size, size)]
    memo = _memo
    found = [memo.get(key) for key in keys]
    todo = [i for i, f in enumerate(found) if f is None]
    if todo:
        answers = shapely.is_valid(shapely.polygons(rings[todo])).tolist()
        if len(memo) + len(todo) > LIMIT:
            memo.clear()
        for i, ok in zip(todo, answers, strict=True):
            memo[keys[i]] = ok
            found[i] = ok
    return np.array(found, dtype=bool)


def valid_of(rings: Sequence[npt.NDArray[np.float64]]) -> npt.NDArray[np.bool_]:
    """``valid_rings`` of rings of any vertex counts (one stack per count); a ring of fewer
    than 3 vertices is the empty polygon, which is valid."""
    out = np.ones(len(rings), dtype=bool)
    lengths = np.fromiter((len(r) for r in rings), dtype=np.intp, count=len(rings))
    for n in sorted(set(lengths.tolist())):
        if n >= 3:
            idx = np.flatnonzero(lengths == n)
            out[idx] = valid_rings(np.stack([rings[i] for i in idx.tolist()]).astype(np.float64))
    return out
