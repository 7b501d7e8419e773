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

from metrics.core.arrays import stacked
from metrics.core.evidence import EMPTY_REGION, Region
from metrics.core.model import FloatArray
from metrics.core.records import dataclass
from metrics.shapes import robust
from metrics.shapes.boxes import dense_pairs, shifted_bounds
from metrics.shapes.quads import is_convex_quad, quad_intersection_areas
from metrics.shapes.ringstack import (
    repaired,
    ring_stack,
    stack_polygons,
    stack_quads,
    stack_signed_areas,
)
from metrics.shapes.validity import valid_rings

GeomArray = npt.NDArray[np.object_]
IntArray = npt.NDArray[np.intp]


def signed_areas(rings: Sequence[FloatArray]) -> FloatArray:
    """Signed shoelace area of each ring (positive = counter-clockwise in y-up axes)."""
    out = np.zeros(len(rings), dtype=np.float64)
    for n, idx in _group_by_length(rings).items():
        if n == 0:
            continue
        pts = stacked([rings[i] for i in idx], n)
        nxt = (np.arange(n) + 1) % n
        x, y = pts[:, :, 0], pts[:, :, 1]
        out[idx] = 0.5 * np.sum(x * y[:, nxt] - x[:, nxt] * y, axis=1)
    return out


def _group_by_length(rings: Sequence[FloatArray]) -> dict[int, IntArray]:
    lengths = np.fromiter((len(r) for r in rings), dtype=np.intp, count=len(rings))
    # sorted(set(...)), not np.unique: that one imports numpy.ma (10 ms of start-up)
    return {n: np.flatnonzero(lengths == n) for n in sorted(set(lengths.tolist()))}


def polygons(
    rings: Sequence[FloatArray], *, repair: str = "make_valid"
) -> tuple[GeomArray, npt.NDArray[np.bool_]]:
    """Shapely polygons of the rings, repaired for clipping; and which were invalid.

    Rings with fewer than 3 vertices give an empty polygon (area 0). ``repair``:
    ``"make_valid"`` repairs the invalid rings only (even-odd like, both lobes of a bow-tie);
    ``"buffer0"`` applies ``buffer(0)`` to every polygon, valid or not, as the Total-Text
    scripts do (a bow-tie keeps one lobe).
    """
    geoms = np.empty(len(rings), dtype=object)
    valid = np.ones(len(rings), dtype=bool)  # the empty polygon (< 3 points) is valid
    for n, idx in _group_by_length(rings).items():
        if n < 3:
            geoms[idx] = shapely.Polygon()
            continue
        stack = stacked([rings[i] for i in idx], n)
        geoms[idx] = shapely.polygons(stack)
        valid[idx] = valid_rings(stack)
    return repaired(geoms, repair, valid)


def intersection_areas(a: GeomArray, b: GeomArray) -> FloatArray:
    """Dense (len(a), len(b)) matrix of |a_i ∩ b_j|, zero for non-candidates."""
    out = np.zeros((len(a), len(b)), dtype=np.float64)
    if len(a) == 0 or len(b) == 0:
        return out
    ia, ib = candidate_pairs(a, b)
    if len(ia):
        out[ia, ib] = shapely.area(robust.intersection(a[ia], b[ib]))
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


# --- bulk geometry of many samples, shared by the metrics of one run --------------------------

RingMode = str
"""How an official tool builds its polygons: ``"icdar"`` and ``"exact"``: the vertices as
given (the official int() is a no-op on the integers it accepts; non-integer coordinates
are evaluated as given, or rounded / truncated / refused before, by ``--floats``);
``"curved"``: float32 vertices; ``"totaltext"``: as given,
every polygon ``buffer(0)``-ed and every candidate pair clipped by GEOS as
``det ∩ gt`` (the Total-Text scripts' ``polygon_fast.area_of_intersection``), no numpy quad
clipping."""

BUFFER0_MODES = frozenset({"totaltext"})


def mode_rings(points: Sequence[FloatArray], mode: RingMode) -> list[FloatArray]:
    """Vertices as an official tool sees them (spec 0.4)."""
    if mode == "curved":
        return [p.astype(np.float32).astype(np.float64) for p in points]
    return [np.asarray(p, dtype=np.float64) for p in points]


