"""Bounding boxes of many polygons at once: which pairs of the same sample meet, and where
a clip can be skipped because the boxes of its polygons share no point.

``metrics.shapes.geometry.same_sample_pairs`` finds its candidate pairs here when each
sample's pairs are few enough to test them all (a few array operations instead of building
a box polygon per instance and an STRtree over them); the comparisons are those the
STRtree's ``intersects`` makes of the same coordinates, so the pairs are the same.
"""

from __future__ import annotations

import functools

import numpy as np
import numpy.typing as npt
import shapely

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]
GeomArray = npt.NDArray[np.object_]


def shifted_bounds(bounds: FloatArray, owner: IntArray, stride: float) -> FloatArray:
    """Bounding boxes moved along x by ``owner * stride`` and grown by a small pad."""
    b = np.where(np.isnan(bounds), 0.0, bounds)
    shift = owner.astype(np.float64) * stride
    pad = 1e-6 * max(1.0, stride)
    return np.stack([b[:, 0] + shift - pad, b[:, 1] - pad, b[:, 2] + shift + pad, b[:, 3] + pad], 1)


_DENSE = 2_000_000  # more same-owner pairs than this: found by the STRtree instead


def dense_pairs(
    sa: FloatArray, a_owner: IntArray, sb: FloatArray, b_owner: IntArray
) -> tuple[IntArray, IntArray] | None:
    """What the STRtree of ``same_sample_pairs`` finds, by testing every pair of the same
    owner: two boxes intersect when their closed intervals overlap on both axes (the same
    comparisons of the same shifted coordinates). None where that does not apply: ``b``
    not grouped by ascending owner, non-finite boxes, or too many pairs."""
    ints = a_owner.dtype.kind in "iu" and b_owner.dtype.kind in "iu"
    if not ints or min(a_owner.min(), b_owner.min()) < 0 or np.any(np.diff(b_owner) < 0):
        return None
    if not (np.isfinite(sa).all() and np.isfinite(sb).all()):
        return None
    b_count = np.bincount(b_owner, minlength=int(a_owner.max()) + 1)
    per_a = b_count[a_owner]
    total = int(per_a.sum())
    if total > _DENSE:
        return None
    ia = np.repeat(np.arange(len(a_owner), dtype=np.intp), per_a)
    start = np.cumsum(per_a) - per_a
    ib = (np.cumsum(b_count) - b_count)[a_owner[ia]] + np.arange(total) - start[ia]
    p, q = sa[ia], sb[ib]
    meet = (p[:, 0] <= q[:, 2]) & (q[:, 0] <= p[:, 2]) & (p[:, 1] <= q[:, 3]) & (q[:, 1] <= p[:, 3])
    return ia[meet], ib[meet].astype(np.intp)


def boxes_meet(*sides: GeomArray) -> npt.NDArray[np.bool_]:
    """Row by row, whether the bounding boxes of ``sides[0][k]``, ``sides[1][k]``, ... have a
    point in common (closed boxes; True where one is empty). Where they do not, any GEOS
    intersection of those geometries is empty (a result lies within its inputs' boxes), of
    area 0.0: the clipping can be skipped."""
    b = [shapely.bounds(g) for g in sides]
    lo = functools.reduce(np.maximum, (x[:, :2] for x in b))
    hi = functools.reduce(np.minimum, (x[:, 2:] for x in b))
    out: npt.NDArray[np.bool_] = ~np.any(lo > hi, axis=1)
    return out
