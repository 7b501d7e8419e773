"""Overlay operations that never raise on degenerate input (spec 0.5, issue 12).

The official tools clip with GPC (Polygon2/3), which takes any ring, reads it with the
even-odd rule and always answers. GEOS refuses some inputs the readers let through
(self-intersecting rings, rings with repeated or collinear vertices, the line and point
parts ``make_valid`` leaves of a collapsed ring): ``TopologyException`` or
``AssertionFailedException``. The functions here are drop-in replacements of the shapely
functions of the same names. They first call shapely unchanged, so every input GEOS accepts
gives exactly the numbers it gave before (the reference sets are bit-identical); only when
GEOS raises are the operands of the failing pairs repaired the way GPC reads them (even-odd
``make_valid``, keeping the polygonal parts only, as lines and points have no area) and the
pair is clipped again, and as a last resort on a fine snap-rounding grid. A pair that still
fails raises :class:`GeometryError`, which the runner reports as a located problem.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt
import shapely
from shapely.errors import GEOSException

_POLYGONAL = (3, 6)  # shapely type ids of Polygon and MultiPolygon


class GeometryError(ValueError):
    """GEOS could not clip a pair of polygons even after repairing them."""


def polygonal(geom: shapely.Geometry) -> shapely.Geometry:
    """The area-carrying part of ``geom``: made valid (even-odd, like GPC) and stripped of
    the lines and points a collapsed ring leaves; an empty polygon when nothing remains."""
    if geom is None or geom.is_empty:
        return shapely.Polygon()
    fixed = geom if shapely.is_valid(geom) else shapely.make_valid(geom)
    if shapely.get_type_id(fixed) in _POLYGONAL:
        return fixed
    parts = [p for p in _leaves(fixed) if shapely.get_type_id(p) in _POLYGONAL and not p.is_empty]
    if not parts:
        return shapely.Polygon()
    return parts[0] if len(parts) == 1 else shapely.union_all(parts)


def _leaves(geom: shapely.Geometry) -> list[shapely.Geometry]:
    out: list[shapely.Geometry] = []
    for part in shapely.get_parts(geom):
        if shapely.get_type_id(part) == 7:  # a nested GeometryCollection
            out.extend(_leaves(part))
        else:
            out.append(part)
    return out


def _grid(a: shapely.Geometry, b: shapely.Geometry) -> float:
    bounds = np.concatenate([shapely.bounds(a), shapely.bounds(b)])
    extent = float(np.nanmax(np.abs(bounds))) if not np.isnan(bounds).all() else 1.0
    return max(extent, 1e-300) * 1e-12


# One geometry, or an array of them (shapely's vectorized operations take either and
# broadcast; the result has the inputs' shape).
GeomArray: TypeAlias = npt.NDArray[np.object_]
Geoms: TypeAlias = GeomArray | shapely.Geometry


def _one(op: Callable[..., Any], a: shapely.Geometry, b: shapely.Geometry) -> shapely.Geometry:
    try:
        return op(a, b)
    except GEOSException:
        pass
    a, b = polygonal(a), polygonal(b)
    try:
        return op(a, b)
    except GEOSException:
        pass
    try:
        return op(a, b, grid_size=_grid(a, b))
    except GEOSException as exc:
        raise GeometryError(f"the geometry engine cannot clip these polygons: {exc}") from None


def _binary(op: Callable[..., Any], a: Any, b: Any) -> Any:
    try:
        return op(a, b)
    except GEOSException:
        pass
    aa, bb = np.broadcast_arrays(_objects(a), _objects(b))
    out = np.empty(aa.shape, dtype=object)
    for idx in np.ndindex(aa.shape):
        out[idx] = _one(op, aa[idx], bb[idx])
    return out if out.ndim else out[()]


def _objects(value: Any) -> Any:
    if isinstance(value, shapely.Geometry) or value is None:
        arr = np.empty((), dtype=object)
        arr[()] = value
        return arr
    return np.asarray(value, dtype=object)


def intersection(a: Geoms, b: Geoms) -> Geoms:
    """``shapely.intersection`` that repairs the pairs GEOS refuses (see the module)."""
    return _binary(shapely.intersection, a, b)


def difference(a: Geoms, b: Geoms) -> Geoms:
    """``shapely.difference`` that repairs the pairs GEOS refuses (see the module)."""
    return _binary(shapely.difference, a, b)


def union(a: Geoms, b: Geoms) -> Geoms:
    """``shapely.union`` that repairs the pairs GEOS refuses (see the module)."""
    return _binary(shapely.union, a, b)


def union_all(geoms: Sequence[shapely.Geometry]) -> shapely.Geometry:
    """``shapely.union_all`` of polygons, repairing them if GEOS refuses the set."""
    try:
        return shapely.union_all(list(geoms))
    except GEOSException:
        pass
    parts = [polygonal(g) for g in geoms]
    try:
        return shapely.union_all(parts)
    except GEOSException as exc:
        raise GeometryError(f"the geometry engine cannot unite these polygons: {exc}") from None


def union_rows(geoms: GeomArray, rows: Sequence[Sequence[int]]) -> GeomArray:
    """``union_all`` of ``geoms[row]`` for each row, in one GEOS call (the same unions as
    one call per row); row by row, with repairs, when GEOS refuses one of them."""
    out = np.empty(len(rows), dtype=object)
    if not len(rows):
        return out
    grid = np.full((len(rows), max(len(r) for r in rows)), None, dtype=object)
    for k, r in enumerate(rows):
        grid[k, : len(r)] = geoms[np.asarray(r, dtype=np.intp)]
    try:
        out[:] = shapely.union_all(grid, axis=1)
    except GEOSException:
        for k, r in enumerate(rows):
            out[k] = union_all([geoms[i] for i in r])
    return out
