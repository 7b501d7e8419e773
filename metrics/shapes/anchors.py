"""A point inside each instance, where the viewer's match links start and end.

The centre of a curved word's bounding box lies outside the word (in the empty inside of
its curve): a link drawn between two such centres was a short segment floating where no
instance is. ``shapely.point_on_surface`` of the polygon (repaired as the metrics repair it,
``metrics.shapes.geometry.polygons``) lies in the polygon whatever its shape. No score
depends on it. Where the GT's point lies in its detection, the link has no length (the
viewer draws none): a one-to-one match of overlapping words needs no line to be seen.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import shapely
from shapely.errors import GEOSException

from metrics.core.model import FloatArray
from metrics.shapes.geometry import GeomArray, polygons


def inner_points(rings: Sequence[FloatArray]) -> FloatArray:
    """(n, 2): a point in each ring's polygon; for a ring of fewer than 3 vertices (or one
    GEOS cannot place a point in) the mean of its vertices, NaN for an empty ring."""
    arrays = _arrays(rings)
    return _inner(arrays, polygons(arrays)[0]) if arrays else np.full((0, 2), np.nan)


def link_ends(gt_rings: Sequence[FloatArray], det_rings: Sequence[FloatArray]) -> FloatArray:
    """(n, 2, 2): the ends of the link of each pair (``gt_rings[k]``, ``det_rings[k]``): a
    point inside the GT and one inside the detection, the same point when the GT's lies in
    the detection (the two overlap there: no line is needed to see that they belong)."""
    g = inner_points(gt_rings)
    arrays = _arrays(det_rings)
    if not arrays:
        return np.zeros((0, 2, 2))
    geoms = polygons(arrays)[0]
    d = _inner(arrays, geoms)
    known = ~np.isnan(g).any(axis=1)
    inside = np.zeros(len(g), dtype=bool)
    inside[known] = shapely.contains_xy(geoms[known], g[known, 0], g[known, 1])
    d[inside] = g[inside]
    return np.stack([g, d], axis=1)


def _arrays(rings: Sequence[FloatArray]) -> list[FloatArray]:
    return [np.asarray(r, dtype=np.float64).reshape(-1, 2) for r in rings]


def _inner(arrays: list[FloatArray], geoms: GeomArray) -> FloatArray:
    out = np.full((len(arrays), 2), np.nan)
    try:
        points = shapely.point_on_surface(geoms)
    except GEOSException:  # one bad geometry: ask one at a time
        points = np.array([_one_point(g) for g in geoms], dtype=object)
    placed = ~shapely.is_empty(points) & ~shapely.is_missing(points)
    if placed.any():
        out[placed] = shapely.get_coordinates(points[placed])
    for k in np.flatnonzero(~placed):
        if len(arrays[k]):
            out[k] = arrays[k].mean(axis=0)
    return out


def _one_point(geom: shapely.Geometry) -> shapely.Geometry | None:
    try:
        return shapely.point_on_surface(geom)
    except GEOSException:
        return None
