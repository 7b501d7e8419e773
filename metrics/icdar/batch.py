"""ic15_iou / siou / tiou / curved_* over many samples at once (vectorized across samples).

Same algorithm as spec 1.2 and 3.2, applied to flat arrays of every candidate (GT, det) pair
of a block of samples: don't-care detections, IoU and the TIoU terms are computed for all
pairs in single array operations; only the greedy matching walks (in Python) the few pairs
above the IoU threshold. ``evaluate_sample`` of each metric module is this on one sample.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import numpy as np
import numpy.typing as npt

from metrics.core.arrays import segment_sums
from metrics.core.evidence import Region
from metrics.core.model import FloatArray, Sample
from metrics.core.records import dataclass
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
from metrics.icdar.common import (
    outlier_regions,
    pair_value_arrays,
)
from metrics.icdar.params import GreedyParams, TiouOptions
from metrics.shapes import robust
from metrics.shapes.geometry import FlatGeometry, regions_of
from metrics.shapes.matching import best_partner, dont_care_dets, greedy_pairs, pair_iou
from metrics.shapes.mode import Mode
from metrics.shapes.order import confidence_order

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
    """The matched pairs of a batch (global indices), their values, credits and regions."""

    gi: IntArray  # global GT index of each match
    dj: IntArray  # global det index
    values: dict[str, FloatArray]
    rc: FloatArray
    pc: FloatArray
    cut: list[Region]
    outlier: list[Region]
    others: list[list[int]]


def match_numbers(
    f: FlatGeometry,
    p: Pairs,
    m: IntArray,
    g_dc: BoolArray,
    score: Score,
    opts: TiouOptions,
    regions: bool = True,
) -> _Matches:
    """The matched pairs' numbers; under TIoU also their cut and outlier regions, which
    only the match records carry (``regions`` False: not clipped, ``cut`` and ``outlier``
    left empty)."""
    gi, dj = p.pi[m], p.pj[m]
    tiou = score == "tiou"
    drawn = tiou and regions
    others: list[list[int]] = [[] for _ in m]
    ot, outside = np.zeros(len(m)), np.zeros(0, dtype=object)  # no outlier without TIoU
    if tiou:
        others = _outliers(p, m, g_dc, opts.dc_as_outlier)
        ot, outside = outlier_regions(
            f.d_geoms[dj], f.g_geoms[gi], f.g_geoms, others, opts.ot_zero_eps, drawn
        )
    values = pair_value_arrays(p.inter[m], f.g_area[gi], f.d_area[dj], ot, opts)
    if score == "iou":
        rc = pc = np.ones(len(m))
    elif score == "siou":
        rc = pc = values["iou"]
    else:
        rc, pc = values["tiou_recall"], values["tiou_precision"]
    if drawn:
        cut = regions_of(robust.difference(f.g_geoms[gi], f.d_geoms[dj]))
        outlier = regions_of(outside)
    else:
        cut = outlier = []
    return _Matches(gi, dj, values, rc, pc, cut, outlier, others)


@dataclass(frozen=True)
class DetStates:
    """Every detection of a block (block-wide indices, samples one after the other): which
    is don't-care and which is matched; ``off[s]`` is sample s's first."""

    off: IntArray
    dont_care: BoolArray
    matched: BoolArray

    def ranked(self, s: int, confidences: Sequence[float]) -> list[tuple[float, bool]]:
        """(confidence, matched) of sample s's care detections in file order, given the
        confidence of each of its detections (spec 1.3)."""
        a = int(self.off[s])
        care = np.flatnonzero(~self.dont_care[a : int(self.off[s + 1])]).tolist()
        hit = self.matched[a : int(self.off[s + 1])].tolist()
        return [(confidences[k], hit[k]) for k in care]


def evaluate_batch(
    samples: Sequence[Sample],
    params: GreedyParams,
    *,
    metric: str,
    score: Score,
    curved: bool,
    opts: TiouOptions,
    mode: Mode,
) -> list[SampleResult]:
    """Evaluate a block of samples in ``mode``; results in the order of ``samples``."""
    return evaluate_batch_states(
        samples, params, metric=metric, score=score, curved=curved, opts=opts, mode=mode
    )[0]


def evaluate_batch_states(
    samples: Sequence[Sample],
    params: GreedyParams,
    *,
    metric: str,
    score: Score,
    curved: bool,
    opts: TiouOptions,
    mode: Mode,
) -> tuple[list[SampleResult], DetStates]:
    """``evaluate_batch``, and the state of every detection (which a mode without
    detection lists, ``Detail.EXTRAS``, leaves out of the results)."""
    if not samples:
        empty = np.zeros(0, dtype=bool)
        return [], DetStates(np.zeros(1, dtype=np.intp), empty, empty)
    f = mode.cache.flat(samples, "curved" if curved else "icdar")
    g_dc = np.fromiter(
        (g.dont_care for s in samples for g in s.gt), dtype=bool, count=len(f.g_area)
    )
    det_dc, absorbed = dont_care_dets(f.pi, f.pj, f.inter, f.d_area, g_dc, params.dc_area_precision)
    iou = pair_iou(f.inter, f.g_area[f.pi], f.d_area[f.pj])
    p = Pairs(f.pi, f.pj, f.inter, iou)
    rank = ranks(samples, f, params.confidences)
    m = greedy_pairs(p.pi, p.pj, p.iou, rank, ~g_dc, ~det_dc, params.iou_threshold)
    mt = match_numbers(f, p, m, g_dc, score, opts, regions=mode.instances)
    matched = np.zeros(len(f.d_area), dtype=bool)
    matched[mt.dj] = True
    states = DetStates(f.d_off, det_dc, matched)
    if not mode.verdicts:  # no instance list is read: no verdicts, no near misses
        return scored_only(samples, f, g_dc, det_dc, mt, metric), states
    near_g = best_partner(p.pi, p.pj, np.where(det_dc[p.pj], -1.0, iou), len(f.g_area))
    near_d = best_partner(p.pj, p.pi, np.where(g_dc[p.pi], -1.0, iou), len(f.d_area))
    ctx = _Context(f, g_dc, det_dc, absorbed, mt, near_g, near_d, metric, mode.instances)
    return [ctx.sample_result(s, sample) for s, sample in enumerate(samples)], states


class _Context:
    """One block's arrays, as Python lists (read element by element); builds the per-sample
    results.

    Verdicts: a matched instance is PARTIAL under TIoU when its side was penalized (the GT
    lost a cut beyond the tolerance, the detection covers outlier GTs); SIoU/IoU matches are
    MATCHED, their credit says how good they are.
    """

    def __init__(
        self,
        f: FlatGeometry,
        g_dc: BoolArray,
        det_dc: BoolArray,
        absorbed: IntArray,
        mt: _Matches,
        near_g: tuple[IntArray, FloatArray],
        near_d: tuple[IntArray, FloatArray],
        metric: str,
        lists: bool,
    ) -> None:
        self.f, self.mt, self.metric = f, mt, metric
        self.rc_a, self.pc_a = mt.rc, mt.pc
        self.tiou = metric.endswith("tiou")
        self.g_dc, self.det_dc, self.absorbed = g_dc.tolist(), det_dc.tolist(), absorbed.tolist()
        self.near_g = (near_g[0].tolist(), near_g[1].tolist())
        self.near_d = (near_d[0].tolist(), near_d[1].tolist())
        self.gi, self.dj = mt.gi.tolist(), mt.dj.tolist()
        self.rc, self.pc = mt.rc.tolist(), mt.pc.tolist()
        self.cut = (mt.values["f_ct"] < 1.0).tolist()
        self.out = (mt.values["f_ot"] < 1.0).tolist()
        self.values = {name: a.tolist() for name, a in mt.values.items()}
        self.g_off, self.d_off = f.g_off.tolist(), f.d_off.tolist()
        n = len(f.g_off) - 1
        self.g_care = _care_counts(f.g_owner, g_dc, f.g_off, n)
        self.d_care = _care_counts(f.d_owner, det_dc, f.d_off, n)
        self.at = np.searchsorted(mt.gi, f.g_off).tolist()
        self.lists = lists  # False: GT list and match records not kept

    def sample_result(self, s: int, sample: Sample) -> SampleResult:
        g0, d0 = self.g_off[s], self.d_off[s]
        lo, hi = self.at[s], self.at[s + 1]
        ms = range(lo, hi)
        n_gt, n_det = self.g_care[s], self.d_care[s]
        rc, pc = float(np.sum(self.rc_a[lo:hi])), float(np.sum(self.pc_a[lo:hi]))
        recall, precision, h = per_image_rule(n_gt, n_det, rc, pc)
        tiou = self.tiou
        g_credit = {self.gi[k] - g0: (self.rc[k], tiou and self.cut[k]) for k in ms}
        d_credit = {self.dj[k] - d0: (self.pc[k], tiou and self.out[k]) for k in ms}
        g_partner = {self.gi[k] - g0: self.dj[k] - d0 for k in ms}
        d_partner = {v: k for k, v in g_partner.items()}
        g_span, d_span = (g0, self.g_off[s + 1]), (d0, self.d_off[s + 1])
        return SampleResult(
            metric=self.metric,
            sample_id=sample.id,
            recall=recall,
            precision=precision,
            hmean=h,
            tally=credit_tally(n_gt, n_det, rc, pc, n_matched=len(ms)),
            gt=_instances(
                g_span, d0, g_credit, g_partner, self.g_dc, None, self.near_g, Verdict.MISSED
            )
            if self.lists
            else (),
            det=_instances(
                d_span,
                g0,
                d_credit,
                d_partner,
                self.det_dc,
                self.absorbed,
                self.near_d,
                Verdict.FALSE_POSITIVE,
            ),
            matches=tuple(self._record(k, g0, d0) for k in ms) if self.lists else (),
            extra={"num_gt_care": n_gt, "num_det_care": n_det, "num_matched": len(ms)},
            complete=self.lists,
        )

    def _record(self, k: int, g0: int, d0: int) -> MatchRecord:
        mt = self.mt
        others = [o - g0 for o in mt.others[k]]
        return MatchRecord(
            kind=MatchKind.ONE_TO_ONE,
            gt=(self.gi[k] - g0,),
            det=(self.dj[k] - d0,),
            values={name: col[k] for name, col in self.values.items()},
            label="OO",
            regions={"cut": mt.cut[k], "outlier": mt.outlier[k]} if self.tiou else {},
            related={
                "outlier_gts": tuple(others),
                "outlier_dont_care": tuple(o for o in others if self.g_dc[o + g0]),
            },
        )


def scored_only(
    samples: Sequence[Sample],
    f: FlatGeometry,
    g_dc: BoolArray,
    det_dc: BoolArray,
    mt: _Matches,
    metric: str,
) -> list[SampleResult]:
    """``Detail.TALLIES`` and ``EXTRAS``: each sample's scores, tally and extra values,
    summed as ``_Context.sample_result`` sums them, without its instances' verdicts."""
    n = len(samples)
    g_care = _care_counts(f.g_owner, g_dc, f.g_off, n)
    d_care = _care_counts(f.d_owner, det_dc, f.d_off, n)
    at = np.searchsorted(mt.gi, f.g_off).tolist()
    rcs, pcs = segment_sums(mt.rc, at), segment_sums(mt.pc, at)
    out = []
    for s, sample in enumerate(samples):
        lo, hi = at[s], at[s + 1]
        n_gt, n_det = g_care[s], d_care[s]
        rc, pc = rcs[s], pcs[s]
        recall, precision, h = per_image_rule(n_gt, n_det, rc, pc)
        out.append(
            SampleResult(
                metric=metric,
                sample_id=sample.id,
                recall=recall,
                precision=precision,
                hmean=h,
                tally=credit_tally(n_gt, n_det, rc, pc, n_matched=hi - lo),
                gt=(),
                det=(),
                extra={"num_gt_care": n_gt, "num_det_care": n_det, "num_matched": hi - lo},
                complete=False,
            )
        )
    return out


