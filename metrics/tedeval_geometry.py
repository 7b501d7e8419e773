"""TedEval geometry (spec 4.3 steps 2-6, 0.5): candidate pairs, intersection areas and the
don't-care cuts.

Intersection areas are exact for axis-aligned integer boxes, clipped in numpy for other convex
quads (separated, touching and nested pairs decided exactly) and computed by shapely/GEOS for
the rest. Used by ``metrics.tedeval``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt
import shapely

from metrics.geometry import GeomArray
from metrics.model import FloatArray
from metrics.tedeval_inputs import (
    BoolArray,
    Inputs,
    IntArray,
    expand,
    group_bounds,
    quad_area,
    ratio,
)

if TYPE_CHECKING:
    from metrics.tedeval import TedEvalParams


# --------------------------------------------------------------------------- candidate pairs (4.3)


_EXHAUSTIVE_PAIRS = 4096  # samples with at most this many pairs skip the STRtree


def _convex(r: FloatArray) -> BoolArray:
    """Strictly convex quads with one turn direction (either orientation)."""
    e = r[:, [1, 2, 3, 0]] - r
    f = e[:, [1, 2, 3, 0]]
    cross = e[:, :, 0] * f[:, :, 1] - e[:, :, 1] * f[:, :, 0]
    return np.asarray(np.all(cross > 0, axis=1) | np.all(cross < 0, axis=1), dtype=bool)


def _axis_rect(r: FloatArray) -> BoolArray:
    """Axis-aligned rectangles of positive area (either vertex order)."""
    x, y = r[:, :, 0], r[:, :, 1]
    a = (x[:, 0] == x[:, 3]) & (x[:, 1] == x[:, 2]) & (y[:, 0] == y[:, 1]) & (y[:, 2] == y[:, 3])
    b = (x[:, 0] == x[:, 1]) & (x[:, 2] == x[:, 3]) & (y[:, 1] == y[:, 2]) & (y[:, 3] == y[:, 0])
    return np.asarray((a | b) & (quad_area(r) > 0), dtype=bool)


class Shapes:
    """One side's polygons: the int quads, and shapely polygons built only where GEOS is
    needed (self-intersecting ones repaired for clipping, spec 0.5). ``convex``/``rect`` are
    cleared for polygons replaced by a don't-care cut."""

    def __init__(self, ring: FloatArray, owner: IntArray) -> None:
        self.ring, self.owner = ring, owner
        empty = np.zeros((0, 2))
        self.lo = ring.min(axis=1) if len(ring) else empty
        self.hi = ring.max(axis=1) if len(ring) else empty
        self.convex, self.rect = _convex(ring), _axis_rect(ring)
        self.area = quad_area(ring)
        self.geoms: GeomArray = np.empty(len(ring), dtype=object)
        self.built = np.zeros(len(ring), dtype=bool)

    def geometries(self, idx: IntArray) -> GeomArray:
        need = np.unique(idx[~self.built[idx]])
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


def _blocks(
    a_cnt: IntArray, b_cnt: IntArray, a_off: IntArray, b_off: IntArray
) -> tuple[IntArray, IntArray]:
    """Every (a, b) pair within each sample, sorted (sample, a, b)."""
    owner, local = expand(a_cnt * b_cnt)
    width = np.maximum(b_cnt[owner], 1)
    return a_off[owner] + local // width, b_off[owner] + local % width


def _candidates(
    a: Shapes, ai: IntArray, b: Shapes, bi: IntArray, n: int
) -> tuple[IntArray, IntArray]:
    """Pairs (a, b) among the rows ai / bi (sorted by sample) of the same sample whose
    bounding boxes meet, sorted by a then b: exhaustive for small samples, else STRtree."""
    a_cnt = np.bincount(a.owner[ai], minlength=n).astype(np.intp)
    b_cnt = np.bincount(b.owner[bi], minlength=n).astype(np.intp)
    small = a_cnt * b_cnt <= _EXHAUSTIVE_PAIRS
    ka, kb = _blocks(
        np.where(small, a_cnt, 0), np.where(small, b_cnt, 0), _offsets(a_cnt), _offsets(b_cnt)
    )
    ia, ib = ai[ka], bi[kb]
    meet = np.all((a.lo[ia] <= b.hi[ib]) & (b.lo[ib] <= a.hi[ia]), axis=1)
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


def _ccw(r: FloatArray) -> FloatArray:
    """Quads re-ordered to a positive shoelace sum (inside = left of each edge)."""
    x, y = r[:, :, 0], r[:, :, 1]
    s = np.sum(x * np.roll(y, -1, axis=1) - np.roll(x, -1, axis=1) * y, axis=1)
    return np.where((s > 0)[:, None, None], r, r[:, ::-1])


def _sides(px: FloatArray, py: FloatArray, ax: FloatArray, ay: FloatArray) -> FloatArray:
    """s[n, k, m] = cross(a_m+1 − a_m, p_k − a_m): >= 0 when vertex k of p is inside edge m."""
    ex, ey = np.roll(ax, -1, axis=1) - ax, np.roll(ay, -1, axis=1) - ay
    dx = px[:, :, None] - ax[:, None, :]
    dy = py[:, :, None] - ay[:, None, :]
    return np.asarray(ex[:, None, :] * dy - ey[:, None, :] * dx, dtype=np.float64)


