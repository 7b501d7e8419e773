"""PaddleOCR's polygons for a block of samples: ``flat_geometry(..., "exact",
intersections=False)`` of ``metrics.shapes.geometry`` as PaddleOCR reads it, built with
less work, and the skip reasons.

The polygons are those ``flat_geometry`` builds (invalid ones made valid, which PaddleOCR
then skips); a strictly convex quad with finite vertices is valid and simple, so GEOS tests
only the other polygons; candidate pairs are the same-sample pairs whose boxes meet
(``metrics.shapes.boxpairs``). The quads for numpy clipping are stacked once.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import shapely

from metrics.core.model import FloatArray
from metrics.shapes.boxpairs import box_pairs
from metrics.shapes.geometry import FlatGeometry, GeomArray, Quads
from metrics.shapes.matching import BoolArray
from metrics.shapes.ringstack import RingStack, ring_stack, stack_quads, stack_signed_areas


def _plain(quads: Quads) -> BoolArray:
    """Strictly convex quads with finite vertices: valid and simple polygons."""
    out: BoolArray = quads[1] & np.isfinite(quads[0]).all(axis=(1, 2))
    return out


def _polygons(rs: RingStack, plain: BoolArray) -> tuple[GeomArray, BoolArray]:
    """``ringstack.stack_polygons(rs)`` (invalid polygons made valid) and which were
    invalid; GEOS checks the validity of the polygons not ``plain``."""
    geoms = np.empty(rs.count, dtype=object)
    for n, (idx, rings) in rs.groups.items():
        geoms[idx] = shapely.Polygon() if n < 3 else shapely.polygons(rings)
    invalid = np.zeros(rs.count, dtype=bool)
    rest = np.flatnonzero(~plain)
    if len(rest):
        invalid[rest] = ~shapely.is_valid(geoms[rest])
    bad = np.flatnonzero(invalid)
    if len(bad):
        geoms[bad] = shapely.make_valid(geoms[bad])
    return geoms, invalid


def paddle_geometry(
    g_rings: Sequence[Sequence[FloatArray]], d_rings: Sequence[Sequence[FloatArray]]
) -> tuple[FlatGeometry, tuple[Quads, Quads], tuple[BoolArray, BoolArray]]:
    """The block's flat geometry (pairs of meeting boxes, ``inter`` NaN), the quads of each
    side, and which polygons of each side are plain convex quads."""
    g_counts = np.fromiter((len(s) for s in g_rings), dtype=np.intp, count=len(g_rings))
    d_counts = np.fromiter((len(s) for s in d_rings), dtype=np.intp, count=len(d_rings))
    g_rs = ring_stack([r for s in g_rings for r in s], "exact")
    d_rs = ring_stack([r for s in d_rings for r in s], "exact")
    quads = stack_quads(g_rs), stack_quads(d_rs)
    plain = _plain(quads[0]), _plain(quads[1])
    g_geoms, g_bad = _polygons(g_rs, plain[0])
    d_geoms, d_bad = _polygons(d_rs, plain[1])
    g_off = np.concatenate([[0], np.cumsum(g_counts)]).astype(np.intp)
    d_off = np.concatenate([[0], np.cumsum(d_counts)]).astype(np.intp)
    pi, pj, _ = box_pairs(g_geoms, g_off, d_geoms, d_off)
    f = FlatGeometry(
        g_off=g_off,
        d_off=d_off,
        g_owner=np.repeat(np.arange(len(g_counts)), g_counts),
        d_owner=np.repeat(np.arange(len(d_counts)), d_counts),
        g_geoms=g_geoms,
        d_geoms=d_geoms,
        g_area=np.abs(stack_signed_areas(g_rs)),
        d_area=np.abs(stack_signed_areas(d_rs)),
        g_invalid=g_bad,
        d_invalid=d_bad,
        pi=pi,
        pj=pj,
        inter=np.full(len(pi), np.nan) if len(pi) else np.zeros(0),
    )
    return f, quads, plain


def skip_reasons(
    rings: Sequence[FloatArray],
    geoms: GeomArray,
    invalid: BoolArray,
    check_simple: bool,
    plain: BoolArray | None = None,
) -> list[str]:
    """Why each polygon is skipped ("" when it is used): fewer than 3 points, not valid,
    not simple (GEOS asked only for the polygons not ``plain``)."""
    lengths = np.fromiter((len(r) for r in rings), dtype=np.intp, count=len(rings))
    simple = np.ones(len(rings), dtype=bool)
    if check_simple:
        ask = (lengths >= 3) & ~invalid
        if plain is not None:
            ask &= ~plain
        if ask.any():
            simple[ask] = shapely.is_simple(geoms[ask])
    out = [""] * len(rings)
    for k in np.flatnonzero((lengths < 3) | invalid | ~simple).tolist():
        r = rings[k]
        if len(r) < 3:
            out[k] = f"fewer than 3 points ({len(r)})"
        elif invalid[k]:
            out[k] = f"not a valid polygon: {shapely.is_valid_reason(shapely.Polygon(r))}"
        else:
            out[k] = "not a simple polygon"
    return out
