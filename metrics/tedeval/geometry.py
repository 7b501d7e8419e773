"""TedEval geometry (spec 4.3 steps 2-6, 0.5): candidate pairs, intersection areas and the
don't-care cuts.

Intersection areas are exact for axis-aligned integer boxes, clipped in numpy for other convex
quads (``tedeval_clip``: separated, touching and nested pairs decided exactly) and computed by
shapely/GEOS for the rest, except pairs whose convex int quads (a don't-care cut stays inside
its quad) are separated by a gap: exactly 0. Used by ``metrics.tedeval.metric``.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import shapely

from metrics.core.arrays import first_of_each, unique_values
from metrics.core.model import FloatArray
from metrics.core.records import dataclass, field
from metrics.shapes import robust
from metrics.shapes.geometry import GeomArray
from metrics.shapes.quads import convex_quad_inter, quad_area, strictly_apart
from metrics.tedeval.inputs import (
    BoolArray,
    Inputs,
    IntArray,
    group_bounds,
    ratio,
)
from metrics.tedeval.params import TedEvalParams

# --------------------------------------------------------------------------- candidate pairs (4.3)


_EXHAUSTIVE_PAIRS = 4096  # samples with at most this many pairs skip the STRtree


_NEXT = [1, 2, 3, 0]


def _all4(b: BoolArray) -> BoolArray:
    """``np.all(b, axis=1)`` of an (N, 4) array, column by column (much faster)."""
    out: BoolArray = b[:, 0] & b[:, 1] & b[:, 2] & b[:, 3]
    return out


def _convex(r: FloatArray) -> BoolArray:
    """Strictly convex quads with one turn direction (either orientation)."""
    e = r[:, _NEXT] - r
    f = e[:, _NEXT]
    cross = e[:, :, 0] * f[:, :, 1] - e[:, :, 1] * f[:, :, 0]
    return _all4(cross > 0) | _all4(cross < 0)


def _axis_rect(r: FloatArray) -> BoolArray:
    """Axis-aligned rectangles of positive area (either vertex order)."""
    x, y = r[:, :, 0], r[:, :, 1]
    a = (x[:, 0] == x[:, 3]) & (x[:, 1] == x[:, 2]) & (y[:, 0] == y[:, 1]) & (y[:, 2] == y[:, 3])
    b = (x[:, 0] == x[:, 1]) & (x[:, 2] == x[:, 3]) & (y[:, 1] == y[:, 2]) & (y[:, 3] == y[:, 0])
    return np.asarray((a | b) & (quad_area(r) > 0), dtype=bool)


def _corner(op: np.ufunc, r: FloatArray) -> FloatArray:
    """Bounding-box corner of (N, 4, 2) quads (``r.min(axis=1)`` with ``np.minimum``)."""
    out: FloatArray = op(op(r[:, 0], r[:, 1]), op(r[:, 2], r[:, 3]))
    return out


class Shapes:
    """One side's polygons: the int quads, and shapely polygons built only where GEOS is
    needed (self-intersecting ones repaired for clipping, spec 0.5). ``convex``/``rect`` are
    cleared for polygons replaced by a don't-care cut."""

    def __init__(self, ring: FloatArray, owner: IntArray) -> None:
        self.ring, self.owner = ring, owner
        empty = np.zeros((0, 2))
        self.lo = _corner(np.minimum, ring) if len(ring) else empty
        self.hi = _corner(np.maximum, ring) if len(ring) else empty
        self.box = [c.copy() for c in (self.lo[:, 0], self.lo[:, 1], self.hi[:, 0], self.hi[:, 1])]
        self.convex, self.rect = _convex(ring), _axis_rect(ring)
        self.hull = self.convex.copy()  # the polygon lies inside its convex int quad
        self.area = quad_area(ring)
        self.geoms: GeomArray = np.empty(len(ring), dtype=object)
        self.built = np.zeros(len(ring), dtype=bool)

    def geometries(self, idx: IntArray) -> GeomArray:
        need = unique_values(idx[~self.built[idx]])
        if len(need):
            geoms: GeomArray = shapely.polygons(self.ring[need])
            check = np.flatnonzero(~self.convex[need])
            bad = check[~shapely.is_valid(geoms[check])]
            if len(bad):
                geoms[bad] = shapely.make_valid(geoms[bad])
            self.geoms[need] = geoms
            self.built[need] = True
        out: GeomArray = self.geoms[idx]
        return out

    def replace(self, idx: IntArray, geoms: GeomArray) -> None:
        self.geoms[idx] = geoms
        self.built[idx] = True
        self.convex[idx] = self.rect[idx] = False
        self.area[idx] = shapely.area(geoms)