def _clip_half_plane(
    x: FloatArray, y: FloatArray, count: IntArray, a: FloatArray, b: FloatArray
) -> tuple[FloatArray, FloatArray, IntArray]:
    """One Sutherland–Hodgman step on (n, k) vertex arrays: keep the left of a -> b (closed).

    Crossings on axis-aligned clip edges are snapped to the edge coordinate.
    """
    n, k = x.shape
    idx = np.arange(k)[None, :]
    flat = (
        np.where(idx == 0, np.maximum(count - 1, 0)[:, None], idx - 1) + k * np.arange(n)[:, None]
    )
    px, py = x.ravel().take(flat), y.ravel().take(flat)
    ex, ey = (b[:, 0] - a[:, 0])[:, None], (b[:, 1] - a[:, 1])[:, None]
    ax, ay = a[:, 0:1], a[:, 1:2]
    s_cur = ex * (y - ay) - ey * (x - ax)
    s_prev = ex * (py - ay) - ey * (px - ax)
    den = s_prev - s_cur
    t = np.divide(s_prev, den, out=np.zeros_like(den), where=den != 0)
    cx = np.where(ex == 0, ax, px + t * (x - px))
    cy = np.where(ey == 0, ay, py + t * (y - py))
    valid = idx < count[:, None]
    keep = np.stack([valid & ((s_cur >= 0) != (s_prev >= 0)), valid & (s_cur >= 0)], axis=2)
    pos = np.cumsum(keep.reshape(n, 2 * k), axis=1) - 1
    new_count = (pos[:, -1] + 1).astype(np.intp)
    width = max(int(new_count.max()), 1)
    src = np.flatnonzero(keep)
    dest = (src // (2 * k)) * width + pos.ravel()[src]
    out_x, out_y = np.zeros(n * width), np.zeros(n * width)
    out_x[dest] = np.stack([cx, x], axis=2).ravel()[src]
    out_y[dest] = np.stack([cy, y], axis=2).ravel()[src]
    return out_x.reshape(n, width), out_y.reshape(n, width), new_count


def _clipped_area(sub: FloatArray, clip: FloatArray) -> FloatArray:
    """|S ∩ C| by Sutherland–Hodgman; ``clip`` convex with a positive shoelace sum."""
    n = len(sub)
    if n == 0:
        return np.zeros(0)
    x, y = sub[:, :, 0].copy(), sub[:, :, 1].copy()
    count = np.full(n, 4, dtype=np.intp)
    for e in range(4):
        x, y, count = _clip_half_plane(x, y, count, clip[:, e], clip[:, (e + 1) % 4])
    k = x.shape[1]
    idx = np.arange(k)[None, :]
    nxt = np.where(idx + 1 < count[:, None], idx + 1, 0) + k * np.arange(n)[:, None]
    terms = x * y.ravel().take(nxt) - x.ravel().take(nxt) * y
    area = np.abs(np.where(idx < count[:, None], terms, 0.0).sum(axis=1)) / 2
    return np.asarray(np.where(count >= 3, area, 0.0), dtype=np.float64)


def _convex_quad_inter(sub: FloatArray, clip: FloatArray) -> FloatArray:
    """|S ∩ C| of pairs of convex quads (N, 4, 2).

    Separated or touching pairs give exactly 0 and contained ones the exact quad area
    (integer vertices make these side tests exact); the rest are clipped.
    """
    if len(sub) == 0:
        return np.zeros(0)
    origin = sub[:, :1, :]
    s, c = _ccw(sub - origin), _ccw(clip - origin)
    sx, sy = np.ascontiguousarray(s[:, :, 0]), np.ascontiguousarray(s[:, :, 1])
    cx, cy = np.ascontiguousarray(c[:, :, 0]), np.ascontiguousarray(c[:, :, 1])
    s_in_c, c_in_s = _sides(sx, sy, cx, cy), _sides(cx, cy, sx, sy)
    apart = np.all(s_in_c <= 0, axis=1).any(axis=1) | np.all(c_in_s <= 0, axis=1).any(axis=1)
    s_inside = np.all(s_in_c >= 0, axis=(1, 2))
    c_inside = ~s_inside & np.all(c_in_s >= 0, axis=(1, 2))
    out = np.where(s_inside, quad_area(sub), np.where(c_inside, quad_area(clip), 0.0))
    rest = np.flatnonzero(~apart & ~s_inside & ~c_inside)
    out[rest] = _clipped_area(s[rest], c[rest])
    return np.asarray(out, dtype=np.float64)


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
    out[quad] = _convex_quad_inter(a.ring[ia[quad]], b.ring[ib[quad]])
    slow = ~rect & ~quad
    if slow.any():
        out[slow] = shapely.area(
            shapely.intersection(a.geometries(ia[slow]), b.geometries(ib[slow]))
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
        geoms[sel] = shapely.difference(geoms[sel - r], cutters[sel])
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
        pi, pj = _blocks(np.diff(inp.g_off), np.diff(inp.d_off), inp.g_off, inp.d_off)
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
        js, first = np.unique(geo.pj[rows], return_index=True)  # pairs sorted by GT
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
