"""TedEval results (spec 4.3 step 11, 4.5, 0.9): per-sample SampleResults, MatchRecords and
the viewer's evidence, from the flat arrays of a batch.

Instance results are built for the whole batch at once (one comprehension per side, Python
lists only) and sliced per sample. All indices in results are file indices. Used by
``metrics.tedeval.metric``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from metrics.core.arrays import grouped
from metrics.core.evidence import Limit, MultilineTest, PccEvidence
from metrics.core.model import FloatArray
from metrics.core.results import (
    InstanceResult,
    MatchKind,
    MatchRecord,
    NearMiss,
    SampleResult,
    Verdict,
    credit_tally,
    per_image_rule,
)
from metrics.core.sparse import SparsePairs
from metrics.shapes.mode import Mode
from metrics.tedeval.evidence import TedEvalEvidence
from metrics.tedeval.geometry import Geometry
from metrics.tedeval.hits import CutRings, Hits
from metrics.tedeval.inputs import BoolArray, Inputs, IntArray, Pcc, group_starts, ratio
from metrics.tedeval.match import Matching

_RULE_NAMES = {1: "sum", 2: "single"}
_MATCHED, _PARTIAL, _MISSED = Verdict.MATCHED, Verdict.PARTIAL, Verdict.MISSED
_FALSE_POSITIVE, _DONT_CARE = Verdict.FALSE_POSITIVE, Verdict.DONT_CARE


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


def _near(best: list[int], val: list[float], measure: str) -> list[NearMiss | None]:
    return [NearMiss(b, v, measure) if v > 0 else None for b, v in zip(best, val, strict=True)]


def _care(n_gt: int, n_det: int) -> dict[str, float]:
    return {"num_gt_care": n_gt, "num_det_care": n_det}


def _dc_values(value: float) -> dict[str, float]:
    return {"dc_precision": value, "contained": 0, "total": 0}


def _verdicts(credit: list[float]) -> list[Verdict]:
    return [_MATCHED if c >= 1.0 else _PARTIAL for c in credit]


class Assembler:
    """Per-sample SampleResults from the flat arrays (indices back to file order)."""

    def __init__(
        self,
        inp: Inputs,
        geo: Geometry,
        pcc: Pcc,
        m: Matching,
        hits: Hits,
        rings: Callable[[], CutRings],
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
        self.n_gt_care = np.bincount(inp.g_owner[~inp.g_dc], minlength=n).tolist()
        self.n_det_care = np.bincount(inp.d_owner[~geo.d_dc], minlength=n).tolist()
        self.care = ~inp.g_dc[geo.pi] & ~geo.d_dc[geo.pj]
        self.g_matched, self.g_credit, self.d_matched, self.d_credit = (
            g_matched,
            g_credit,
            d_matched,
            d_credit,
        )

    # ---- instances (global lists, file order)
    def _gt_results(self, matched: BoolArray, credit: FloatArray) -> list[InstanceResult]:
        inp, geo, m = self.inp, self.geo, self.m
        rows = self.care & ~matched[geo.pi]  # near misses of unmatched care GTs
        d_local = inp.d_file[geo.pj[rows]]
        near = _near(*_best(geo.pi[rows], d_local, geo.recall[rows], inp.n_gt), "area_recall")
        partners = grouped(m.mi, inp.d_file[m.mj], inp.n_gt)
        credits = credit.tolist()
        return [
            InstanceResult(i, _DONT_CARE, 0.0, (), None, None, {"found": 0, "length": 0})
            if dc
            else InstanceResult(i, v, c, p, None, None, {"found": f, "length": n})
            if hit
            else InstanceResult(i, _MISSED, 0.0, (), nm, None, {"found": 0, "length": n})
            for i, dc, hit, v, c, p, f, n, nm in zip(
                self.g_local.tolist(),
                inp.g_dc.tolist(),
                matched.tolist(),
                _verdicts(credits),
                credits,
                partners,
                self.hits.found.tolist(),
                inp.g_len.tolist(),
                near,
                strict=True,
            )
        ]

    def _det_results(self, matched: BoolArray, credit: FloatArray) -> list[InstanceResult]:
        inp, geo, m = self.inp, self.geo, self.m
        rows = self.care & ~matched[geo.pj]  # near misses of unmatched care dets
        g_local = self.g_local[geo.pi[rows]]
        near = _near(
            *_best(geo.pj[rows], g_local, geo.precision[rows], inp.n_det), "area_precision"
        )
        partners = grouped(m.mj, self.g_local[m.mi], inp.n_det)
        absorbed = np.where(geo.d_absorbed >= 0, geo.d_absorbed - inp.g_off[inp.d_owner], -1)
        absorbed_by = [a if a >= 0 else None for a in absorbed.tolist()]
        credits = credit.tolist()
        out = [
            InstanceResult(f, _DONT_CARE, 0.0, (), None, a, _dc_values(dv))
            if dc
            else InstanceResult(f, v, c, p, None, None, {"contained": hc, "total": ht})
            if hit
            else InstanceResult(f, _FALSE_POSITIVE, 0.0, (), nm, None, {"contained": 0, "total": 0})
            for f, dc, hit, v, c, p, a, dv, hc, ht, nm in zip(
                inp.d_file.tolist(),
                geo.d_dc.tolist(),
                matched.tolist(),
                _verdicts(credits),
                credits,
                partners,
                absorbed_by,
                geo.d_dc_value.tolist(),
                self.hits.contained.tolist(),
                self.hits.total.tolist(),
                near,
                strict=True,
            )
        ]
        if not inp.sorted_by_conf.any():
            return out
        position = inp.d_off[inp.d_owner] + inp.d_file  # global file-order position
        return [out[k] for k in np.argsort(position).tolist()]

    # ---- samples
    def results(self, metric: str, limits: tuple[Limit, Limit], mode: Mode) -> list[SampleResult]:
        """One result per sample; ``limits``: the area recall and precision a one-to-one
        pair needs (the params'), which the pair table names. ``mode``: without
        ``instances`` no GT list and no match records, without ``evidence`` no detection
        list and no evidence either (the result is then ``complete=False``)."""
        inp, lists = self.inp, mode.instances
        numbers = [
            (*per_image_rule(n_gt, n_det, rc, pc), credit_tally(n_gt, n_det, rc, pc), n_gt, n_det)
            for n_gt, n_det, rc, pc in zip(
                self.n_gt_care, self.n_det_care, self.recall_sum, self.precision_sum, strict=True
            )
        ]
        if not mode.evidence:
            return [
                SampleResult(
                    metric, sample.id, r, p, h, tally, (), (), extra=_care(g, d), complete=False
                )
                for sample, (r, p, h, tally, g, d) in zip(inp.samples, numbers, strict=True)
            ]
        ev = _Evidence(
            self.inp, self.geo, self.pcc, self.hits, self.rings(), self.m.multiline, limits
        )
        gt = self._gt_results(self.g_matched, self.g_credit) if lists else []
        det = self._det_results(self.d_matched, self.d_credit)
        oo = self._oo_records() if lists else []
        g_off, d_off = inp.g_off.tolist(), inp.d_off.tolist()
        out = []
        for s, (recall, precision, h, tally, n_gt, n_det) in enumerate(numbers):
            g0, g1, d0, d1 = g_off[s], g_off[s + 1], d_off[s], d_off[s + 1]
            out.append(
                SampleResult(
                    metric,
                    inp.samples[s].id,
                    recall,
                    precision,
                    h,
                    tally,
                    tuple(gt[g0:g1]),
                    tuple(det[d0:d1]),
                    (*self.m.mo[s], *oo[s], *self.m.om[s]) if lists else (),
                    ev.sample(s, g0, g1),
                    (),
                    _care(n_gt, n_det),
                    lists,
                )
            )
        return out

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

    def __init__(
        self,
        inp: Inputs,
        geo: Geometry,
        pcc: Pcc,
        hits: Hits,
        rings: CutRings,
        multiline: list[list[MultilineTest]],
        limits: tuple[Limit, Limit],
    ) -> None:
        self.multiline, self.limits = multiline, limits
        lo, hi = pcc.off[:-1].tolist(), pcc.off[1:].tolist()
        counts = hits.counts
        counts.flags.writeable = False
        hit_by = grouped(hits.pcc, inp.d_file[hits.det], len(pcc.gt))
        no_xy, no_hits = pcc.xy[:0], counts[:0]  # shared by GTs without PCC (read-only)
        spans = list(zip(lo, hi, strict=True))
        self.pcc = [pcc.xy[a:b] if a != b else no_xy for a, b in spans]
        self.hits = [counts[a:b] if a != b else no_hits for a, b in spans]
        self.hit_by = [tuple(hit_by[a:b]) if a != b else () for a, b in spans]
        self.vertical = pcc.vertical.tolist()
        ruled = np.flatnonzero(geo.d_rule)
        self.rule = _per_sample(inp, ruled, [_RULE_NAMES[r] for r in geo.d_rule[ruled].tolist()])
        cut = np.flatnonzero(geo.d_cut)
        self.cut = _per_sample(inp, cut, _rings_by_det(rings, cut))
        self._pair_tables(inp, geo)

    def _pair_tables(self, inp: Inputs, geo: Geometry) -> None:
        """The overlapping pairs' (local GT, file det) cells sorted per sample, and their
        area recall / precision (the values the matching compared)."""
        keep = np.flatnonzero(geo.inter > 0)
        owner = inp.g_owner[geo.pi[keep]]
        gt = geo.pi[keep] - inp.g_off[owner]
        det = inp.d_file[geo.pj[keep]]
        order = np.lexsort((det, gt, owner))
        self.pair_gt, self.pair_det = gt[order], det[order]
        self.pair_r, self.pair_p = geo.recall[keep][order], geo.precision[keep][order]
        self.pair_bounds = np.searchsorted(owner[order], np.arange(len(inp.samples) + 1))
        self.n_det = np.diff(inp.d_off)

    def sample(self, s: int, g0: int, g1: int) -> TedEvalEvidence:
        return TedEvalEvidence(
            pcc=PccEvidence(
                points=tuple(self.pcc[g0:g1]),
                vertical=tuple(self.vertical[g0:g1]),
                hits=tuple(self.hits[g0:g1]),
                hit_by=tuple(self.hit_by[g0:g1]),
            ),
            multiline=tuple(self.multiline[s]),
            dc_det_rule=self.rule[s],
            det_polygons_after_dc=self.cut[s],
            area_recall=self._pairs(s, g1 - g0, self.pair_r),
            area_precision=self._pairs(s, g1 - g0, self.pair_p),
            limits=self.limits,
        )

    def _pairs(self, s: int, n_gt: int, values: FloatArray) -> SparsePairs:
        a, b = int(self.pair_bounds[s]), int(self.pair_bounds[s + 1])
        shape = (n_gt, int(self.n_det[s]))
        return SparsePairs.of(shape, self.pair_gt[a:b], self.pair_det[a:b], values[a:b])


def _rings_by_det(rings: CutRings, dets: IntArray) -> list[tuple[FloatArray, ...]]:
    """The rings of each det of ``dets`` (none when its cut left nothing)."""
    by_det: dict[int, list[FloatArray]] = {}
    for j, a, n in zip(
        rings.owner.tolist(), rings.start.tolist(), rings.length.tolist(), strict=True
    ):
        by_det.setdefault(j, []).append(rings.xy[a : a + n])
    return [tuple(by_det.get(j, ())) for j in dets.tolist()]


def _per_sample(inp: Inputs, dets: IntArray, values: list[Any]) -> list[dict[int, Any]]:
    """Per sample: {file index: value} of the dets ``dets`` (ascending, i.e. eval order)."""
    out: list[dict[int, Any]] = [{} for _ in inp.samples]
    for s, f, v in zip(inp.d_owner[dets].tolist(), inp.d_file[dets].tolist(), values, strict=True):
        out[s][f] = v
    return out
