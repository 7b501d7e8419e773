"""CLEval preparation shared by the metrics of a run (spec 5.3 step 1, 5.9): the parts of a
block of samples that depend only on the box mode and the confidence order.

``shared`` builds, once per block (memoized in ``metrics.shapes.geometry.CACHE`` by
``cleval_core.prepare``): the flat GT and detection lists (detections in evaluation order),
the QUAD points, and the geometry: polygons and the area of every candidate GT x det pair
(QUAD samples from the bulk geometry shared with the other ICDAR metrics, POLY samples with
``buffer(0)``), with the care areas cut out of the don't-care GTs. Used by
``metrics.cleval.core``.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain, repeat
from operator import attrgetter, is_

import numpy as np
import shapely

from metrics.cleval.geometry import (
    BoolArray,
    IntArray,
    cut_dont_care,
    geom_boxes,
    poly_geoms,
    poly_points,
    same_sample_pairs,
)
from metrics.cleval.validate import has_poly
from metrics.core.model import BoxType, FloatArray, Instance, Sample
from metrics.core.records import dataclass
from metrics.shapes import robust
from metrics.shapes.cache import GeometryCache
from metrics.shapes.geometry import GeomArray
from metrics.shapes.order import confidence_order
from metrics.shapes.quads import is_convex_quad


def is_poly(sample: Sample, box_type: str) -> bool:
    """POLY mode (spec 5.9) when forced, or (``auto``) when any box of the sample is a POLY."""
    if box_type != "auto":
        return box_type == "POLY"
    return has_poly(sample.gt) or has_poly(sample.det)


def offsets(counts: IntArray) -> IntArray:
    out: IntArray = np.concatenate([[0], np.cumsum(counts)]).astype(np.intp)
    return out


def owners(counts: IntArray) -> IntArray:
    out: IntArray = np.repeat(np.arange(len(counts), dtype=np.intp), counts)
    return out


def local_index(off: IntArray, owner: IntArray) -> IntArray:
    out: IntArray = np.arange(len(owner), dtype=np.intp) - off[owner]
    return out


def _stack(items: Sequence[Instance], sel: IntArray) -> FloatArray:
    """(n, 4, 2) points of the QUAD-mode boxes ``sel``."""
    if len(sel) == 0:
        return np.zeros((0, 4, 2), dtype=np.float64)
    points = [items[k].points for k in sel.tolist()]
    if set(map(len, points)) != {4}:
        raise ValueError("QUAD mode needs 4 points per box (use box_type='POLY')")
    flat = np.concatenate(points)
    if flat.shape != (4 * len(points), 2):
        return np.stack(points)  # unusual point arrays: as np.stack treats them
    return flat.reshape(-1, 4, 2)


# --------------------------------------------------------------------------- geometry


@dataclass
class Geo:
    """A batch's GT and detection geometries and the areas of its candidate pairs."""

    g_geoms: GeomArray
    d_geoms: GeomArray  # evaluation order
    d_area: FloatArray
    pi: IntArray
    pj: IntArray
    inter: FloatArray


def _quad_geo(b: Shared, sel: IntArray, perm_inv: IntArray, geometry: GeometryCache) -> Geo:
    """Geometry of the QUAD samples ``sel`` from the run's cache, in batch indices."""
    f = geometry.flat([b.samples[k] for k in sel.tolist()], "icdar")
    g_glob = b.g_off[sel[f.g_owner]] + local_index(f.g_off, f.g_owner)
    d_glob = perm_inv[b.d_off[sel[f.d_owner]] + local_index(f.d_off, f.d_owner)]
    g_geoms = np.empty(len(b.g_owner), dtype=object)
    d_geoms = np.empty(len(b.d_owner), dtype=object)
    d_area = np.zeros(len(b.d_owner))
    g_geoms[g_glob], d_geoms[d_glob], d_area[d_glob] = f.g_geoms, f.d_geoms, f.d_area
    return Geo(g_geoms, d_geoms, d_area, g_glob[f.pi], d_glob[f.pj], f.inter)


def _poly_geo(b: Shared, sel: IntArray, dets: Sequence[Instance]) -> Geo:
    """POLY samples: buffered shapely polygons (spec 5.9), intersections of candidates."""
    gmask, dmask = np.isin(b.g_owner, sel), np.isin(b.d_owner, sel)
    gi, dj = np.flatnonzero(gmask), np.flatnonzero(dmask)
    g_geoms = np.empty(len(b.g_owner), dtype=object)
    d_geoms = np.empty(len(b.d_owner), dtype=object)
    g_geoms[gi] = poly_geoms([poly_points(b.gts[k].points)[0] for k in gi.tolist()])
    d_geoms[dj] = poly_geoms([poly_points(dets[k].points)[0] for k in dj.tolist()])
    d_area = np.zeros(len(b.d_owner))
    d_area[dj] = shapely.area(d_geoms[dj])
    gbox, gok = geom_boxes(g_geoms[gi]) if len(gi) else (np.zeros((0, 4)), np.zeros(0, bool))
    dbox, dok = geom_boxes(d_geoms[dj]) if len(dj) else (np.zeros((0, 4)), np.zeros(0, bool))
    gi, gbox, dj, dbox = gi[gok], gbox[gok], dj[dok], dbox[dok]
    ia, jb = same_sample_pairs(gbox, b.g_owner[gi], dbox, b.d_owner[dj])
    pi, pj = gi[ia], dj[jb]
    inter = np.asarray(shapely.area(robust.intersection(g_geoms[pi], d_geoms[pj])), float)
    return Geo(g_geoms, d_geoms, d_area, pi, pj, inter.reshape(-1))


