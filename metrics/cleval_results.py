"""CLEval result model (spec 5.11, 6.2): per-sample InstanceResults, MatchRecords and
evidence built from the flat arrays of a batch (``metrics.cleval_core`` / ``cleval_match``).

Detection indices are file indices; GT indices are file indices within the sample.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import numpy as np

from metrics.cleval_core import Batch, local_index
from metrics.cleval_match import E2E, Outcome, first_per
from metrics.results import InstanceResult, MatchKind, MatchRecord, NearMiss, Verdict

_KIND = {"OO": MatchKind.ONE_TO_ONE, "OM": MatchKind.SPLIT, "MO": MatchKind.MERGE}


class View:
    """Per-sample result objects from the flat arrays (lists for fast element access)."""

    def __init__(self, b: Batch, out: Outcome, e2: E2E | None) -> None:
        self.b, self.out, self.e2 = b, out, e2
        self.g_len, self.g_dc = b.g_len.tolist(), b.g_dc.tolist()
        self.found, self.n_dets, self.gran_r = (
            out.found.tolist(),
            out.n_dets.tolist(),
            out.gran_r_i.tolist(),
        )
        self.d_file, self.d_dc = b.d_file.tolist(), out.dc.det.tolist()
        self.credited, self.total, self.n_gts = (
            out.credited.tolist(),
            out.total.tolist(),
            out.n_gts.tolist(),
        )
        self.gran_p, self.fp_j = out.gran_p_j.tolist(), out.fp_j.tolist()
        ab = out.dc.absorbed
        safe = np.where(ab >= 0, ab, 0)
        self.absorbed = np.where(
            ab >= 0, ab - b.g_off[b.g_owner[safe]] if len(b.g_owner) else ab, -1
        ).tolist()
        self.rule = out.dc.rule.tolist()
        self.g_local = local_index(b.g_off, b.g_owner)
        mp = np.flatnonzero(out.matched)
        self.m_pi, self.m_pj = b.pi[mp], b.pj[mp]
        gl = self.g_local
        self.gt_partners = _grouped(self.m_pi, b.d_file[self.m_pj], len(b.g_owner), sort=True)
        by_det = np.lexsort((self.m_pi, self.m_pj))
        self.det_partners = _grouped(self.m_pj[by_det], gl[self.m_pi[by_det]], len(b.d_owner))
        self.pair = {
            (g, d): k
            for k, (g, d) in enumerate(zip(self.m_pi.tolist(), self.m_pj.tolist(), strict=True))
        }
        self.m_cnt, self.m_ap = b.cnt[mp].tolist(), b.ap[mp].tolist()
        self.near_g, self.near_d = self._near()
        self.hits = np.bincount(out.kp, minlength=len(b.pcc)).astype(np.intp)
        self.hits.setflags(write=False)
        self.hit_by = self._hit_by()
        if e2 is not None:
            self.lcs = e2.lcs.tolist()
            self.t_len = [len(t) for t in b.d_text]

    def _near(self) -> tuple[list[NearMiss | None], list[NearMiss | None]]:
        """Best area precision of every unmatched GT (among care dets) and det (care GTs)."""
        b, out = self.b, self.out
        sel = np.flatnonzero(~out.dc.det[b.pj] & (b.ap > 0))
        g_best = first_per(b.pi[sel], (b.pj[sel], -b.ap[sel]), sel, len(b.g_owner))
        sel = np.flatnonzero(~b.g_dc[b.pi] & (b.ap > 0))
        d_best = first_per(b.pj[sel], (b.pi[sel], -b.ap[sel]), sel, len(b.d_owner))
        pi, pj, ap = b.pi.tolist(), b.pj.tolist(), b.ap.tolist()
        gl = self.g_local.tolist()
        near_g = [
            None if k < 0 else NearMiss(self.d_file[pj[k]], ap[k], "area_precision")
            for k in g_best.tolist()
        ]
        near_d = [
            None if k < 0 else NearMiss(gl[pi[k]], ap[k], "area_precision") for k in d_best.tolist()
        ]
        return near_g, near_d

    def _hit_by(self) -> list[tuple[int, ...]]:
        return _grouped(self.out.kp, self.b.d_file[self.out.kd], len(self.b.pcc))

    def gt_results(self, s: int) -> tuple[InstanceResult, ...]:
        b = self.b
        g0, g1 = int(b.g_off[s]), int(b.g_off[s + 1])
        res = []
        for g in range(g0, g1):
            length = self.g_len[g]
            values = {"found": 0.0, "length": float(length), "split": 0.0, "gran_r": 0.0}
            if self.e2 is not None:
                values["lcs"] = float(self.lcs[g])
            if self.g_dc[g]:
                res.append(InstanceResult(g - g0, Verdict.DONT_CARE, 0.0, values=values))
            elif self.n_dets[g] == 0:
                res.append(
                    InstanceResult(
                        g - g0, Verdict.MISSED, 0.0, near_miss=self.near_g[g], values=values
                    )
                )
            else:
                found = self.found[g]
                credit = found / length if length else 0.0
                values.update(
                    found=float(found), split=float(self.n_dets[g] > 1), gran_r=self.gran_r[g]
                )
                partners = self.gt_partners[g]
                verdict = Verdict.MATCHED if credit >= 1.0 else Verdict.PARTIAL
                res.append(
                    InstanceResult(g - g0, verdict, credit, partners=partners, values=values)
                )
        return tuple(res)

    def det_results(self, s: int) -> tuple[InstanceResult, ...]:
        b = self.b
        d0, d1 = int(b.d_off[s]), int(b.d_off[s + 1])
        res: list[InstanceResult | None] = [None] * (d1 - d0)
        for d in range(d0, d1):
            f = self.d_file[d]
            values = {
                "credited": float(self.credited[d]),
                "total": float(self.total[d]),
                "merge": 0.0,
                "gran_p": 0.0,
                "fp_chars": float(self.fp_j[d]),
            }
            if self.e2 is not None:
                values["consumed"] = float(len(self.e2.consumed[d]))
                values["text_length"] = float(self.t_len[d])
            if self.d_dc[d]:
                a = self.absorbed[d]
                res[f] = InstanceResult(
                    f, Verdict.DONT_CARE, 0.0, absorbed_by=a if a >= 0 else None, values=values
                )
            elif self.n_gts[d] == 0:
                res[f] = InstanceResult(
                    f, Verdict.FALSE_POSITIVE, 0.0, near_miss=self.near_d[d], values=values
                )
            else:
                total = self.total[d]
                credit = self.credited[d] / total if total else 0.0
                values.update(merge=float(self.n_gts[d] > 1), gran_p=self.gran_p[d])
                verdict = Verdict.MATCHED if credit >= 1.0 else Verdict.PARTIAL
                res[f] = InstanceResult(
                    f, verdict, credit, partners=self.det_partners[d], values=values
                )
        return tuple(r for r in res if r is not None)

    def records(self, s: int) -> tuple[MatchRecord, ...]:
        b = self.b
        g0 = int(b.g_off[s])
        res = []
        for label, gts, dets in self.out.records[s]:
            ks = [self.pair[(g0 + g, d)] for g in gts for d in dets]
            aps = [self.m_ap[k] for k in ks]
            values = {
                "pcc": float(sum(self.m_cnt[k] for k in ks)),
                "area_precision_sum": float(sum(aps)),
                "area_precision_min": float(min(aps)),
            }
            res.append(
                MatchRecord(
                    _KIND[label],
                    gts,
                    tuple(self.d_file[d] for d in dets),
                    values=values,
                    label=label,
                )
            )
        return tuple(res)

    def evidence(self, s: int, counters: dict[str, float]) -> dict[str, Any]:
        b = self.b
        g0, g1 = int(b.g_off[s]), int(b.g_off[s + 1])
        offs = b.p_off[g0 : g1 + 1].tolist()
        spans = list(pairwise(offs))
        d0, d1 = int(b.d_off[s]), int(b.d_off[s + 1])
        ev: dict[str, Any] = {
            "pcc": tuple(b.pcc[a:z] for a, z in spans),
            "pcc_vertical": tuple(b.vertical[g0:g1].tolist()),
            "pcc_hits": tuple(self.hits[a:z] for a, z in spans),
            "pcc_hit_by": tuple(tuple(self.hit_by[a:z]) for a, z in spans),
            "dc_det_rule": {
                self.d_file[d]: _RULES[self.rule[d]] for d in range(d0, d1) if self.rule[d]
            },
            "counters": {k: int(v) for k, v in counters.items()},
        }
        if self.e2 is not None:
            e2 = self.e2
            ev["e2e"] = tuple(
                {**st, "dets": tuple(self.d_file[d] for d in st["dets"])}  # type: ignore[attr-defined]
                for st in e2.steps[s]
            )
            valid = [d for d in range(d0, d1) if not self.d_dc[d]]
            ev["consumed"] = {self.d_file[d]: e2.consumed[d] for d in valid}
            ev["remaining"] = {self.d_file[d]: e2.remaining[d] for d in valid}
        return ev


_RULES = {1: "single", 2: "sum"}


def _grouped(key: Any, member: Any, n: int, sort: bool = False) -> list[tuple[int, ...]]:
    """For k in range(n): tuple of the members whose key is k (``key`` sorted)."""
    out: list[tuple[int, ...]] = [()] * n
    if len(key) == 0:
        return out
    member = np.asarray(member)
    if sort:
        o = np.lexsort((member, key))
        key, member = key[o], member[o]
    starts = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
    items = member.tolist()
    bounds = np.r_[starts, len(key)].tolist()
    groups = [tuple(items[a:z]) for a, z in pairwise(bounds)]
    for k, g in zip(key[starts].tolist(), groups, strict=True):
        out[k] = g
    return out
