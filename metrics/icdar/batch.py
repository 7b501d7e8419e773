"""ic15_iou / siou / tiou / curved_* over many samples at once (vectorized across samples).

Same algorithm as spec 1.2 and 3.2, applied to flat arrays of every candidate (GT, det) pair
of a block of samples: don't-care detections, IoU and the TIoU terms are computed for all
pairs in single array operations; only the greedy matching walks (in Python) the few pairs
above the IoU threshold. ``evaluate_sample`` of each metric module is this on one sample.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

import metrics.cache as cache
from metrics import robust
from metrics.evidence import Region
from metrics.geometry import FlatGeometry, regions_of
from metrics.icdar.common import (
    outlier_regions,
    pair_value_arrays,
)
from metrics.icdar.params import TiouOptions
from metrics.matching import best_partner, dont_care_dets, greedy_pairs, pair_iou
from metrics.model import FloatArray, Sample
from metrics.order import confidence_order
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

Score = Literal["iou", "siou", "tiou"]
IntArray = npt.NDArray[np.intp]
BoolArray = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class Pairs:
    """Candidate pairs with the per-pair numbers the matching needs."""

    pi: IntArray
    pj: IntArray
    inter: FloatArray
    iou: FloatArray


def ranks(samples: Sequence[Sample], f: FlatGeometry, confidences: bool | None) -> IntArray:
    """Evaluation position of every det within its sample (confidence order, spec 0.7)."""
    rank = np.arange(len(f.d_owner), dtype=np.intp) - f.d_off[f.d_owner]
    for s, sample in enumerate(samples):
        order = confidence_order(sample.det, confidences)
        if order != list(range(len(order))):
            rank[f.d_off[s] + np.asarray(order, dtype=np.intp)] = np.arange(len(order))
    return rank


def _outliers(p: Pairs, m: IntArray, g_dc: BoolArray, dc_as_outlier: bool) -> list[list[int]]:
    """Other GTs (global indices) that overlap each matched det (spec 3.2), vectorized."""
    nz = np.flatnonzero(p.inter != 0)
    nz = nz[np.argsort(p.pj[nz], kind="stable")]
    det_sorted = p.pj[nz]
    lo = np.searchsorted(det_sorted, p.pj[m], side="left")
    hi = np.searchsorted(det_sorted, p.pj[m], side="right")
    n = hi - lo
    owner = np.repeat(np.arange(len(m)), n)
    pos = np.arange(int(n.sum())) - np.repeat(np.cumsum(n) - n, n) + np.repeat(lo, n)
    ks = p.pi[nz[pos]]
    keep = (ks != p.pi[m][owner]) & (dc_as_outlier | ~g_dc[ks])
    owner, ks = owner[keep], ks[keep]
    order = np.lexsort((ks, owner))
    owner, ks = owner[order], ks[order]
    vals = ks.tolist()
    at = np.searchsorted(owner, np.arange(len(m) + 1)).tolist()
    return [vals[at[k] : at[k + 1]] for k in range(len(m))]


@dataclass(frozen=True)
class _Matches:
    gi: IntArray  # global GT index of each match
    dj: IntArray  # global det index
    values: dict[str, FloatArray]
    rc: FloatArray
    pc: FloatArray
    cut: list[Region]
    outlier: list[Region]
    others: list[list[int]]


def match_numbers(
    f: FlatGeometry, p: Pairs, m: IntArray, g_dc: BoolArray, score: Score, opts: TiouOptions
) -> _Matches:
    gi, dj = p.pi[m], p.pj[m]
    tiou = score == "tiou"
    others = _outliers(p, m, g_dc, opts.dc_as_outlier) if tiou else [[] for _ in m]
    ot, regions = outlier_regions(f.d_geoms[dj], f.g_geoms[gi], f.g_geoms, others, opts.ot_zero_eps)
    values = pair_value_arrays(p.inter[m], f.g_area[gi], f.d_area[dj], ot, opts)
    if score == "iou":
        rc = pc = np.ones(len(m))
    elif score == "siou":
        rc = pc = values["iou"]
    else:
        rc, pc = values["tiou_recall"], values["tiou_precision"]
    if tiou:
        cut = regions_of(robust.difference(f.g_geoms[gi], f.d_geoms[dj]))
        outlier = regions_of(regions)
    else:
        cut = outlier = []
    return _Matches(gi, dj, values, rc, pc, cut, outlier, others)


def evaluate_batch(
    samples: Sequence[Sample],
    params: Any,
    *,
    metric: str,
    score: Score,
    curved: bool,
    opts: TiouOptions,
) -> list[SampleResult]:
    """Evaluate a block of samples; results in the order of ``samples``."""
    if not samples:
        return []
    f = cache.active().flat(samples, "curved" if curved else "icdar")
    g_dc = np.fromiter(
        (g.dont_care for s in samples for g in s.gt), dtype=bool, count=len(f.g_area)
    )
    det_dc, absorbed = dont_care_dets(f.pi, f.pj, f.inter, f.d_area, g_dc, params.dc_area_precision)
    iou = pair_iou(f.inter, f.g_area[f.pi], f.d_area[f.pj])
    p = Pairs(f.pi, f.pj, f.inter, iou)
    rank = ranks(samples, f, params.confidences)
    m = greedy_pairs(p.pi, p.pj, p.iou, rank, ~g_dc, ~det_dc, params.iou_threshold)
    mt = match_numbers(f, p, m, g_dc, score, opts)
    near_g = best_partner(p.pi, p.pj, np.where(det_dc[p.pj], -1.0, iou), len(f.g_area))
    near_d = best_partner(p.pj, p.pi, np.where(g_dc[p.pi], -1.0, iou), len(f.d_area))
    ctx = _Context(f, g_dc, det_dc, absorbed, mt, near_g, near_d, metric)
    return [ctx.sample_result(s, sample) for s, sample in enumerate(samples)]


@dataclass(frozen=True)
class _Context:
    """One block's arrays; builds the per-sample results.

    Verdicts: a matched instance is PARTIAL under TIoU when its side was penalized (the GT
    lost a cut beyond the tolerance, the detection covers outlier GTs); SIoU/IoU matches are
    MATCHED, their credit says how good they are.
    """

    f: FlatGeometry
    g_dc: BoolArray
    det_dc: BoolArray
    absorbed: IntArray
    mt: _Matches
    near_g: tuple[IntArray, FloatArray]
    near_d: tuple[IntArray, FloatArray]
    metric: str

    def sample_result(self, s: int, sample: Sample) -> SampleResult:
        f, mt = self.f, self.mt
        g0, g1, d0, d1 = f.g_off[s], f.g_off[s + 1], f.d_off[s], f.d_off[s + 1]
        lo, hi = np.searchsorted(mt.gi, [g0, g1])
        ms = range(lo, hi)
        n_gt = int(g1 - g0 - np.count_nonzero(self.g_dc[g0:g1]))
        n_det = int(d1 - d0 - np.count_nonzero(self.det_dc[d0:d1]))
        rc, pc = float(np.sum(mt.rc[lo:hi])), float(np.sum(mt.pc[lo:hi]))
        recall, precision, h = per_image_rule(n_gt, n_det, rc, pc)
        tiou = self.metric.endswith("tiou")
        cut = mt.values["f_ct"] < 1.0
        out = mt.values["f_ot"] < 1.0
        g_credit = {int(mt.gi[k] - g0): (float(mt.rc[k]), tiou and bool(cut[k])) for k in ms}
        d_credit = {int(mt.dj[k] - d0): (float(mt.pc[k]), tiou and bool(out[k])) for k in ms}
        g_partner = {int(mt.gi[k] - g0): int(mt.dj[k] - d0) for k in ms}
        d_partner = {v: k for k, v in g_partner.items()}
        return SampleResult(
            metric=self.metric,
            sample_id=sample.id,
            recall=recall,
            precision=precision,
            hmean=h,
            tally=credit_tally(n_gt, n_det, rc, pc, n_matched=len(ms)),
            gt=self._instances(
                (g0, g1), d0, g_credit, g_partner, self.g_dc, None, self.near_g, Verdict.MISSED
            ),
            det=self._instances(
                (d0, d1),
                g0,
                d_credit,
                d_partner,
                self.det_dc,
                self.absorbed,
                self.near_d,
                Verdict.FALSE_POSITIVE,
            ),
            matches=tuple(self._record(k, g0, d0) for k in ms),
            extra={"num_gt_care": n_gt, "num_det_care": n_det, "num_matched": len(ms)},
        )

    def _record(self, k: int, g0: int, d0: int) -> MatchRecord:
        mt = self.mt
        v = {name: float(a[k]) for name, a in mt.values.items()}
        others = [o - g0 for o in mt.others[k]]
        tiou = self.metric.endswith("tiou")
        return MatchRecord(
            kind=MatchKind.ONE_TO_ONE,
            gt=(int(mt.gi[k] - g0),),
            det=(int(mt.dj[k] - d0),),
            values=v,
            label="OO",
            regions={"cut": mt.cut[k], "outlier": mt.outlier[k]} if tiou else {},
            related={
                "outlier_gts": tuple(others),
                "outlier_dont_care": tuple(o for o in others if self.g_dc[o + g0]),
            },
        )

    @staticmethod
    def _instances(
        span: tuple[int, int],
        other_off: int,
        credit: dict[int, tuple[float, bool]],
        partner: dict[int, int],
        dc: BoolArray,
        absorbed: IntArray | None,
        near: tuple[IntArray, FloatArray],
        miss: Verdict,
    ) -> tuple[InstanceResult, ...]:
        a, b = span
        out = []
        for k in range(b - a):
            g = a + k
            if dc[g]:
                by = None if absorbed is None or absorbed[g] < 0 else int(absorbed[g]) - other_off
                out.append(InstanceResult(k, Verdict.DONT_CARE, absorbed_by=by))
            elif k in partner:
                c, partial = credit[k]
                v = Verdict.PARTIAL if partial else Verdict.MATCHED
                out.append(InstanceResult(k, v, c, partners=(partner[k],)))
            else:
                nm = None
                if near[1][g] > 0:
                    nm = NearMiss(int(near[0][g]) - other_off, float(near[1][g]), "iou")
                out.append(InstanceResult(k, miss, 0.0, near_miss=nm))
        return tuple(out)
