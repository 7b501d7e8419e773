"""The rings of a block of instances grouped by vertex count, built once.

``metrics.shapes.geometry.flat_geometry`` needs the rings of every instance of a block three times
(polygons, shoelace areas, the convex-quad stack of the numpy clipper); stacking thousands of
small arrays three times, and converting each on its own, cost more than the geometry. Here
the vertices are converted in one array operation (``mode_rings`` applied to all at once)
and each vertex count is gathered into one ``(k, n, 2)`` array, which every consumer reads.
The numbers are those of the per-ring functions: the same coordinates, the same formulas.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
import shapely

from metrics.core.model import FloatArray
from metrics.core.records import dataclass
from metrics.shapes.quads import is_convex_quad
from metrics.shapes.validity import valid_rings

_EXACT = 2.0**24  # |int coordinates| below this: the turn signs are exact

GeomArray = npt.NDArray[np.object_]
IntArray = npt.NDArray[np.intp]
BoolArray = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class RingStack:
    """``groups[n] = (indices, rings)``: the instances with n vertices and their (k, n, 2)
    vertices, converted as the official tool sees them."""

    count: int
    groups: dict[int, tuple[IntArray, FloatArray]]


def convert(flat: FloatArray, mode: str) -> FloatArray:
    """``metrics.shapes.geometry.mode_rings`` of vertices: float32 for ``curved``, as given
    otherwise (``--floats`` decides what non-integer coordinates become before)."""
    if mode == "curved":
        return flat.astype(np.float32).astype(np.float64)
    return np.asarray(flat, dtype=np.float64)


def ring_stack(points: Sequence[FloatArray], mode: str) -> RingStack:
    """The rings of ``points`` (one (n, 2) array per instance) grouped by vertex count."""
    lengths = np.fromiter(map(len, points), dtype=np.intp, count=len(points))
    if not lengths.any():
        empty = np.zeros((len(points), 0, 2))
        return RingStack(len(points), {0: (np.arange(len(points)), empty)} if len(points) else {})
    flat = convert(np.concatenate(points if lengths.all() else [p for p in points if len(p)]), mode)
    starts = np.cumsum(lengths) - lengths
    groups = {}
    for n in sorted(set(lengths.tolist())):
        idx = np.flatnonzero(lengths == n)
        groups[n] = (idx, flat[starts[idx][:, None] + np.arange(n)])
    return RingStack(len(points), groups)


def repaired(
    geoms: GeomArray, repair: str, valid: BoolArray | None = None
) -> tuple[GeomArray, BoolArray]:
    """``metrics.shapes.geometry.polygons``' repair of the built polygons; and which were
    invalid (``valid``: their ``is_valid`` where the caller knows it)."""
    if valid is None:
        valid = shapely.is_valid(geoms) if len(geoms) else np.zeros(0, dtype=bool)
    if repair == "buffer0":
        if len(geoms):
            geoms[:] = shapely.buffer(geoms, 0)
        return geoms, ~valid
    bad = np.flatnonzero(~valid)
    if len(bad):
        geoms[bad] = shapely.make_valid(geoms[bad])
    return geoms, ~valid


def stack_polygons(rs: RingStack, repair: str = "make_valid") -> tuple[GeomArray, BoolArray]:
    """``metrics.shapes.geometry.polygons`` of the stacked rings."""
    geoms = np.empty(rs.count, dtype=object)
    valid = np.ones(rs.count, dtype=bool)  # the empty polygon (< 3 points) is valid
    for n, (idx, rings) in rs.groups.items():
        geoms[idx] = shapely.Polygon() if n < 3 else shapely.polygons(rings)
        if n >= 3:
            valid[idx] = valid_rings(rings, known=surely_valid(rings) if n == 4 else None)
    return repaired(geoms, repair, valid)


def surely_valid(rings: FloatArray) -> BoolArray:
    """(k, 4, 2) rings GEOS finds valid without asking it: strictly convex quads of integer
    coordinates below 2**24, whose turn signs (``is_convex_quad``) are computed exactly;
    such a ring is simple, with four distinct vertices and a positive area."""
    exact = (rings == np.trunc(rings)) & (np.abs(rings) < _EXACT)
    out: BoolArray = is_convex_quad(rings) & np.all(exact, axis=(1, 2))
    return out


def stack_signed_areas(rs: RingStack) -> FloatArray:
    """``metrics.shapes.geometry.signed_areas`` of the stacked rings."""
    out = np.zeros(rs.count, dtype=np.float64)
    for n, (idx, pts) in rs.groups.items():
        if n == 0:
            continue
        nxt = (np.arange(n) + 1) % n
        x, y = pts[:, :, 0], pts[:, :, 1]
        out[idx] = 0.5 * np.sum(x * y[:, nxt] - x[:, nxt] * y, axis=1)
    return out


def stack_quads(rs: RingStack) -> tuple[FloatArray, BoolArray]:
    """(N, 4, 2) array of the rings (zeros for non-quads) and which are convex quads."""
    out = np.zeros((rs.count, 4, 2))
    is_quad = np.zeros(rs.count, dtype=bool)
    if 4 in rs.groups:
        idx, rings = rs.groups[4]
        out[idx], is_quad[idx] = rings, True
    return out, is_quad & is_convex_quad(out)
