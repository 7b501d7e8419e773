"""CLEval geometry (spec 5.2, 5.3, 5.9, 0.6): pseudo transcriptions, PCCs, PCC inclusion and
the area-precision matrix with don't-care areas cut out. Used by ``metrics.cleval.metric``.

Two box modes, as the official ``BOX_TYPE``:

- ``QUAD`` (also LTRB, stored as a quad): polygons of ``int()``-truncated vertices with
  Polygon2/3 semantics (areas and intersections shared with the other ICDAR metrics through
  ``geometry.CACHE``), aspect ratio and PCCs from the untruncated points, PCC inclusion by the
  half-open PNPOLY of spec 0.6, evaluated in exactly the official order of operations;
- ``POLY``: shapely polygons of the float points, ``buffer(0)``, inputs with fewer than 4
  points padded as the official code does, inclusion by shapely ``contains`` (strict
  interior), aspect ratio ``+1e5`` (every dc GT gets 10 characters, every FP det costs 1).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
import shapely

from metrics.core.arrays import first_of_each
from metrics.core.model import FloatArray
from metrics.shapes import robust
from metrics.shapes.geometry import GeomArray

IntArray = npt.NDArray[np.intp]
BoolArray = npt.NDArray[np.bool_]

POLY_RATIO = 1e5  # POLY aspect ratio = min(10, h/w) + 1e5 (spec 5.9, Q4): only its size matters
_DENSE_PAIRS = 200_000  # same-sample pairs tested densely; above, candidates from an STRtree


# --------------------------------------------------------------------------- aspect (5.2)


def _dist(p: FloatArray, q: FloatArray) -> FloatArray:
    dx = np.fabs(p[..., 0] - q[..., 0])
    dy = np.fabs(p[..., 1] - q[..., 1])
    out: FloatArray = np.sqrt(dx * dx + dy * dy)
    return out


def quad_ratio(points: FloatArray, legacy: bool) -> FloatArray:
    """Aspect ratio of (n, 4, 2) quads: 0.1.1 ≈ w/h, legacy ≈ h/w (spec 5.2)."""
    hor = (_dist(points[:, 0], points[:, 1]) + _dist(points[:, 2], points[:, 3])) / 2
    ver = (_dist(points[:, 1], points[:, 2]) + _dist(points[:, 3], points[:, 0])) / 2
    out: FloatArray = (ver + 1e-5) / (hor + 1e-5) if legacy else (hor + 1e-5) / (ver + 1e-5)
    return out


def pseudo_length(ratio: FloatArray) -> IntArray:
    """Characters of a ``###`` box: min(round(0.5 + max(r, 1/r)), 10) (half-even round)."""
    out: IntArray = np.minimum(np.rint(0.5 + np.maximum(ratio, 1 / ratio)), 10).astype(np.intp)
    return out


def fp_estimate(ratio: FloatArray) -> IntArray:
    """Characters charged to an unmatched det: min(round(0.5 + 1/(1e-5 + r)), 10)."""
    out: IntArray = np.minimum(np.rint(0.5 + 1 / (1e-5 + ratio)), 10).astype(np.intp)
    return out


def fp_paper(points: Sequence[FloatArray], poly: BoolArray) -> IntArray:
    """Paper Eq. 8a: round(long side / short side), 1 to 10 (``fp_chars="paper"``).

    QUAD: mean opposite side lengths; POLY: the minimum rotated rectangle of the points.
    """
    hor, ver = np.zeros(len(points)), np.zeros(len(points))
    quads = np.flatnonzero(~poly)
    if len(quads):
        p = np.stack([points[k] for k in quads.tolist()])
        hor[quads] = (_dist(p[:, 0], p[:, 1]) + _dist(p[:, 2], p[:, 3])) / 2
        ver[quads] = (_dist(p[:, 1], p[:, 2]) + _dist(p[:, 3], p[:, 0])) / 2
    for k in np.flatnonzero(poly).tolist():
        hor[k], ver[k] = _rect_sides(points[k])
    long, short = np.maximum(hor, ver), np.minimum(hor, ver)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(short > 0, long / np.where(short > 0, short, 1.0), 10.0)
    ratio = np.where(long > 0, ratio, 1.0)
    out: IntArray = np.clip(np.rint(ratio), 1, 10).astype(np.intp)
    return out


