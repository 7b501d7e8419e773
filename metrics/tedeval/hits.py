"""TedEval PCC hits (spec 4.3 step 11, 0.6): which pseudo character centres of a matched GT
lie inside each of its matched detections.

PCC inclusion is Polygon3's ``isInside`` on the contours Polygon3 would hold: the detection's
int quad when it lost no don't-care region, else the rings of the cut polygon (the smallest
containing contour decides). Used by ``metrics.tedeval.metric``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import shapely

from metrics.core.arrays import first_of_each
from metrics.core.model import FloatArray
from metrics.core.records import dataclass
from metrics.tedeval.geometry import Geometry
from metrics.tedeval.inputs import BoolArray, Inputs, IntArray, Pcc, expand
from metrics.tedeval.match import Matching

# --------------------------------------------------------------------------- PCC hits (step 11)


@dataclass
class CutRings:
    """Rings of the don't-care-cut detections (exterior then holes per part), closed."""

    owner: IntArray  # global det index per ring
    xy: FloatArray  # all ring vertices, each ring closed (first vertex repeated)
    start: IntArray
    length: IntArray  # vertices per ring, closing one included
    hole: BoolArray


def cut_rings(geo: Geometry) -> CutRings:
    cut = np.flatnonzero(geo.d_cut)
    parts, part_idx = shapely.get_parts(geo.d.geometries(cut), return_index=True)
    poly = shapely.get_type_id(parts) == 3
    parts, part_idx = parts[poly], part_idx[poly]
    rings, ring_part = shapely.get_rings(parts, return_index=True)
    first = np.r_[True, ring_part[1:] != ring_part[:-1]] if len(rings) else np.zeros(0, bool)
    xy, coord_ring = shapely.get_coordinates(rings, return_index=True)
    length = np.bincount(coord_ring, minlength=len(rings)).astype(np.intp)
    xy.flags.writeable = False
    return CutRings(
        owner=cut[part_idx[ring_part]].astype(np.intp),
        xy=xy,
        start=(np.cumsum(length) - length).astype(np.intp),
        length=length,
        hole=~first,
    )


@dataclass
class Contours:
    """Contours of every detection polygon as Polygon3 holds them, smallest first per det."""

    x: FloatArray
    y: FloatArray
    start: IntArray  # per contour, into x/y
    length: IntArray
    hole: BoolArray
    first: IntArray  # per det
    count: IntArray  # per det


def build_contours(inp: Inputs, geo: Geometry, cr: CutRings) -> Contours:
    """Uncut dets: their int quad in file vertex order; cut dets: the cut rings, unclosed."""
    plain = np.flatnonzero(~geo.d_cut)
    owner = np.r_[plain, cr.owner].astype(np.intp)
    length = np.r_[np.full(len(plain), 4, dtype=np.intp), cr.length - 1].astype(np.intp)
    keep = np.ones(len(cr.xy), dtype=bool)
    keep[cr.start + cr.length - 1] = False
    xy = np.concatenate([inp.d_ring[plain].reshape(-1, 2), cr.xy[keep]])
    start = (np.cumsum(length) - length).astype(np.intp)
    area = np.r_[np.zeros(len(plain)), _ring_areas(xy, start[len(plain) :], length[len(plain) :])]
    order = np.lexsort((area, owner))
    owner = owner[order]
    return Contours(
        x=xy[:, 0],
        y=xy[:, 1],
        start=start[order],
        length=length[order],
        hole=np.r_[np.zeros(len(plain), dtype=bool), cr.hole][order],
        first=np.searchsorted(owner, np.arange(inp.n_det)).astype(np.intp),
        count=np.bincount(owner, minlength=inp.n_det).astype(np.intp),
    )