def _tree_pairs(a: Shapes, ai: IntArray, b: Shapes, bi: IntArray) -> tuple[IntArray, IntArray]:
    """STRtree over bounding boxes, samples shifted apart along x."""
    extent = float(max(np.abs(a.ring[ai]).max(), np.abs(b.ring[bi]).max()))
    stride = 4.0 * (extent + 1.0)
    pad = 1e-6 * max(1.0, stride)

    def boxes(s: Shapes, i: IntArray) -> GeomArray:
        shift = s.owner[i] * stride
        out: GeomArray = shapely.box(
            s.lo[i, 0] + shift - pad, s.lo[i, 1] - pad, s.hi[i, 0] + shift + pad, s.hi[i, 1] + pad
        )
        return out

    ta, tb = shapely.STRtree(boxes(b, bi)).query(boxes(a, ai), predicate="intersects")
    keep = a.owner[ai[ta]] == b.owner[bi[tb]]
    return ai[ta[keep]], bi[tb[keep]]


def _blocks(a_owner: IntArray, b_cnt: IntArray, b_off: IntArray) -> tuple[IntArray, IntArray]:
    """Every (k, l) with a-row k and b-row l of the same sample, sorted by k then l: the
    a rows are given by their sample (ascending), sample s has b rows b_off[s] + 0..b_cnt[s]-1."""
    per = b_cnt[a_owner]
    k = np.repeat(np.arange(len(a_owner), dtype=np.intp), per)
    first = b_off[a_owner] - (np.cumsum(per) - per)
    return k, (np.repeat(first, per) + np.arange(len(k))).astype(np.intp)


def _candidates(
    a: Shapes, ai: IntArray, b: Shapes, bi: IntArray, n: int
) -> tuple[IntArray, IntArray]:
    """Pairs (a, b) among the rows ai / bi (sorted by sample) of the same sample whose
    bounding boxes meet, sorted by a then b: exhaustive for small samples, else STRtree."""
    a_own = a.owner[ai]
    a_cnt = np.bincount(a_own, minlength=n).astype(np.intp)
    b_cnt = np.bincount(b.owner[bi], minlength=n).astype(np.intp)
    small = a_cnt * b_cnt <= _EXHAUSTIVE_PAIRS
    ka, kb = _blocks(a_own, np.where(small, b_cnt, 0), _offsets(b_cnt))
    ia, ib = ai[ka], bi[kb]
    (alx, aly, ahx, ahy), (blx, bly, bhx, bhy) = a.box, b.box
    meet = (alx[ia] <= bhx[ib]) & (blx[ib] <= ahx[ia])
    meet &= (aly[ia] <= bhy[ib]) & (bly[ib] <= ahy[ia])
    ia, ib = ia[meet], ib[meet]
    if not small.all():
        big_a, big_b = ai[~small[a.owner[ai]]], bi[~small[b.owner[bi]]]
        if len(big_a) and len(big_b):
            ta, tb = _tree_pairs(a, big_a, b, big_b)
            ia, ib = np.r_[ia, ta].astype(np.intp), np.r_[ib, tb].astype(np.intp)
            order = np.lexsort((ib, ia))
            ia, ib = ia[order], ib[order]
    return ia, ib


def _offsets(counts: IntArray) -> IntArray:
    return (np.cumsum(counts) - counts).astype(np.intp)


# --------------------------------------------------------------------------- intersection areas


def _inter(a: Shapes, b: Shapes, ia: IntArray, ib: IntArray) -> FloatArray:
    """|a_ia ∩ b_ib|: exact for axis-aligned rectangles, numpy clipping for convex quads,
    GEOS for the rest (cut or non-convex polygons)."""
    out = np.zeros(len(ia))
    rect = a.rect[ia] & b.rect[ib]
    lo = np.maximum(a.lo[ia[rect]], b.lo[ib[rect]])
    hi = np.minimum(a.hi[ia[rect]], b.hi[ib[rect]])
    wh = np.maximum(hi - lo, 0.0)
    out[rect] = wh[:, 0] * wh[:, 1]
    quad = ~rect & a.convex[ia] & b.convex[ib]
    out[quad] = convex_quad_inter(a.ring[ia[quad]], b.ring[ib[quad]])
    slow = np.flatnonzero(~rect & ~quad)
    hulls = slow[a.hull[ia[slow]] & b.hull[ib[slow]]]
    apart = strictly_apart(a.ring[ia[hulls]], b.ring[ib[hulls]])
    slow = np.setdiff1d(slow, hulls[apart], assume_unique=True)  # apart: exactly 0
    if len(slow):
        out[slow] = shapely.area(
            robust.intersection(a.geometries(ia[slow]), b.geometries(ib[slow]))
        )
    return out


# --------------------------------------------------------------------------- don't-care cuts


def _subtract_rounds(s: Shapes, target: IntArray, cutter: Shapes, member: IntArray) -> None:
    """s[t] -= cutter[m] for the (t, m) rows, in row order within each target."""
    if len(target) == 0:
        return
    starts, ends = group_bounds(target)
    rank = np.arange(len(target)) - np.repeat(starts, ends - starts)
    geoms = s.geometries(target).copy()
    cutters = cutter.geometries(member)
    for r in range(int(rank.max()) + 1):
        sel = np.flatnonzero(rank == r)
        geoms[sel] = robust.difference(geoms[sel - r], cutters[sel])
        if r:
            geoms[sel - r] = geoms[sel]
    first = starts
    s.replace(target[first], geoms[first])