def _rect_sides(points: FloatArray) -> tuple[float, float]:
    rect = shapely.minimum_rotated_rectangle(shapely.MultiPoint(points))
    q = np.asarray(shapely.get_coordinates(rect), dtype=np.float64)
    if len(q) < 3:
        span = float(_dist(q[0], q[-1])) if len(q) else 0.0
        return span, 0.0
    return float(_dist(q[0], q[1])), float(_dist(q[1], q[2]))


# --------------------------------------------------------------------------- POLY padding (5.9)


def poly_points(points: FloatArray) -> tuple[FloatArray, FloatArray]:
    """(ring of the polygon, points of the PCC/aspect code) after the official padding.

    3 points: add (x1, y3). 2 points: the ring repeats both points (degenerate) while the
    box points become (x0,y0),(x1,y1),(x1,y0),(x0,y1). 1 point: the ring is the point four
    times and the box points (x0,y0),(x0,x0),(x0,x0),(x0,x0) (sic).
    """
    n = len(points)
    if n >= 4:
        return points, points
    if n == 3:
        padded = np.vstack([points, [[points[0, 0], points[2, 1]]]])
        return padded, padded
    if n == 2:
        (x0, y0), (x1, y1) = points
        ring = np.array([[x0, y0], [x1, y1], [x0, y0], [x1, y1]], dtype=np.float64)
        return ring, np.array([[x0, y0], [x1, y1], [x1, y0], [x0, y1]], dtype=np.float64)
    x0, y0 = points[0]
    ring = np.repeat(points[:1], 4, axis=0)
    return ring, np.array([[x0, y0], [x0, x0], [x0, x0], [x0, x0]], dtype=np.float64)


def poly_geoms(rings: Sequence[FloatArray]) -> GeomArray:
    """shapely polygons of the rings, then ``buffer(0)`` (as the official POLY class)."""
    if not len(rings):
        return np.empty(0, dtype=object)
    lengths = np.fromiter(map(len, rings), dtype=np.intp, count=len(rings))
    index = np.repeat(np.arange(len(rings), dtype=np.intp), lengths)
    shells = shapely.linearrings(np.concatenate(rings), indices=index)
    out: GeomArray = shapely.buffer(shapely.polygons(shells), 0)
    return out


# --------------------------------------------------------------------------- PCC (5.2, 5.9)


def quad_pcc(
    points: FloatArray, lengths: IntArray, vertical: BoolArray
) -> tuple[FloatArray, IntArray]:
    """PCCs of (n, 4, 2) quads with L_i characters each, and the owner GT of every PCC."""
    corners = np.where(vertical[:, None, None], points[:, [3, 0, 1, 2]], points)
    lt, rt, rb, lb = corners[:, 0], corners[:, 1], corners[:, 2], corners[:, 3]
    a = np.stack([(lt[:, 0] + lb[:, 0]) / 2, (lt[:, 1] + lb[:, 1]) / 2], axis=1)
    b = np.stack([(rt[:, 0] + rb[:, 0]) / 2, (rt[:, 1] + rb[:, 1]) / 2], axis=1)
    safe = np.where(lengths > 0, lengths, 1)[:, None]
    unit = (b - a) / safe
    owner = np.repeat(np.arange(len(lengths), dtype=np.intp), lengths)
    start = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.intp)
    k = (np.arange(len(owner), dtype=np.intp) - start[owner]).astype(np.float64)
    u = unit[owner]
    pcc: FloatArray = a[owner] + u / 2 + u * k[:, None]
    return pcc, owner


def poly_pcc(points: FloatArray, length: int) -> FloatArray:
    """PCCs of one (padded) POLY box: resampled top and bottom lines (spec 5.9)."""
    return poly_pccs([points], np.array([length], dtype=np.intp))[0]