def _ring_areas(xy: FloatArray, start: IntArray, length: IntArray) -> FloatArray:
    """|shoelace| of rings stored at xy[start : start + length] (unclosed)."""
    if len(length) == 0:
        return np.zeros(0)
    ring, k = expand(length)
    cur = start[ring] + k
    nxt = start[ring] + (k + 1) % length[ring]
    terms = xy[cur, 0] * xy[nxt, 1] - xy[nxt, 0] * xy[cur, 1]
    return np.asarray(np.abs(np.bincount(ring, terms, len(length))) / 2, dtype=np.float64)


def is_inside(px: FloatArray, py: FloatArray, det: IntArray, c: Contours) -> BoolArray:
    """Polygon3 ``isInside`` (spec 0.6): PNPOLY per contour, the smallest containing decides."""
    q, rank = expand(c.count[det])
    contour = c.first[det[q]] + rank
    qc, e = expand(c.length[contour])
    cont = contour[qc]
    vi = c.start[cont] + e
    vj = c.start[cont] + (e - 1) % c.length[cont]
    x, y = px[q[qc]], py[q[qc]]
    yi, yj, xi, xj = c.y[vi], c.y[vj], c.x[vi], c.x[vj]
    span = ((yi <= y) & (y < yj)) | ((yj <= y) & (y < yi))
    with np.errstate(divide="ignore", invalid="ignore"):
        toggle = span & (x < (xj - xi) * (y - yi) / (yj - yi) + xi)
    odd = (np.bincount(qc, toggle, len(contour)) % 2).astype(bool)
    hit_q = q[odd]
    first = first_of_each(hit_q)[1]
    out = np.zeros(len(det), dtype=bool)
    out[hit_q[first]] = ~c.hole[contour[odd][first]]
    return out


@dataclass
class Hits:
    """Which detections contain which pseudo character centres, and the counts per GT and det."""

    pcc: IntArray  # hit (PCC index, det) pairs
    det: IntArray
    counts: IntArray  # per PCC: number of matched dets containing it
    found: IntArray  # per GT
    contained: IntArray  # per det
    total: IntArray  # per det


def _quad_pnpoly(px: FloatArray, py: FloatArray, quads: FloatArray) -> BoolArray:
    """``is_inside`` for single-contour quads (vertex order kept): the same PNPOLY terms."""
    inside = np.zeros(len(px), dtype=bool)
    with np.errstate(divide="ignore", invalid="ignore"):
        for i in range(4):
            xi, yi = quads[:, i, 0], quads[:, i, 1]
            xj, yj = quads[:, i - 1, 0], quads[:, i - 1, 1]
            span = ((yi <= py) & (py < yj)) | ((yj <= py) & (py < yi))
            inside ^= span & (px < (xj - xi) * (py - yi) / (yj - yi) + xi)
    return inside


def count_hits(
    inp: Inputs, geo: Geometry, pcc: Pcc, m: Matching, contours: Callable[[], Contours]
) -> Hits:
    """PCC hits of the matched pairs: uncut dets by a direct PNPOLY on their quad, cut ones
    through their contours (built only when needed)."""
    qm, k = expand(inp.g_len[m.mi])
    idx = pcc.off[m.mi[qm]] + k
    det = m.mj[qm]
    px, py = pcc.xy[idx, 0], pcc.xy[idx, 1]
    cut = geo.d_cut[det]
    inside = np.empty(len(det), dtype=bool)
    plain = ~cut
    inside[plain] = _quad_pnpoly(px[plain], py[plain], inp.d_ring[det[plain]])
    if cut.any():
        inside[cut] = is_inside(px[cut], py[cut], det[cut], contours())
    counts = np.bincount(idx[inside], minlength=len(pcc.gt)).astype(np.intp)
    found = np.bincount(pcc.gt[counts == 1], minlength=inp.n_gt).astype(np.intp)
    contained = np.bincount(det[inside], minlength=inp.n_det).astype(np.intp)
    total = np.bincount(m.mj, inp.g_len[m.mi], minlength=inp.n_det).astype(np.intp)
    return Hits(idx[inside], det[inside], counts, found, contained, total)
