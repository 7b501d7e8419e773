"""CLEval result model (spec 5.11, 6.2): per-sample InstanceResults, MatchRecords and
evidence built from the flat arrays of a batch (``metrics.cleval.core`` / ``cleval_match``).

Everything is built for the whole batch at once (Python lists, one comprehension per kind)
and sliced per sample. Detection indices are file indices; GT indices are file indices
within the sample.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from metrics.cleval.core import Batch, local_index
from metrics.cleval.e2e import E2E
from metrics.cleval.evidence import ClevalEvidence
from metrics.cleval.geometry import BoolArray, IntArray
from metrics.cleval.match import Outcome, first_per
from metrics.core.arrays import grouped
from metrics.core.evidence import PccEvidence
from metrics.core.results import InstanceResult, MatchKind, MatchRecord, NearMiss, Verdict

_KIND = {"OO": MatchKind.ONE_TO_ONE, "OM": MatchKind.SPLIT, "MO": MatchKind.MERGE}
_RULES = {1: "single", 2: "sum"}
_MATCHED, _PARTIAL, _MISSED = Verdict.MATCHED, Verdict.PARTIAL, Verdict.MISSED
_FALSE_POSITIVE, _DONT_CARE = Verdict.FALSE_POSITIVE, Verdict.DONT_CARE


def _verdicts(credit: list[float]) -> list[Verdict]:
    return [_MATCHED if c >= 1.0 else _PARTIAL for c in credit]


def _floats(values: Any) -> list[float]:
    out: list[float] = np.asarray(values, dtype=np.float64).tolist()
    return out


class View:
    """Per-sample result objects, built for the whole batch from the flat arrays."""

    def __init__(self, b: Batch, out: Outcome, e2: E2E | None, lists: bool = True) -> None:
        """``lists`` False (``metrics.shapes.mode.Detail.SUMMARY``): no GT results, no records."""
        self.b, self.out, self.e2 = b, out, e2
        self.g_off, self.d_off = b.g_off.tolist(), b.d_off.tolist()
        self.d_file = b.d_file.tolist()
        self.dc_det: list[bool] = out.dc.det.tolist()
        self.g_local = local_index(b.g_off, b.g_owner)
        mp = np.flatnonzero(out.matched)
        m_pi, m_pj = b.pi[mp], b.pj[mp]
        self.near_d = self._near_det()
        by_det = np.lexsort((m_pi, m_pj))
        det_partners = grouped(m_pj[by_det], self.g_local[m_pi[by_det]], len(b.d_owner))
        self.gt: list[InstanceResult] = []
        self.recs: list[tuple[MatchRecord, ...]] = [() for _ in b.samples]
        if lists:
            self.near_g = self._near_gt()
            self.gt = self._gt_results(grouped(m_pi, b.d_file[m_pj], len(b.g_owner)))
            self.recs = self._records()
        self.det = self._det_results(det_partners)
        self.hits = np.bincount(out.kp, minlength=len(b.pcc)).astype(np.intp)
        self.hits.setflags(write=False)
        self.ev = _EvidenceTables(b, out, self.hits)

    def _near_gt(self) -> list[NearMiss | None]:
        """Best area precision of every unmatched GT (among care dets)."""
        b, out = self.b, self.out
        sel = np.flatnonzero(~out.dc.det[b.pj] & (b.ap > 0) & (out.n_dets[b.pi] == 0))
        best = first_per(b.pi[sel], (b.pj[sel], -b.ap[sel]), sel, len(b.g_owner))
        pj, ap, f = b.pj.tolist(), b.ap.tolist(), self.d_file
        return [
            None if k < 0 else NearMiss(f[pj[k]], ap[k], "area_precision") for k in best.tolist()
        ]

    def _near_det(self) -> list[NearMiss | None]:
        """Best area precision of every unmatched det (among care GTs)."""
        b, out = self.b, self.out
        sel = np.flatnonzero(~b.g_dc[b.pi] & (b.ap > 0) & (out.n_gts[b.pj] == 0))
        best = first_per(b.pj[sel], (b.pi[sel], -b.ap[sel]), sel, len(b.d_owner))
        pi, ap, gl = b.pi.tolist(), b.ap.tolist(), self.g_local.tolist()
        return [
            None if k < 0 else NearMiss(gl[pi[k]], ap[k], "area_precision") for k in best.tolist()
        ]

    def _gt_results(self, partners: list[tuple[int, ...]]) -> list[InstanceResult]:
        b, out = self.b, self.out
        dc = b.g_dc
        hit = ~dc & (out.n_dets > 0)
        found = np.where(hit, out.found, 0)
        credit = np.where(hit & (b.g_len > 0), found / np.maximum(b.g_len, 1), 0.0).tolist()
        cols = [
            _floats(found),
            _floats(b.g_len),
            _floats(hit & (out.n_dets > 1)),
            np.where(hit, out.gran_r_i, 0.0).tolist(),
        ]
        if self.e2 is None:
            values = [
                {"found": f, "length": n, "split": s, "gran_r": g}
                for f, n, s, g in zip(*cols, strict=True)
            ]
        else:
            values = [
                {"found": f, "length": n, "split": s, "gran_r": g, "lcs": c}
                for f, n, s, g, c in zip(*cols, _floats(self.e2.lcs), strict=True)
            ]
        return [
            InstanceResult(i, _DONT_CARE, 0.0, (), None, None, v)
            if d
            else InstanceResult(i, ver, c, p, None, None, v)
            if h
            else InstanceResult(i, _MISSED, 0.0, (), nm, None, v)
            for i, d, h, ver, c, p, nm, v in zip(
                self.g_local.tolist(),
                dc.tolist(),
                hit.tolist(),
                _verdicts(credit),
                credit,
                partners,
                self.near_g,
                values,
                strict=True,
            )
        ]

    def _det_results(self, partners: list[tuple[int, ...]]) -> list[InstanceResult]:
        b, out = self.b, self.out
        dc = out.dc.det
        hit = ~dc & (out.n_gts > 0)
        credit = np.where(hit & (out.total > 0), out.credited / np.maximum(out.total, 1), 0.0)
        ab = out.dc.absorbed
        owner = b.g_owner[np.maximum(ab, 0)] if len(b.g_owner) else np.zeros(len(ab), np.intp)
        absorbed = np.where(ab >= 0, ab - b.g_off[owner], -1).tolist()
        values = self._det_values(hit)
        res = [
            InstanceResult(f, _DONT_CARE, 0.0, (), None, a if a >= 0 else None, v)
            if d
            else InstanceResult(f, ver, c, p, None, None, v)
            if h
            else InstanceResult(f, _FALSE_POSITIVE, 0.0, (), nm, None, v)
            for f, d, h, ver, c, p, nm, a, v in zip(
                self.d_file,
                dc.tolist(),
                hit.tolist(),
                _verdicts(credit.tolist()),
                credit.tolist(),
                partners,
                self.near_d,
                absorbed,
                values,
                strict=True,
            )
        ]
        position = b.d_off[b.d_owner] + b.d_file  # global file-order position
        if np.array_equal(position, np.arange(len(position))):
            return res
        return [res[k] for k in np.argsort(position).tolist()]

    def _det_values(self, hit: BoolArray) -> list[dict[str, float]]:
        out = self.out
        cols = [
            _floats(out.credited),
            _floats(out.total),
            _floats(hit & (out.n_gts > 1)),
            np.where(hit, out.gran_p_j, 0.0).tolist(),
            _floats(out.fp_j),
        ]
        if self.e2 is None:
            return [
                {"credited": c, "total": t, "merge": m, "gran_p": g, "fp_chars": f}
                for c, t, m, g, f in zip(*cols, strict=True)
            ]
        used = [float(len(c)) for c in self.e2.consumed]
        t_len = [float(len(t)) for t in self.b.d_text]
        return [
            {
                "credited": c,
                "total": t,
                "merge": m,
                "gran_p": g,
                "fp_chars": f,
                "consumed": u,
                "text_length": n,
            }
            for c, t, m, g, f, u, n in zip(*cols, used, t_len, strict=True)
        ]

    def _records(self) -> list[tuple[MatchRecord, ...]]:
        cnt, ap, f = self.b.cnt.tolist(), self.b.ap.tolist(), self.d_file
        out = []
        for recs in self.out.records:
            res = []
            for label, gts, dets, ks in recs:
                if len(ks) == 1:  # one pair (every OO): sum([a]) is 0 + a
                    a = ap[ks[0]]
                    values = {
                        "pcc": float(cnt[ks[0]]),
                        "area_precision_sum": 0 + a,
                        "area_precision_min": a,
                    }
                else:
                    aps = [ap[k] for k in ks]
                    values = {
                        "pcc": float(sum([cnt[k] for k in ks])),
                        "area_precision_sum": float(sum(aps)),
                        "area_precision_min": float(min(aps)),
                    }
                det_files = tuple([f[d] for d in dets])
                res.append(MatchRecord(_KIND[label], gts, det_files, values, label))
            out.append(tuple(res))
        return out

    # ---- per sample
    def gt_results(self, s: int) -> tuple[InstanceResult, ...]:
        return tuple(self.gt[self.g_off[s] : self.g_off[s + 1]])

    def det_results(self, s: int) -> tuple[InstanceResult, ...]:
        return tuple(self.det[self.d_off[s] : self.d_off[s + 1]])

    def records(self, s: int) -> tuple[MatchRecord, ...]:
        return self.recs[s]

    def evidence(self, s: int, counters: dict[str, float]) -> ClevalEvidence:
        g0, g1 = self.g_off[s], self.g_off[s + 1]
        t = self.ev
        pcc = PccEvidence(
            points=tuple(t.pcc[g0:g1]),
            vertical=tuple(t.vertical[g0:g1]),
            hits=tuple(t.hits[g0:g1]),
            hit_by=tuple(t.hit_by[g0:g1]),
        )
        rule, count = t.rules[s], {k: int(v) for k, v in counters.items()}
        if self.e2 is None:
            return ClevalEvidence(pcc, rule, count)
        f, dc, e2 = self.d_file, self.dc_det, self.e2
        valid = [d for d in range(self.d_off[s], self.d_off[s + 1]) if not dc[d]]
        return ClevalEvidence(
            pcc,
            rule,
            count,
            e2e=tuple(e2.steps[s]),
            consumed={f[d]: e2.consumed[d] for d in valid},
            remaining={f[d]: e2.remaining[d] for d in valid},
        )


class _EvidenceTables:
    """Per-GT evidence items of the batch (views of the flat PCC arrays) and per-sample
    don't-care rules, built once."""

    def __init__(self, b: Batch, out: Outcome, hits: IntArray) -> None:
        spans = list(zip(b.p_off[:-1].tolist(), b.p_off[1:].tolist(), strict=True))
        hit_by = grouped(out.kp, b.d_file[out.kd], len(b.pcc))
        no_xy, no_hits = b.pcc[:0], hits[:0]  # shared by GTs without PCC (read-only)
        self.pcc = [b.pcc[a:z] if a != z else no_xy for a, z in spans]
        self.hits = [hits[a:z] if a != z else no_hits for a, z in spans]
        self.hit_by = [tuple(hit_by[a:z]) for a, z in spans]
        self.vertical = b.vertical.tolist()
        self.rules: list[dict[int, str]] = [{} for _ in b.samples]
        ruled = np.flatnonzero(out.dc.rule)
        for s, f, r in zip(
            b.d_owner[ruled].tolist(),
            b.d_file[ruled].tolist(),
            out.dc.rule[ruled].tolist(),
            strict=True,
        ):
            self.rules[s][f] = _RULES[r]
