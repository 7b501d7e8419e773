"""Total-Text DetEval (``totaltext_deteval``): the dataset's own DetEval-style script.

Official implementation matched: cs-chan/Total-Text-Dataset
``Evaluation_Protocol/Python_scripts/Deteval.py`` + ``polygon_fast.py`` at commit 9e8ff0a
(scripts last changed 1405b97, 2019-04-11), tr = 0.7, tp = 0.6, fsc_k = 0.8, k = 2; spec
``TOTALTEXT_CTW1500.md`` D1-D6, which produced ``totaltext__*__totaltext_deteval.json``.
Paper idea: Wolf & Jolion's DetEval (IJDAR 2006) on polygons.

Where this follows the code rather than the paper (quirk numbers of the spec):

- don't-care detections: ``inter / (area(D) + 1.0) > 0.5`` against each ``'#'`` GT with more
  than one vertex; a one-vertex don't-care GT filters nothing but is still removed (3, 4);
- intersections of ``buffer(0)`` polygons, areas of the polygons as given (17);
- sigma and tau rounded to 2 decimals (numpy, half to even on the binary value) before every
  comparison (7); strict ``>`` in one-to-one, ``>=`` in the split / merge passes (6);
- one-to-one counts the sigma and tau candidates separately (5, ``oo_same_det`` for the
  paper rule); one-to-many needs k dets with sigma > 0 among *all* dets (9); many-to-one
  qualifies GTs with ``sigma >= tp`` (8, ``merge_gt_threshold="tr"`` for the paper rule);
  a one-member split / merge that passes tau >= tp and sigma >= tr is scored as one-to-one
  (``OM_single`` / ``MO_single``);
- per image: recall = acc_recall / care GTs and precision = acc_precision / kept dets, 0
  when there are none; globally the sums over images (D6).

Departures, for inputs the script cannot take: a zero-area polygon gets sigma / tau 0 (the
script divides by zero), and a split or merge needs at least one member (with tr = 0 or
tp = 0 the script would credit an empty group).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from metrics.core.evidence import Limit
from metrics.core.model import FloatArray, Problem, Sample
from metrics.core.results import (
    InstanceResult,
    MatchKind,
    MatchRecord,
    NearMiss,
    SampleResult,
    Verdict,
    credit_tally,
)
from metrics.shapes.mode import Mode
from metrics.totaltext import prep
from metrics.totaltext.evidence import TotalTextDetEvalEvidence
from metrics.totaltext.match import Match, Passes, sigma_tau
from metrics.totaltext.params import TotalTextDetEvalParams
from metrics.totaltext.prep import IntArray, Prepared

ID = "totaltext_deteval"

KINDS = {
    "OO": MatchKind.ONE_TO_ONE,
    "OM_single": MatchKind.ONE_TO_ONE,
    "MO_single": MatchKind.ONE_TO_ONE,
    "OM": MatchKind.SPLIT,
    "MO": MatchKind.MERGE,
}


def validate_batch(samples: Sequence[Sample], params: TotalTextDetEvalParams) -> list[Problem]:
    return prep.validate(samples, allow_float=params.allow_float)


def evaluate_batch(
    samples: Sequence[Sample], params: TotalTextDetEvalParams, mode: Mode | None = None
) -> list[SampleResult]:
    """Total-Text DetEval of many samples (geometry in one vectorized pass)."""
    geometry = (mode or Mode()).cache

    def run(todo: list[Sample]) -> list[SampleResult]:
        prepared = prep.prepare(todo, params.dc_threshold, geometry)
        return [_evaluate(s, p, params) for s, p in zip(todo, prepared, strict=True)]

    zero = {"acc_recall": 0.0, "acc_precision": 0.0}
    return prep.per_evaluated(samples, params.missing_det_file, ID, zero, run)


def evaluate_sample(sample: Sample, params: TotalTextDetEvalParams) -> SampleResult:
    return evaluate_batch([sample], params)[0]


def _evaluate(sample: Sample, p: Prepared, params: TotalTextDetEvalParams) -> SampleResult:
    sigma, tau = sigma_tau(p.inter, p.gt_area, p.det_area, params.decimals)
    passes = Passes(sigma, tau, params).run()
    n_gt, n_det = len(p.care_gt), len(p.kept_det)
    tally = credit_tally(n_gt, n_det, passes.acc_recall, passes.acc_precision)
    recall, precision, h = tally.scores()
    gt_credit, det_credit = _credits(passes)
    return SampleResult(
        metric=ID,
        sample_id=sample.id,
        recall=recall,
        precision=precision,
        hmean=h,
        tally=tally,
        gt=_gt_results(p, passes, gt_credit),
        det=_det_results(p, passes, det_credit),
        matches=tuple(_record(m, p, sigma, tau) for m in passes.matches),
        evidence=TotalTextDetEvalEvidence(
            care_gt=tuple(int(i) for i in p.care_gt),
            kept_det=tuple(int(j) for j in p.kept_det),
            sigma=prep.frozen(sigma),
            tau=prep.frozen(tau),
            dc_dets=p.dc_dets,
            limits=(Limit(">", params.tr), Limit(">", params.tp)),
        ),
        extra={
            "num_gt": p.n_gt,
            "num_gt_care": n_gt,
            "num_det": p.n_det,
            "num_det_care": n_det,
            "acc_recall": passes.acc_recall,
            "acc_precision": passes.acc_precision,
        },
    )


def _record(m: Match, p: Prepared, sigma: FloatArray, tau: FloatArray) -> MatchRecord:
    """The match in file indices, with sigma / tau of each of its (GT, det) pairs."""
    gts = tuple(int(p.care_gt[g]) for g in m.gt)
    dets = tuple(int(p.kept_det[d]) for d in m.det)
    values: dict[str, float] = {"recall_credit": m.recall, "precision_credit": m.precision}
    for g, fg in zip(m.gt, gts, strict=True):
        for d, fd in zip(m.det, dets, strict=True):
            values[f"sigma[{fg},{fd}]"] = float(sigma[g, d])
            values[f"tau[{fg},{fd}]"] = float(tau[g, d])
    if m.label == "OM":
        values["sigma_sum"] = float(np.sum(sigma[m.gt[0], list(m.det)]))
    elif m.label == "MO":
        values["tau_sum"] = float(np.sum(tau[list(m.gt), m.det[0]]))
    related = {} if m.tau_det is None else {"tau_det": (int(p.kept_det[m.tau_det]),)}
    return MatchRecord(
        kind=KINDS[m.label], gt=gts, det=dets, values=values, label=m.label, related=related
    )


Credits = dict[int, tuple[float, tuple[int, ...]]]


def _credits(passes: Passes) -> tuple[Credits, Credits]:
    """Per table row / column: (credit, partners) from the matches."""
    gt: Credits = {}
    det: Credits = {}
    for m in passes.matches:
        weight = 1.0 if m.label in ("OO", "OM_single", "MO_single") else passes.params.fsc_k
        for g in m.gt:
            gt[g] = (weight, m.det)
        for d in m.det:
            det[d] = (weight, m.gt)
    return gt, det


def _verdict(credit: float) -> Verdict:
    return Verdict.MATCHED if credit >= 1.0 else Verdict.PARTIAL


def _near(values: FloatArray, partners: IntArray, measure: str) -> NearMiss | None:
    if values.size == 0 or values.max() <= 0:
        return None
    k = int(np.argmax(values))
    return NearMiss(int(partners[k]), float(values[k]), measure)


def _gt_results(p: Prepared, passes: Passes, credit: Credits) -> tuple[InstanceResult, ...]:
    row = {int(g): r for r, g in enumerate(p.care_gt)}
    out = []
    for i in range(p.n_gt):
        r = row.get(i)
        if r is None:
            out.append(InstanceResult(i, Verdict.DONT_CARE))
        elif r in credit:
            c, dets = credit[r]
            partners = tuple(int(p.kept_det[d]) for d in dets)
            out.append(InstanceResult(i, _verdict(c), c, partners=partners))
        else:
            near = _near(passes.sigma[r], p.kept_det, "sigma")
            out.append(InstanceResult(i, Verdict.MISSED, near_miss=near))
    return tuple(out)


def _det_results(p: Prepared, passes: Passes, credit: Credits) -> tuple[InstanceResult, ...]:
    col = {int(d): c for c, d in enumerate(p.kept_det)}
    out = []
    for j in range(p.n_det):
        c = col.get(j)
        if c is None:
            out.append(p.absorbed_result(j))
        elif c in credit:
            w, gts = credit[c]
            partners = tuple(int(p.care_gt[g]) for g in gts)
            out.append(InstanceResult(j, _verdict(w), w, partners=partners))
        else:
            near = _near(passes.tau[:, c], p.care_gt, "tau")
            out.append(InstanceResult(j, Verdict.FALSE_POSITIVE, near_miss=near))
    return tuple(out)