def _geometry(b: Shared, dets: Sequence[Instance], geometry: GeometryCache) -> Geo:
    perm = b.d_off[b.d_owner] + b.d_file
    perm_inv = np.empty_like(perm)
    perm_inv[perm] = np.arange(len(perm), dtype=np.intp)
    parts = []
    quad_sel, poly_sel = np.flatnonzero(~b.poly), np.flatnonzero(b.poly)
    if len(quad_sel):
        parts.append(_quad_geo(b, quad_sel, perm_inv, geometry))
    if len(poly_sel):
        parts.append(_poly_geo(b, poly_sel, dets))
    if len(parts) == 1:
        return parts[0]
    q, p = parts
    gp, dp = np.isin(b.g_owner, poly_sel), np.isin(b.d_owner, poly_sel)
    q.g_geoms[gp], q.d_geoms[dp], q.d_area[dp] = p.g_geoms[gp], p.d_geoms[dp], p.d_area[dp]
    pi, pj = np.concatenate([q.pi, p.pi]), np.concatenate([q.pj, p.pj])
    order = np.lexsort((pj, pi))
    return Geo(
        q.g_geoms,
        q.d_geoms,
        q.d_area,
        pi[order],
        pj[order],
        np.concatenate([q.inter, p.inter])[order],
    )


def _recut(b: Shared, geo: Geo) -> None:
    """Cut care areas out of dc GT polygons and recompute their intersections (5.3 step 1)."""
    g_poly = b.poly[b.g_owner]
    quads = np.full((len(g_poly), 4, 2), np.nan)  # strictly convex int quads, as polygons
    if len(b.g_quads):
        rings = b.g_quads
        idx = np.flatnonzero(~g_poly)
        convex = is_convex_quad(rings)
        quads[idx[convex]] = rings[convex]
    cut, changed = cut_dont_care(geo.g_geoms, b.g_dc, b.g_owner, g_poly, quads)
    if len(changed) == 0:
        return
    sel = np.flatnonzero(np.isin(geo.pi, changed) & (geo.inter > 0))
    if len(sel):
        geo.inter = geo.inter.copy()
        geo.inter[sel] = shapely.area(
            robust.intersection(cut[geo.pi[sel]], geo.d_geoms[geo.pj[sel]])
        )


@dataclass
class Shared:
    """The part of the preparation that depends only on the box mode and the confidence
    order, shared by the CLEval metrics of a run (``GeometryCache.memo``): flat sides, QUAD points,
    geometry with the don't-care areas cut (5.3 step 1). Read-only once built."""

    samples: Sequence[Sample]
    poly: BoolArray  # per sample
    gts: list[Instance]
    dets: list[Instance]  # evaluation order
    g_off: IntArray
    d_off: IntArray
    g_owner: IntArray
    d_owner: IntArray
    d_file: IntArray
    g_dc: BoolArray
    g_quads: FloatArray  # points of the QUAD-mode GTs / dets, (n, 4, 2)
    d_quads: FloatArray
    d_rings: FloatArray  # int()-truncated d_quads
    geo: Geo


_NONE = np.zeros(0, np.intp)
_NO_GEO = Geo(np.empty(0, object), np.empty(0, object), np.zeros(0), _NONE, _NONE, np.zeros(0))


def shared(
    samples: Sequence[Sample], box_type: str, confidences: bool | None, geometry: GeometryCache
) -> Shared:
    """Build the ``Shared`` part of a block (``cleval_core.prepare`` memoizes it)."""
    orders = [confidence_order(s.det, confidences) for s in samples]
    gts = list(chain.from_iterable(map(_GT, samples)))
    dets: list[Instance] = []
    for sample, order in zip(samples, orders, strict=True):
        dets.extend(
            sample.det if order == list(range(len(order))) else map(sample.det.__getitem__, order)
        )
    g_counts = np.fromiter(map(len, map(_GT, samples)), dtype=np.intp, count=len(samples))
    d_counts = np.fromiter(map(len, map(_DET, samples)), dtype=np.intp, count=len(samples))
    g_owner, d_owner = owners(g_counts), owners(d_counts)
    poly = _poly_samples(box_type, gts, dets, g_owner, d_owner, len(samples))
    d_quads = _stack(dets, np.flatnonzero(~poly[d_owner]))
    sh = Shared(
        samples,
        poly,
        gts,
        dets,
        offsets(g_counts),
        offsets(d_counts),
        g_owner,
        d_owner,
        np.fromiter(chain.from_iterable(orders), dtype=np.intp, count=len(dets)),
        np.fromiter(map(_DONT_CARE, gts), dtype=bool, count=len(gts)),
        _stack(gts, np.flatnonzero(~poly[g_owner])),
        d_quads,
        d_quads,
        _NO_GEO,
    )
    sh.geo = _geometry(sh, dets, geometry)
    _recut(sh, sh.geo)
    for value in vars(sh).values():  # shared by several metrics: read-only from now on
        if isinstance(value, np.ndarray) and value.flags.owndata:
            value.setflags(write=False)
    return sh


def _poly_samples(
    box_type: str,
    gts: list[Instance],
    dets: list[Instance],
    g_owner: IntArray,
    d_owner: IntArray,
    n: int,
) -> BoolArray:
    """``is_poly`` of every sample, from one pass over the box types."""
    if box_type != "auto":
        return np.full(n, box_type == "POLY")
    out = np.zeros(n, dtype=bool)
    for items, owner in ((gts, g_owner), (dets, d_owner)):
        types = map(_BOX_TYPE, items)
        out[owner[np.fromiter(map(is_, types, repeat(BoxType.POLY)), bool, len(items))]] = True
    return out


_GT, _DET, _DONT_CARE = attrgetter("gt"), attrgetter("det"), attrgetter("dont_care")
_BOX_TYPE = attrgetter("box_type")