class SampleGeometry:
    """Polygons, |shoelace| areas and the GT x det intersection-area matrix of one sample."""

    __slots__ = (
        "det_area",
        "det_geoms",
        "det_invalid",
        "gt_area",
        "gt_geoms",
        "gt_invalid",
        "inter",
    )

    def __init__(
        self,
        gt_geoms: GeomArray,
        gt_area: FloatArray,
        gt_invalid: npt.NDArray[np.bool_],
        det_geoms: GeomArray,
        det_area: FloatArray,
        det_invalid: npt.NDArray[np.bool_],
        inter: FloatArray,
    ) -> None:
        self.gt_geoms, self.gt_area, self.gt_invalid = gt_geoms, gt_area, gt_invalid
        self.det_geoms, self.det_area, self.det_invalid = det_geoms, det_area, det_invalid
        self.inter = inter


def _shifted_boxes(geoms: GeomArray, owner: IntArray, stride: float) -> GeomArray:
    b = shifted_bounds(shapely.bounds(geoms), owner, stride)
    boxes: GeomArray = shapely.box(b[:, 0], b[:, 1], b[:, 2], b[:, 3])
    return boxes


@dataclass(frozen=True)
class FlatGeometry:
    """Geometry of many samples as flat arrays (global instance indices, sample-major).

    ``pi``/``pj`` are candidate (GT, det) pairs of the same sample whose bounding boxes meet,
    sorted by GT then det, with their intersection areas ``inter`` (possibly 0).
    """

    g_off: IntArray
    d_off: IntArray
    g_owner: IntArray
    d_owner: IntArray
    g_geoms: GeomArray
    d_geoms: GeomArray
    g_area: FloatArray
    d_area: FloatArray
    g_invalid: npt.NDArray[np.bool_]
    d_invalid: npt.NDArray[np.bool_]
    pi: IntArray
    pj: IntArray
    inter: FloatArray


def _quad_stack(rings: Sequence[FloatArray]) -> tuple[FloatArray, npt.NDArray[np.bool_]]:
    """(N, 4, 2) array of the rings (zeros for non-quads) and which are convex quads."""
    out = np.zeros((len(rings), 4, 2))
    is_quad = np.fromiter((len(r) == 4 for r in rings), dtype=bool, count=len(rings))
    if is_quad.any():
        out[is_quad] = stacked([r for r, q in zip(rings, is_quad, strict=True) if q], 4)
    return out, is_quad & is_convex_quad(out)


Quads = tuple[FloatArray, npt.NDArray[np.bool_]]  # (N, 4, 2) vertices, convex-quad flags


def pair_intersection_areas(
    a_rings: Sequence[FloatArray] | Quads,
    b_rings: Sequence[FloatArray] | Quads,
    a_geoms: GeomArray,
    b_geoms: GeomArray,
    ia: IntArray,
    ib: IntArray,
) -> FloatArray:
    """|a_ia[k] ∩ b_ib[k]|: numpy clipping for convex quad pairs, GEOS for the others.

    Each side is given by its rings, or by its quad stack (``metrics.shapes.ringstack``)."""
    qa, ca = a_rings if isinstance(a_rings, tuple) else _quad_stack(a_rings)
    qb, cb = b_rings if isinstance(b_rings, tuple) else _quad_stack(b_rings)
    fast = ca[ia] & cb[ib]
    out = np.empty(len(ia))
    out[fast] = quad_intersection_areas(qa[ia[fast]], qb[ib[fast]])
    slow = ~fast
    if slow.any():
        out[slow] = shapely.area(robust.intersection(a_geoms[ia[slow]], b_geoms[ib[slow]]))
    return out