def _care_counts(owner: IntArray, dc: BoolArray, off: IntArray, n: int) -> list[int]:
    """Per sample: its instances that are not don't-care."""
    dc_count = np.bincount(owner[dc], minlength=n)[:n] if n else np.zeros(0, np.intp)
    out: list[int] = (np.diff(off) - dc_count).tolist()
    return out


def _instances(
    span: tuple[int, int],
    other_off: int,
    credit: dict[int, tuple[float, bool]],
    partner: dict[int, int],
    dc: list[bool],
    absorbed: list[int] | None,
    near: tuple[list[int], list[float]],
    miss: Verdict,
) -> tuple[InstanceResult, ...]:
    a, b = span
    near_i, near_v = near
    out = []
    for k in range(b - a):
        g = a + k
        if dc[g]:
            by = None if absorbed is None or absorbed[g] < 0 else absorbed[g] - other_off
            out.append(InstanceResult(k, Verdict.DONT_CARE, absorbed_by=by))
        elif k in partner:
            c, partial = credit[k]
            v = Verdict.PARTIAL if partial else Verdict.MATCHED
            out.append(InstanceResult(k, v, c, partners=(partner[k],)))
        else:
            nm = NearMiss(near_i[g] - other_off, near_v[g], "iou") if near_v[g] > 0 else None
            out.append(InstanceResult(k, miss, 0.0, near_miss=nm))
    return tuple(out)
