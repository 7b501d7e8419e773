"""TedEval scoring and results (spec 4.3 step 11, 4.5, 0.9): PCC hits, per-sample
SampleResults, MatchRecords and the viewer's evidence, from the flat arrays of a batch.

PCC inclusion is Polygon3's ``isInside`` (spec 0.6) on the contours Polygon3 would hold. All
indices in results are file indices. Used by ``metrics.tedeval``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import shapely

from metrics.model import FloatArray
from metrics.results import (
    InstanceResult,
    MatchKind,
    MatchRecord,
    NearMiss,
    SampleResult,
    Verdict,
    credit_tally,
    per_image_rule,
)
from metrics.tedeval_geometry import Geometry
from metrics.tedeval_inputs import (
    BoolArray,
    Inputs,
    IntArray,
    Pcc,
    expand,
    group_bounds,
    group_starts,
    ratio,
)
from metrics.tedeval_match import Matching

_RULE_NAMES = {1: "sum", 2: "single"}
_MATCHED, _PARTIAL, _MISSED = Verdict.MATCHED, Verdict.PARTIAL, Verdict.MISSED
_FALSE_POSITIVE, _DONT_CARE = Verdict.FALSE_POSITIVE, Verdict.DONT_CARE


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
    first = np.unique(hit_q, return_index=True)[1]
    out = np.zeros(len(det), dtype=bool)
    out[hit_q[first]] = ~c.hole[contour[odd][first]]
    return out


@dataclass
class Hits:
    pcc: IntArray  # hit (PCC index, det) pairs
    det: IntArray
    counts: IntArray  # per PCC: number of matched dets containing it
    found: IntArray  # per GT
    contained: IntArray  # per det
    total: IntArray  # per det


def count_hits(inp: Inputs, pcc: Pcc, m: Matching, contours: Contours) -> Hits:
    qm, k = expand(inp.g_len[m.mi])
    idx = pcc.off[m.mi[qm]] + k
    det = m.mj[qm]
    inside = is_inside(pcc.xy[idx, 0], pcc.xy[idx, 1], det, contours)
    counts = np.bincount(idx[inside], minlength=len(pcc.gt)).astype(np.intp)
    found = np.bincount(pcc.gt[counts == 1], minlength=inp.n_gt).astype(np.intp)
    contained = np.bincount(det[inside], minlength=inp.n_det).astype(np.intp)
    total = np.bincount(m.mj, inp.g_len[m.mi], minlength=inp.n_det).astype(np.intp)
    return Hits(idx[inside], det[inside], counts, found, contained, total)


# --------------------------------------------------------------------------- results


def _sequential_sums(owner: IntArray, values: FloatArray, n: int) -> FloatArray:
    out = np.zeros(n)
    np.add.at(out, owner, values)  # in array order: the official accumulation order
    return out


def _best(
    key: IntArray, partner: IntArray, value: FloatArray, n: int
) -> tuple[list[int], list[float]]:
    """Per key: the partner with the largest value (lowest partner index on ties), -1/0 if none."""
    best = np.full(n, -1, dtype=np.intp)
    val = np.zeros(n)
    if len(key):
        order = np.lexsort((partner, -value, key))
        first = order[group_starts(key[order])]
        best[key[first]] = partner[first]
        val[key[first]] = value[first]
    return best.tolist(), val.tolist()


def _grouped(key: IntArray, item: IntArray, n: int) -> list[tuple[int, ...]]:
    """Per key 0..n-1: the items of its rows, in ascending item order."""
    out: list[tuple[int, ...]] = [()] * n
    order = np.lexsort((item, key))
    keys = key[order]
    starts, ends = group_bounds(keys)
    items = item[order].tolist()
    for k, lo, hi in zip(keys[starts].tolist(), starts.tolist(), ends.tolist(), strict=True):
        out[k] = tuple(items[lo:hi])
    return out


class Assembler:
    """Per-sample SampleResults from the flat arrays (indices back to file order)."""

    def __init__(
        self, inp: Inputs, geo: Geometry, pcc: Pcc, m: Matching, hits: Hits, rings: CutRings
    ) -> None:
        self.inp, self.geo, self.pcc, self.m, self.hits, self.rings = inp, geo, pcc, m, hits, rings
        n = len(inp.samples)
        g_matched = np.bincount(m.mi, minlength=inp.n_gt) > 0
        d_matched = np.bincount(m.mj, minlength=inp.n_det) > 0
        g_credit = np.where(g_matched, hits.found / np.maximum(inp.g_len, 1), 0.0)
        d_credit = np.where(
            d_matched, ratio(hits.contained.astype(np.float64), hits.total.astype(np.float64)), 0.0
        )
        gm, dm = np.flatnonzero(g_matched), np.flatnonzero(d_matched)
        self.recall_sum = _sequential_sums(inp.g_owner[gm], g_credit[gm], n).tolist()
        self.precision_sum = _sequential_sums(inp.d_owner[dm], d_credit[dm], n).tolist()
        self.g_local = np.arange(inp.n_gt) - inp.g_off[inp.g_owner]
        self.d_pos = inp.d_off[inp.d_owner] + inp.d_file  # global file-order position
        self.n_gt_care = np.bincount(inp.g_owner[~inp.g_dc], minlength=n).tolist()
        self.n_det_care = np.bincount(inp.d_owner[~geo.d_dc], minlength=n).tolist()
        self.oo = self._oo_records()
        self.gt = self._gt_results(g_matched, g_credit)
        self.det = self._det_results(d_matched, d_credit)

    # ---- instances (global lists, file order)
    def _gt_results(self, matched: BoolArray, credit: FloatArray) -> list[InstanceResult]:
        inp, geo, m = self.inp, self.geo, self.m
        care = ~inp.g_dc[geo.pi] & ~geo.d_dc[geo.pj]
        d_local = inp.d_file[geo.pj[care]]
        best, val = _best(geo.pi[care], d_local, geo.recall[care], inp.n_gt)
        partners = _grouped(m.mi, inp.d_file[m.mj], inp.n_gt)
        out = []
        for i, (dc, hit, c, found, length, local) in enumerate(
            zip(
                inp.g_dc.tolist(),
                matched.tolist(),
                credit.tolist(),
                self.hits.found.tolist(),
                inp.g_len.tolist(),
                self.g_local.tolist(),
                strict=True,
            )
        ):
            if dc:
                out.append(InstanceResult(local, _DONT_CARE, values={"found": 0, "length": 0}))
            elif hit:
                values = {"found": found, "length": length}
                out.append(InstanceResult(local, _verdict(c), c, partners[i], values=values))
            else:
                near = NearMiss(best[i], val[i], "area_recall") if val[i] > 0 else None
                values = {"found": 0, "length": length}
                out.append(InstanceResult(local, _MISSED, near_miss=near, values=values))
        return out

    def _det_results(self, matched: BoolArray, credit: FloatArray) -> list[InstanceResult]:
        inp, geo, m = self.inp, self.geo, self.m
        care = ~inp.g_dc[geo.pi] & ~geo.d_dc[geo.pj]
        best, val = _best(geo.pj[care], self.g_local[geo.pi[care]], geo.precision[care], inp.n_det)
        partners = _grouped(m.mj, self.g_local[m.mi], inp.n_det)
        absorbed = np.where(
            geo.d_absorbed >= 0, geo.d_absorbed - inp.g_off[inp.d_owner], -1
        ).tolist()
        out: list[InstanceResult | None] = [None] * inp.n_det
        for j, (pos, f, dc, hit, c) in enumerate(
            zip(
                self.d_pos.tolist(),
                inp.d_file.tolist(),
                geo.d_dc.tolist(),
                matched.tolist(),
                credit.tolist(),
                strict=True,
            )
        ):
            if dc:
                value = float(geo.d_dc_value[j])
                values = {"dc_precision": value, "contained": 0, "total": 0}
                by = absorbed[j] if absorbed[j] >= 0 else None
                out[pos] = InstanceResult(f, _DONT_CARE, absorbed_by=by, values=values)
            elif hit:
                values = {
                    "contained": int(self.hits.contained[j]),
                    "total": int(self.hits.total[j]),
                }
                out[pos] = InstanceResult(f, _verdict(c), c, partners[j], values=values)
            else:
                near = NearMiss(best[j], val[j], "area_precision") if val[j] > 0 else None
                values = {"contained": 0, "total": 0}
                out[pos] = InstanceResult(f, _FALSE_POSITIVE, near_miss=near, values=values)
        return [r for r in out if r is not None]

    # ---- samples
    def results(self, metric: str) -> list[SampleResult]:
        ev = _Evidence(self.inp, self.geo, self.pcc, self.hits, self.rings)
        return [self._sample(s, ev, metric) for s in range(len(self.inp.samples))]

    def _sample(self, s: int, ev: _Evidence, metric: str) -> SampleResult:
        inp = self.inp
        g0, g1 = int(inp.g_off[s]), int(inp.g_off[s + 1])
        d0, d1 = int(inp.d_off[s]), int(inp.d_off[s + 1])
        n_gt, n_det = self.n_gt_care[s], self.n_det_care[s]
        rc, pc = self.recall_sum[s], self.precision_sum[s]
        recall, precision, h = per_image_rule(n_gt, n_det, rc, pc)
        extra: dict[str, float] = {"num_gt_care": n_gt, "num_det_care": n_det}
        if inp.sorted_by_conf[s]:
            extra["ap"] = precision if n_gt == 0 else 0.0
        return SampleResult(
            metric=metric,
            sample_id=inp.samples[s].id,
            recall=recall,
            precision=precision,
            hmean=h,
            tally=credit_tally(n_gt, n_det, rc, pc),
            gt=tuple(self.gt[g0:g1]),
            det=tuple(self.det[d0:d1]),
            matches=(*self.m.mo[s], *self.oo[s], *self.m.om[s]),
            evidence=ev.sample(g0, g1, d0, d1, self.m.multiline[s]),
            extra=extra,
        )

    def _oo_records(self) -> list[list[MatchRecord]]:
        """OO MatchRecords of every sample, built in one pass."""
        m, inp = self.m, self.inp
        kind = MatchKind.ONE_TO_ONE
        records = [
            MatchRecord(kind, (i,), (j,), {"d": d, "area_recall": r, "area_precision": p}, "OO")
            for i, j, (d, r, p) in zip(
                self.g_local[m.oo_i].tolist(),
                inp.d_file[m.oo_j].tolist(),
                m.oo_values.tolist(),
                strict=True,
            )
        ]
        bounds = np.searchsorted(inp.g_owner[m.oo_i], np.arange(len(inp.samples) + 1)).tolist()
        return [records[bounds[s] : bounds[s + 1]] for s in range(len(inp.samples))]


class _Evidence:
    """The viewer's evidence of spec 4.5, per sample, from global per-GT tables built once."""

    def __init__(self, inp: Inputs, geo: Geometry, pcc: Pcc, hits: Hits, rings: CutRings) -> None:
        self.geo = geo
        lo, hi = pcc.off[:-1].tolist(), pcc.off[1:].tolist()
        counts = hits.counts
        counts.flags.writeable = False
        hit_by = _grouped(hits.pcc, inp.d_file[hits.det], len(pcc.gt))
        self.pcc = [pcc.xy[a:b] for a, b in zip(lo, hi, strict=True)]
        self.hits = [counts[a:b] for a, b in zip(lo, hi, strict=True)]
        self.hit_by = [tuple(hit_by[a:b]) for a, b in zip(lo, hi, strict=True)]
        self.vertical = pcc.vertical.tolist()
        self.rule = geo.d_rule.tolist()
        self.cut = geo.d_cut.tolist()
        self.file = inp.d_file.tolist()
        self.rings: dict[int, list[FloatArray]] = {}
        for j, a, n in zip(
            rings.owner.tolist(), rings.start.tolist(), rings.length.tolist(), strict=True
        ):
            self.rings.setdefault(j, []).append(rings.xy[a : a + n])

    def sample(
        self, g0: int, g1: int, d0: int, d1: int, multiline: list[dict[str, Any]]
    ) -> dict[str, Any]:
        dets = range(d0, d1)
        return {
            "pcc": tuple(self.pcc[g0:g1]),
            "pcc_vertical": tuple(self.vertical[g0:g1]),
            "pcc_hits": tuple(self.hits[g0:g1]),
            "pcc_hit_by": tuple(self.hit_by[g0:g1]),
            "multiline": tuple(multiline),
            "dc_det_rule": {self.file[j]: _RULE_NAMES[self.rule[j]] for j in dets if self.rule[j]},
            "det_polygons_after_dc": {
                self.file[j]: tuple(self.rings.get(j, ())) for j in dets if self.cut[j]
            },
        }


def _verdict(credit: float) -> Verdict:
    return _MATCHED if credit >= 1.0 else _PARTIAL