def same_sample_pairs(
    a: GeomArray, a_owner: IntArray, b: GeomArray, b_owner: IntArray
) -> tuple[IntArray, IntArray]:
    """Pairs (i, j) of the same owner (sample) whose bounding boxes meet, sorted by i then j.

    One STRtree over ``b``'s bounding boxes, each owner's boxes shifted along x so that
    different owners never meet.
    """
    if not len(a) or not len(b):
        return np.zeros(0, np.intp), np.zeros(0, np.intp)
    bounds = shapely.bounds(np.concatenate([a, b]))
    extent = np.max(np.abs(np.nan_to_num(bounds)))
    stride = 4.0 * (float(extent) + 1.0)  # empty geometries (NaN bounds) count as 0
    sa, sb = (
        shifted_bounds(bounds[: len(a)], a_owner, stride),
        shifted_bounds(bounds[len(a) :], b_owner, stride),
    )
    dense = dense_pairs(sa, a_owner, sb, b_owner)
    if dense is not None:
        return dense
    tree = shapely.STRtree(shapely.box(sb[:, 0], sb[:, 1], sb[:, 2], sb[:, 3]))
    ia, jb = tree.query(shapely.box(sa[:, 0], sa[:, 1], sa[:, 2], sa[:, 3]), predicate="intersects")
    keep = a_owner[ia] == b_owner[jb]
    ia, jb = ia[keep].astype(np.intp), jb[keep].astype(np.intp)
    order = np.lexsort((jb, ia))
    return ia[order], jb[order]


def flat_geometry(
    gt_points: Sequence[Sequence[FloatArray]],
    det_points: Sequence[Sequence[FloatArray]],
    mode: RingMode,
    *,
    intersections: bool = True,
) -> FlatGeometry:
    """Geometry of many samples at once: one vectorized pass over every polygon.

    Candidate pairs come from one STRtree over the detections' bounding boxes, each sample's
    boxes shifted along x so that samples never meet; intersections are computed on the
    unshifted polygons. ``intersections=False`` leaves them to the caller (``inter`` is NaN),
    for metrics that need only some pairs' areas (``pair_areas`` computes them).
    """
    f, quads = flat_parts(gt_points, det_points, mode)
    if len(f.pi) and intersections:
        f.inter[:] = pair_areas(f, quads, mode, np.arange(len(f.pi), dtype=np.intp))
    return f


def flat_parts(
    gt_points: Sequence[Sequence[FloatArray]],
    det_points: Sequence[Sequence[FloatArray]],
    mode: RingMode,
) -> tuple[FlatGeometry, tuple[Quads, Quads] | None]:
    """``flat_geometry`` without intersections (``inter`` NaN), and the quad stacks of both
    sides that ``pair_areas`` clips with (None in the ``buffer(0)`` modes)."""
    g_counts = np.fromiter((len(s) for s in gt_points), dtype=np.intp, count=len(gt_points))
    d_counts = np.fromiter((len(s) for s in det_points), dtype=np.intp, count=len(det_points))
    g_rings = ring_stack([p for s in gt_points for p in s], mode)
    d_rings = ring_stack([p for s in det_points for p in s], mode)
    repair = "buffer0" if mode in BUFFER0_MODES else "make_valid"
    g_geoms, g_bad = stack_polygons(g_rings, repair=repair)
    d_geoms, d_bad = stack_polygons(d_rings, repair=repair)
    g_owner = np.repeat(np.arange(len(g_counts)), g_counts)
    d_owner = np.repeat(np.arange(len(d_counts)), d_counts)
    pi, pj = same_sample_pairs(g_geoms, g_owner, d_geoms, d_owner)
    quads = None if mode in BUFFER0_MODES else (stack_quads(g_rings), stack_quads(d_rings))
    f = FlatGeometry(
        g_off=np.concatenate([[0], np.cumsum(g_counts)]).astype(np.intp),
        d_off=np.concatenate([[0], np.cumsum(d_counts)]).astype(np.intp),
        g_owner=g_owner,
        d_owner=d_owner,
        g_geoms=g_geoms,
        d_geoms=d_geoms,
        g_area=np.abs(stack_signed_areas(g_rings)),
        d_area=np.abs(stack_signed_areas(d_rings)),
        g_invalid=g_bad,
        d_invalid=d_bad,
        pi=pi,
        pj=pj,
        inter=np.full(len(pi), np.nan),
    )
    return f, quads


