"""Vectorized polygon geometry on shapely 2 (spec 0.5).

Areas follow Polygon2/3 (GPC): the area of a ring is |shoelace|, so a self-intersecting
bow-tie has its lobes cancelled; clipping uses ``make_valid`` of the ring (even-odd like).
Pairwise intersections are computed only for candidate pairs found by an STRtree.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
import shapely

from metrics.model import FloatArray

GeomArray = npt.NDArray[np.object_]
IntArray = npt.NDArray[np.intp]


def signed_areas(rings: Sequence[FloatArray]) -> FloatArray:
    """Signed shoelace area of each ring (positive = counter-clockwise in y-up axes)."""
    out = np.zeros(len(rings), dtype=np.float64)
    for n, idx in _group_by_length(rings).items():
        pts = np.stack([rings[i] for i in idx])
        x, y = pts[:, :, 0], pts[:, :, 1]
        xn, yn = np.roll(x, -1, axis=1), np.roll(y, -1, axis=1)
        out[idx] = 0.5 * np.sum(x * yn - xn * y, axis=1)
        del n
    return out


def _group_by_length(rings: Sequence[FloatArray]) -> dict[int, IntArray]:
    lengths = np.fromiter((len(r) for r in rings), dtype=np.intp, count=len(rings))
    return {int(n): np.flatnonzero(lengths == n) for n in np.unique(lengths)}


def polygons(rings: Sequence[FloatArray]) -> tuple[GeomArray, npt.NDArray[np.bool_]]:
    """Shapely polygons of the rings, repaired for clipping; and which were invalid.

    Rings with fewer than 3 vertices give an empty polygon (area 0).
    """
    geoms = np.empty(len(rings), dtype=object)
    for n, idx in _group_by_length(rings).items():
        if n < 3:
            geoms[idx] = shapely.Polygon()
            continue
        geoms[idx] = shapely.polygons(np.stack([rings[i] for i in idx]))
    valid = shapely.is_valid(geoms) if len(geoms) else np.zeros(0, dtype=bool)
    bad = np.flatnonzero(~valid)
    if len(bad):
        geoms[bad] = shapely.make_valid(geoms[bad])
    return geoms, ~valid


def intersection_areas(a: GeomArray, b: GeomArray) -> FloatArray:
    """Dense (len(a), len(b)) matrix of |a_i ∩ b_j|, zero for non-candidates."""
    out = np.zeros((len(a), len(b)), dtype=np.float64)
    if len(a) == 0 or len(b) == 0:
        return out
    ia, ib = candidate_pairs(a, b)
    if len(ia):
        out[ia, ib] = shapely.area(shapely.intersection(a[ia], b[ib]))
    return out


def candidate_pairs(a: GeomArray, b: GeomArray) -> tuple[IntArray, IntArray]:
    """Index pairs (i, j) whose geometries intersect (STRtree query)."""
    tree = shapely.STRtree(b)
    ia, ib = tree.query(a, predicate="intersects")
    return ia.astype(np.intp), ib.astype(np.intp)


def rings_of(geom: shapely.Geometry) -> tuple[FloatArray, ...]:
    """Exterior and interior rings of a (multi)polygon as (n, 2) arrays; [] when empty."""
    out: list[FloatArray] = []
    for part in shapely.get_parts(shapely.get_parts(geom)):
        if isinstance(part, shapely.Polygon) and not part.is_empty:
            out.append(np.asarray(part.exterior.coords, dtype=np.float64))
            out.extend(np.asarray(r.coords, dtype=np.float64) for r in part.interiors)
        elif isinstance(part, shapely.GeometryCollection | shapely.MultiPolygon):
            out.extend(rings_of(part))
    return tuple(out)