@dataclass
class Geometry:
    """Polygons after the don't-care cuts and the candidate pairs with R and P (steps 2-6)."""

    g: Shapes
    d: Shapes
    pi: IntArray
    pj: IntArray
    inter: FloatArray = field(default_factory=lambda: np.zeros(0))
    d_dc: BoolArray = field(default_factory=lambda: np.zeros(0, dtype=bool))
    d_rule: npt.NDArray[np.int8] = field(default_factory=lambda: np.zeros(0, dtype=np.int8))
    d_absorbed: IntArray = field(default_factory=lambda: np.zeros(0, dtype=np.intp))
    d_dc_value: FloatArray = field(default_factory=lambda: np.zeros(0))
    d_cut: BoolArray = field(default_factory=lambda: np.zeros(0, dtype=bool))
    recall: FloatArray = field(default_factory=lambda: np.zeros(0))
    precision: FloatArray = field(default_factory=lambda: np.zeros(0))

    def refresh(self) -> None:
        self.recall = ratio(self.inter, self.g.area[self.pi])
        self.precision = ratio(self.inter, self.d.area[self.pj])


def build_geometry(inp: Inputs, params: TedEvalParams) -> Geometry:
    g, d = Shapes(inp.g_ring, inp.g_owner), Shapes(inp.d_ring, inp.d_owner)
    n = len(inp.samples)
    if min(params.area_recall, params.area_precision) <= 0:
        pi, pj = _blocks(inp.g_owner, np.diff(inp.d_off), inp.d_off)
    else:
        pi, pj = _candidates(g, np.arange(inp.n_gt), d, np.arange(inp.n_det), n)
    geo = Geometry(g, d, pi, pj)
    _cut_dont_care_gts(inp, geo)
    geo.inter = _inter(g, d, pi, pj)
    geo.refresh()
    _dont_care_dets(inp, geo, params)
    _cut_dets(inp, geo)
    return geo


def _cut_dont_care_gts(inp: Inputs, geo: Geometry) -> None:
    """Step 2: every dc GT loses the care GTs that overlap it (positive area)."""
    dc, care = np.flatnonzero(inp.g_dc), np.flatnonzero(~inp.g_dc)
    if len(dc) == 0 or len(care) == 0:
        return
    a, b = _candidates(geo.g, dc, geo.g, care, len(inp.samples))
    pos = _inter(geo.g, geo.g, a, b) > 0
    _subtract_rounds(geo.g, a[pos], geo.g, b[pos])


def _dont_care_dets(inp: Inputs, geo: Geometry, params: TedEvalParams) -> None:
    """Step 5 rules: Σ P over dc GTs with R > ar reaching ap, else one dc GT with P > ap."""
    nd = inp.n_det
    on_dc = inp.g_dc[geo.pi]
    contrib = on_dc & (geo.recall > params.area_recall)
    total = np.zeros(nd)
    np.add.at(total, geo.pj[contrib], geo.precision[contrib])  # sequential, GT order
    has_dc = np.bincount(inp.g_owner[inp.g_dc], minlength=len(inp.samples)) > 0
    by_sum = has_dc[inp.d_owner] & (total >= params.area_precision)
    single = on_dc & (geo.precision > params.area_precision)
    by_single = ~by_sum & (np.bincount(geo.pj[single], minlength=nd) > 0)
    geo.d_dc = by_sum | by_single
    geo.d_rule = np.where(by_sum, 1, np.where(by_single, 2, 0)).astype(np.int8)
    geo.d_absorbed = np.full(nd, -1, dtype=np.intp)
    geo.d_dc_value = np.where(by_sum, total, 0.0)
    for mask, use, is_single in ((contrib, by_sum, False), (single, by_single, True)):
        rows = np.flatnonzero(mask)
        rows = rows[use[geo.pj[rows]]]
        js, first, _ = first_of_each(geo.pj[rows])  # pairs sorted by GT
        geo.d_absorbed[js] = geo.pi[rows[first]]
        if is_single:
            geo.d_dc_value[js] = geo.precision[rows[first]]


def _cut_dets(inp: Inputs, geo: Geometry) -> None:
    """Step 5 cut and step 6: dets lose every dc region they overlap; R and P recomputed.

    A care GT never overlaps a (care-cut) dc region with positive area, so |G ∩ D'| =
    |G ∩ D| for care rows: only |D'| changes there, and dc rows become 0 (spec 4.3-6).
    """
    rows = np.flatnonzero(inp.g_dc[geo.pi] & (geo.recall > 0))
    geo.d_cut = np.zeros(inp.n_det, dtype=bool)
    if len(rows) == 0:
        return
    order = np.lexsort((geo.pi[rows], geo.pj[rows]))
    target, member = geo.pj[rows][order], geo.pi[rows][order]
    _subtract_rounds(geo.d, target, geo.g, member)
    geo.d_cut[target] = True
    geo.inter = np.where(geo.d_cut[geo.pj] & inp.g_dc[geo.pi], 0.0, geo.inter)
    geo.refresh()