def pair_areas(
    f: FlatGeometry, quads: tuple[Quads, Quads] | None, mode: RingMode, k: IntArray
) -> FloatArray:
    """|G ∩ D| of the candidate pairs ``k`` of ``f``, as ``flat_geometry`` computes them
    (pair by pair, so any subset gives the same numbers): GEOS ``det ∩ gt`` in the
    ``buffer(0)`` modes, else the numpy clipper for convex quad pairs and GEOS for the rest."""
    pi, pj = f.pi[k], f.pj[k]
    if quads is None or mode in BUFFER0_MODES:
        out: FloatArray = shapely.area(robust.intersection(f.d_geoms[pj], f.g_geoms[pi]))
        return out
    return pair_intersection_areas(*quads, f.g_geoms, f.d_geoms, pi, pj)


def intersection_bounds(f: FlatGeometry, g_area: FloatArray, d_area: FloatArray) -> FloatArray:
    """An upper bound of |G ∩ D| for each candidate pair of ``f``: the smaller of the two
    areas and of the overlap of their bounding boxes (lets a metric skip exact clipping of
    pairs that cannot reach a threshold or a maximum)."""
    gb, db = shapely.bounds(f.g_geoms[f.pi]), shapely.bounds(f.d_geoms[f.pj])
    w = np.clip(np.minimum(gb[:, 2], db[:, 2]) - np.maximum(gb[:, 0], db[:, 0]), 0.0, None)
    h = np.clip(np.minimum(gb[:, 3], db[:, 3]) - np.maximum(gb[:, 1], db[:, 1]), 0.0, None)
    out: FloatArray = np.minimum(np.minimum(g_area[f.pi], d_area[f.pj]), w * h)
    return out


def split_geometry(f: FlatGeometry) -> list[SampleGeometry]:
    """Per-sample views of a FlatGeometry, with dense GT x det intersection matrices."""
    out = []
    bounds = np.searchsorted(f.g_owner[f.pi], np.arange(len(f.g_off)))
    for s in range(len(f.g_off) - 1):
        gs, ds = slice(f.g_off[s], f.g_off[s + 1]), slice(f.d_off[s], f.d_off[s + 1])
        inter = np.zeros((gs.stop - gs.start, ds.stop - ds.start))
        sel = slice(bounds[s], bounds[s + 1])
        inter[f.pi[sel] - f.g_off[s], f.pj[sel] - f.d_off[s]] = f.inter[sel]
        out.append(
            SampleGeometry(
                f.g_geoms[gs],
                f.g_area[gs],
                f.g_invalid[gs],
                f.d_geoms[ds],
                f.d_area[ds],
                f.d_invalid[ds],
                inter,
            )
        )
    return out


def bulk_geometry(
    gt_points: Sequence[Sequence[FloatArray]],
    det_points: Sequence[Sequence[FloatArray]],
    mode: RingMode,
) -> list[SampleGeometry]:
    """Per-sample geometry of many samples, computed in one vectorized pass."""
    return split_geometry(flat_geometry(gt_points, det_points, mode))


def rings_many(geoms: Sequence[shapely.Geometry] | GeomArray) -> list[list[FloatArray]]:
    """``rings_of`` of many geometries at once (vectorized; for drawing evidence regions)."""
    arr = np.asarray(list(geoms), dtype=object)
    out: list[list[FloatArray]] = [[] for _ in range(len(arr))]
    if not len(arr):
        return out
    parts, owner = shapely.get_parts(arr, return_index=True)
    polys = shapely.get_type_id(parts) == 3
    parts, owner = parts[polys], owner[polys]
    rings, ring_owner = shapely.get_rings(parts, return_index=True)
    coords, ring_idx = shapely.get_coordinates(rings, return_index=True)
    if not len(coords):
        return out
    cuts = np.flatnonzero(np.diff(ring_idx)) + 1
    for k, chunk in zip(np.r_[ring_idx[0], ring_idx[cuts]], np.split(coords, cuts), strict=True):
        out[int(owner[ring_owner[k]])].append(chunk)
    return out


def regions_of(geoms: GeomArray) -> list[Region]:
    """Evidence regions (rings as coordinates, and area) of many geometries at once."""
    if not len(geoms):
        return []
    areas = shapely.area(geoms)
    return [
        Region(tuple(rings), float(a)) if rings else EMPTY_REGION
        for rings, a in zip(rings_many(geoms), areas, strict=True)
    ]