def poly_pccs(points: Sequence[FloatArray], lengths: IntArray) -> tuple[FloatArray, IntArray]:
    """PCCs of (padded) POLY boxes with L_i characters each, grouped by box, and the box of
    every PCC (spec 5.9). Box i of n points has a top line (its first n//2 points) and a
    bottom line (the others, reversed); each of its s = n//2 - 1 sections is resampled into L
    points (the section start, then ``trunc(start + (end - start) / L * t)``, t = 1..L-1),
    the line's last point closing it; PCC k is the mean of the resampled points k*s and
    (k+1)*s of both lines, in the official order of operations."""
    n = np.fromiter(map(len, points), dtype=np.intp, count=len(points))
    sec = n // 2 - 1
    lengths = np.where(sec >= 1, lengths, 0).astype(np.intp)
    owner = np.repeat(np.arange(len(points), dtype=np.intp), lengths)
    if len(owner) == 0:
        return np.zeros((0, 2), dtype=np.float64), owner
    flat = np.concatenate(points).astype(np.float64, copy=False)
    base = (np.cumsum(n) - n)[owner]
    k = np.arange(len(owner), dtype=np.intp) - (np.cumsum(lengths) - lengths)[owner]
    s, length, half = sec[owner], lengths[owner], n[owner] // 2
    last_top, last_bottom = base + half - 1, base + half

    def resampled(r: IntArray, top: bool) -> FloatArray:
        """Point r of the resampled top or bottom line of each PCC's box."""
        is_last = r == s * length
        i = np.minimum(r // length, s - 1)
        t = np.where(is_last, 0, r - (r // length) * length)
        a, b = (
            (base + i, base + i + 1) if top else (base + n[owner] - 1 - i, base + n[owner] - 2 - i)
        )
        start = flat[a]
        diff = (flat[b] - start) / length[:, None]
        inner = np.trunc(start + diff * t[:, None].astype(np.float64))
        value = np.where((t == 0)[:, None], start, inner)
        out: FloatArray = np.where(is_last[:, None], flat[last_top if top else last_bottom], value)
        return out

    c, d = k * s, (k + 1) * s
    pcc: FloatArray = (
        resampled(c, True) + resampled(d, True) + resampled(c, False) + resampled(d, False)
    ) / 4
    return pcc, owner


# --------------------------------------------------------------------------- candidates


def same_sample_pairs(
    a_box: FloatArray, a_owner: IntArray, b_box: FloatArray, b_owner: IntArray
) -> tuple[IntArray, IntArray]:
    """(i, j) with boxes a_i and b_j of the same sample meeting (closed, slightly padded).

    Boxes are (n, 4) xmin, ymin, xmax, ymax, both sides grouped by sample (owner ascending).
    Few pairs: every same-sample pair is tested; else one STRtree over all samples, each
    sample shifted along x so that samples never meet. Sorted by i, then j.
    """
    empty = np.zeros(0, np.intp)
    if len(a_box) == 0 or len(b_box) == 0:
        return empty, empty
    n = int(max(a_owner.max(), b_owner.max())) + 1
    a_cnt = np.bincount(a_owner, minlength=n)
    b_cnt = np.bincount(b_owner, minlength=n)
    if int((a_cnt * b_cnt).sum()) <= _DENSE_PAIRS:
        return _dense_pairs(a_box, a_owner, a_cnt, b_box, b_cnt)
    extent = float(max(np.abs(a_box).max(), np.abs(b_box).max()))
    stride = 4.0 * (extent + 1.0)
    pad = 1e-6 * (1.0 + extent)

    def boxes(box: FloatArray, owner: IntArray) -> GeomArray:
        shift = owner.astype(np.float64) * stride
        out: GeomArray = shapely.box(
            box[:, 0] + shift - pad, box[:, 1] - pad, box[:, 2] + shift + pad, box[:, 3] + pad
        )
        return out

    tree = shapely.STRtree(boxes(b_box, b_owner))
    ia, jb = tree.query(boxes(a_box, a_owner))
    keep = a_owner[ia] == b_owner[jb]
    ia, jb = ia[keep].astype(np.intp), jb[keep].astype(np.intp)
    order = np.lexsort((jb, ia))
    return ia[order], jb[order]


def _dense_pairs(
    a_box: FloatArray, a_owner: IntArray, a_cnt: IntArray, b_box: FloatArray, b_cnt: IntArray
) -> tuple[IntArray, IntArray]:
    """Every same-sample (i, j) (instances grouped by sample), kept when the boxes meet."""
    del a_cnt
    b_off = np.concatenate([[0], np.cumsum(b_cnt)])
    per = b_cnt[a_owner]  # pairs of each a
    ia = np.repeat(np.arange(len(a_owner), dtype=np.intp), per)
    first = b_off[a_owner] - (np.cumsum(per) - per)
    jb = (np.repeat(first, per) + np.arange(len(ia))).astype(np.intp)
    pad = 1e-6 * (1.0 + float(max(np.abs(a_box).max(), np.abs(b_box).max())))
    ax0, ay0, ax1, ay1 = (np.ascontiguousarray(a_box[:, k]) for k in range(4))
    bx0, by0, bx1, by1 = (np.ascontiguousarray(b_box[:, k]) for k in range(4))
    meet = (ax0[ia] <= bx1[jb] + pad) & (bx0[jb] <= ax1[ia] + pad)
    meet &= (ay0[ia] <= by1[jb] + pad) & (by0[jb] <= ay1[ia] + pad)
    return ia[meet], jb[meet]


def geom_boxes(geoms: GeomArray) -> tuple[FloatArray, BoolArray]:
    """Bounds of geometries and which are non-empty."""
    b = np.asarray(shapely.bounds(geoms), dtype=np.float64).reshape(-1, 4)
    ok: BoolArray = np.asarray(~np.isnan(b).any(axis=1), dtype=bool)
    return np.where(ok[:, None], b, 0.0), ok


# --------------------------------------------------------------------------- inclusion (0.6)


def pnpoly(px: FloatArray, py: FloatArray, quads: FloatArray) -> BoolArray:
    """Polygon2/3 ``isInside`` (half-open PNPOLY) of point k in quad k, vectorized.

    Edges (v_i, v_j) with j = i - 1; toggle when (y_i <= y < y_j or y_j <= y < y_i) and
    x < (x_j - x_i) * (y - y_i) / (y_j - y_i) + x_i, evaluated in this order in doubles.
    """
    inside = np.zeros(len(px), dtype=bool)
    with np.errstate(divide="ignore", invalid="ignore"):
        for i in range(4):
            j = (i - 1) % 4
            xi, yi = quads[:, i, 0], quads[:, i, 1]
            xj, yj = quads[:, j, 0], quads[:, j, 1]
            straddle = ((yi <= py) & (py < yj)) | ((yj <= py) & (py < yi))
            cross = px < (xj - xi) * (py - yi) / (yj - yi) + xi
            inside ^= straddle & cross
    return inside


# --------------------------------------------------------------------------- don't care (5.3)


def _sub_quad(a: GeomArray, b: GeomArray) -> GeomArray:
    out: GeomArray = robust.difference(a, b)  # GPC ``self.polygon - other.polygon``
    return out


def _sub_poly(a: GeomArray, b: GeomArray) -> GeomArray:
    out: GeomArray = robust.difference(a, robust.intersection(a, b))  # POLY.subtract
    return out


_EXACT = 2.0**24  # |coordinates| below this: the side tests of integer quads are exact


def interiors_apart(a: FloatArray, b: FloatArray) -> BoolArray:
    """Pairs of strictly convex quads with integer vertices (N, 4, 2) whose interiors are
    disjoint (separated or touching), decided exactly by the separating-axis test on the
    edges of both; False (undecided) for coordinates too large for exact products."""
    return quads_apart_or_meeting(a, b)[0]


def quads_apart_or_meeting(a: FloatArray, b: FloatArray) -> tuple[BoolArray, BoolArray]:
    """(``interiors_apart``, interiors meeting) of pairs of strictly convex quads: both
    False where undecided (coordinates too large for exact products, or, for meeting,
    not integers). Convex interiors that meet overlap with a positive area."""
    small = (np.abs(a).max(axis=(1, 2)) < _EXACT) & (np.abs(b).max(axis=(1, 2)) < _EXACT)
    apart = _outside_an_edge(a, b) | _outside_an_edge(b, a)
    exact = small & (a == np.trunc(a)).all(axis=(1, 2)) & (b == np.trunc(b)).all(axis=(1, 2))
    return np.asarray(small & apart, dtype=bool), np.asarray(exact & ~apart, dtype=bool)


def _outside_an_edge(a: FloatArray, b: FloatArray) -> BoolArray:
    """Every vertex of b on or outside the line of one edge of a."""
    nxt = [1, 2, 3, 0]
    ax, ay, bx, by = a[:, :, 0], a[:, :, 1], b[:, :, 0], b[:, :, 1]
    ex, ey = ax[:, nxt] - ax, ay[:, nxt] - ay
    area2 = np.sum(ax * ay[:, nxt] - ax[:, nxt] * ay, axis=1)
    # side[n, m, k] > 0: vertex k of b strictly on the inner side of edge m of a
    side = ex[:, :, None] * (by[:, None, :] - ay[:, :, None]) - ey[:, :, None] * (
        bx[:, None, :] - ax[:, :, None]
    )
    side *= np.sign(area2)[:, None, None]
    return np.asarray(np.any(np.all(side <= 0, axis=2), axis=1), dtype=bool)


def _overlapping(
    geoms: GeomArray, rows: IntArray, cols: IntArray, apart: BoolArray, meet: BoolArray
) -> BoolArray:
    """|g_row ∩ g_col| > 0, GEOS only for the pairs not known to be apart or to meet."""
    keep = meet.copy()
    ask = np.flatnonzero(~apart & ~meet)
    if len(ask):
        keep[ask] = shapely.area(robust.intersection(geoms[rows[ask]], geoms[cols[ask]])) > 0
    return keep


def cut_dont_care(
    geoms: GeomArray,
    dc: BoolArray,
    owner: IntArray,
    poly: BoolArray,
    quads: FloatArray | None = None,
) -> tuple[GeomArray, IntArray]:
    """dc GT polygons minus every care GT of their sample they overlap (area > 0), care GTs
    taken in ascending order and re-checked against the already cut polygon (spec 5.3 step 1).

    ``poly`` (per GT) selects the POLY subtraction ``a - (a ∩ b)``. ``quads`` (per GT, NaN
    where unknown) are the int vertices of GTs whose polygon is that strictly convex quad:
    pairs of them whose interiors are apart or meet skip GEOS. Every dc GT is cut in rounds (its
    k-th overlapping care GT in round k), one vectorized GEOS call per round. Returns the
    new geometries and the GT indices that changed.
    """
    none = np.zeros(0, np.intp)
    dc_idx, care_idx = np.flatnonzero(dc), np.flatnonzero(~dc)
    if len(dc_idx) == 0 or len(care_idx) == 0:
        return geoms, none
    box, ok = geom_boxes(geoms)
    dc_idx, care_idx = dc_idx[ok[dc_idx]], care_idx[ok[care_idx]]
    ia, ib = same_sample_pairs(box[dc_idx], owner[dc_idx], box[care_idx], owner[care_idx])
    if len(ia) == 0:
        return geoms, none
    rows, cols = dc_idx[ia], care_idx[ib]
    apart, meet = np.zeros(len(rows), dtype=bool), np.zeros(len(rows), dtype=bool)
    if quads is not None:
        known = ~np.isnan(quads[rows, 0, 0]) & ~np.isnan(quads[cols, 0, 0])
        apart[known], meet[known] = quads_apart_or_meeting(quads[rows[known]], quads[cols[known]])
    keep = _overlapping(geoms, rows, cols, apart, meet)
    rows, cols = rows[keep], cols[keep]
    if len(rows) == 0:
        return geoms, none
    out = geoms.copy()
    changed, first, count = first_of_each(rows)
    _subtract(out, changed, geoms[cols[first]], poly[changed])
    for r in range(1, int(count.max())):
        m = np.flatnonzero(count > r)
        d, other = changed[m], geoms[cols[first[m] + r]]
        hit = shapely.area(robust.intersection(out[d], other)) > 0
        _subtract(out, d[hit], other[hit], poly[d[hit]])
    return out, changed.astype(np.intp)


def _subtract(out: GeomArray, idx: IntArray, other: GeomArray, poly: BoolArray) -> None:
    """out[idx] -= other (QUAD: GPC difference; POLY: ``a - (a ∩ b)``)."""
    for kind, sub in ((False, _sub_quad), (True, _sub_poly)):
        sel = poly == kind
        if sel.any():
            out[idx[sel]] = sub(out[idx[sel]], other[sel])
