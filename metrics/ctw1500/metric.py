"""SCUT-CTW1500's own evaluation (``ctw1500_eval``): VOC-style greedy IoU > 0.5 on polygons.

Paper: Liu et al., "Curved scene text detection via transverse and longitudinal sequence
connection", Pattern Recognition 2019 (SCUT-CTW1500).
Official implementation matched: Yuliang-Liu/Curve-Text-Detector ``tools/ctw1500_evaluation``
(``sortdetection.py``, ``test_ctw1500_eval.py``, ``voc_eval_polygon.py``) at commit 2126a66
(folder last changed d833061), spec ``TOTALTEXT_CTW1500.md`` C1-C5 and quirks 10-15.
Where the code is followed rather than the paper's VOC protocol:

* no don't care: every GT counts (C1);
* detections are taken in file order, images in sorted file-name order: the confidence sort
  is computed but not applied (C2, quirk 15; ``sort_by_confidence=True`` applies it);
* a detection that is not a valid shapely polygon (fewer than 3 points, self-intersecting) is
  skipped: neither TP nor FP (C3, quirk 12); an invalid GT has IoU 0 with every detection but
  still counts in ``npos``;
* IoU = inter / max(|G| + |D| - inter, 1e-5), shapely areas without ``buffer(0)``; the best
  GT is the first argmax of the detection's IoU row; TP when IoU > 0.5 (strict) and that GT
  is free, otherwise FP even if another free GT qualifies (C4, quirks 10-11);
* AP is the VOC (non-07) area under the interpolated P/R curve of all detections in
  evaluation order (C5): order-dependent, as all confidences are 0.999. Reported as
  ``ap_file_order`` (what the official script prints as ``ap``), or as ``ap`` when
  ``sort_by_confidence`` ranked the detections by confidence.

What the official script cannot take is evaluated where the rule is well defined and reported
as a located warning by ``validate`` (see ``metrics.ctw1500.validate``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from metrics.core.evidence import Skipped, VocFalsePositive
from metrics.core.model import Sample
from metrics.core.records import dataclass
from metrics.core.results import (
    InstanceResult,
    MatchKind,
    MatchRecord,
    NearMiss,
    SampleResult,
    Verdict,
    credit_tally,
    hmean,
)
from metrics.ctw1500.evidence import VocEvidence
from metrics.ctw1500.match import Block, block
from metrics.ctw1500.params import Ctw1500Params
from metrics.ctw1500.voc import ap_key, voc_ap
from metrics.shapes.matching import best_partner
from metrics.shapes.mode import Mode

ID = "ctw1500_eval"
OFFICIAL_CONFIDENCE = 0.999  # sortdetection.py gives every detection this score
EPS = float(np.finfo(np.float64).eps)


@dataclass(frozen=True)
class _Lists:
    """The block's per-instance arrays as Python lists (fast scalar access per sample)."""

    g_off: list[int]
    d_off: list[int]
    tp: list[bool]
    fp: list[bool]
    taken: list[bool]
    best_gt: list[int]
    best_iou: list[float]
    rank: list[int]
    near_det: list[int]  # per GT: best counted det (global), for near misses
    near_iou: list[float]
    g_reason: list[str]
    d_reason: list[str]
    sorted_conf: list[bool]


def _lists(b: Block) -> _Lists:
    counted = b.tp | b.fp
    near = best_partner(b.f.pi, b.f.pj, np.where(counted[b.f.pj], b.iou, -1.0), len(b.f.g_owner))
    return _Lists(
        b.f.g_off.tolist(),
        b.f.d_off.tolist(),
        b.tp.tolist(),
        b.fp.tolist(),
        b.taken.tolist(),
        b.best_gt.tolist(),
        b.best_iou.tolist(),
        b.rank.tolist(),
        near[0].tolist(),
        near[1].tolist(),
        b.g_reason,
        b.d_reason,
        b.sorted_conf,
    )


def evaluate_batch(
    samples: Sequence[Sample], params: Ctw1500Params, mode: Mode | None = None
) -> list[SampleResult]:
    """Evaluate a block of samples; results in the order of ``samples``."""
    if not samples:
        return []
    lists = mode is None or mode.instances  # False: no GT results and no match records
    b = _lists(block(samples, params, near=lists))
    by_conf = params.sort_by_confidence
    return [_sample_result(b, s, sample, lists, by_conf) for s, sample in enumerate(samples)]


def evaluate_sample(sample: Sample, params: Ctw1500Params) -> SampleResult:
    return evaluate_batch([sample], params)[0]


@dataclass(frozen=True)
class _Steps:
    """The detections of one sample in evaluation order, with their TP / FP increments."""

    order: tuple[int, ...]
    confidence: tuple[float, ...]
    tp: tuple[bool, ...]
    fp: tuple[bool, ...]


def _steps(b: _Lists, s: int, sample: Sample) -> _Steps:
    d0, d1 = b.d_off[s], b.d_off[s + 1]
    rank = b.rank[d0:d1]
    order = sorted(range(d1 - d0), key=rank.__getitem__)
    confs = [d.confidence for d in sample.det]
    return _Steps(
        tuple(order),
        tuple(OFFICIAL_CONFIDENCE if confs[j] is None else float(confs[j] or 0.0) for j in order),
        tuple(b.tp[d0 + j] for j in order),
        tuple(b.fp[d0 + j] for j in order),
    )


def _false_positives(b: _Lists, s: int, steps: _Steps) -> tuple[VocFalsePositive, ...]:
    d0, g0 = b.d_off[s], b.g_off[s]
    return tuple(
        VocFalsePositive(
            j,
            "FP_gt_taken" if b.taken[d0 + j] else "FP_low_iou",
            None if b.best_gt[d0 + j] < 0 else b.best_gt[d0 + j] - g0,
            b.best_iou[d0 + j],
        )
        for j, fp in zip(steps.order, steps.fp, strict=True)
        if fp
    )


def _gt_results(b: _Lists, s: int, partner: dict[int, int]) -> tuple[InstanceResult, ...]:
    g0, g1, d0 = b.g_off[s], b.g_off[s + 1], b.d_off[s]
    out = []
    for k in range(g1 - g0):
        if k in partner:
            out.append(InstanceResult(k, Verdict.MATCHED, 1.0, partners=(partner[k],)))
            continue
        value = b.near_iou[g0 + k]
        nm = NearMiss(b.near_det[g0 + k] - d0, value, "iou") if value > 0 else None
        out.append(InstanceResult(k, Verdict.MISSED, near_miss=nm))
    return tuple(out)


def _det_results(b: _Lists, s: int) -> tuple[InstanceResult, ...]:
    d0, d1, g0 = b.d_off[s], b.d_off[s + 1], b.g_off[s]
    out = []
    for j in range(d1 - d0):
        best, value = b.best_gt[d0 + j], b.best_iou[d0 + j]
        if b.tp[d0 + j]:
            out.append(
                InstanceResult(
                    j, Verdict.MATCHED, 1.0, partners=(best - g0,), values={"iou": value}
                )
            )
        elif b.fp[d0 + j]:
            nm = NearMiss(best - g0, value, "iou") if value > 0 else None
            out.append(InstanceResult(j, Verdict.FALSE_POSITIVE, near_miss=nm))
        else:  # skipped before matching: counts nowhere
            out.append(InstanceResult(j, Verdict.DONT_CARE))
    return tuple(out)


def _skipped(reasons: list[str], lo: int, hi: int) -> tuple[Skipped, ...]:
    return tuple(Skipped(k - lo, reasons[k]) for k in range(lo, hi) if reasons[k])


def _sample_result(
    b: _Lists, s: int, sample: Sample, lists: bool = True, by_conf: bool = False
) -> SampleResult:
    g0, g1, d0, d1 = b.g_off[s], b.g_off[s + 1], b.d_off[s], b.d_off[s + 1]
    steps = _steps(b, s, sample)
    tp, fp = sum(steps.tp), sum(steps.fp)
    npos = g1 - g0
    recall = tp / npos if npos else 0.0
    precision = tp / max(tp + fp, EPS)
    matches = tuple(
        MatchRecord(
            kind=MatchKind.ONE_TO_ONE,
            gt=(b.best_gt[d0 + j] - g0,),
            det=(j,),
            values={"iou": b.best_iou[d0 + j]},
            label="TP",
        )
        for j, tp_j in zip(steps.order, steps.tp, strict=True)
        if tp_j
    )
    gt = _gt_results(b, s, {m.gt[0]: m.det[0] for m in matches}) if lists else ()
    ap = voc_ap(steps.tp, steps.fp, npos) if steps.order else np.nan
    det_file = _det_file(sample)
    return SampleResult(
        metric=ID,
        sample_id=sample.id,
        recall=recall,
        precision=precision,
        hmean=hmean(recall, precision),
        tally=credit_tally(npos, tp + fp, tp, tp, n_matched=tp),
        gt=gt,
        det=_det_results(b, s),
        matches=matches if lists else (),
        evidence=VocEvidence(
            det_file=det_file,
            order=steps.order,
            confidence=steps.confidence,
            tp=steps.tp,
            fp=steps.fp,
            false_positives=_false_positives(b, s, steps),
            skipped_dets=_skipped(b.d_reason, d0, d1),
            invalid_gt=_skipped(b.g_reason, g0, g1),
            sorted_by_confidence=b.sorted_conf[s],
        ),
        extra={
            "num_gt": npos,
            "num_det": d1 - d0,
            "num_det_counted": tp + fp,
            "tp": tp,
            "fp": fp,
            ap_key(b.sorted_conf[s] or (by_conf and not sample.det)): ap,
        },
        complete=lists,
    )


def _det_file(sample: Sample) -> str:
    """The name of the sample's detection file, which orders the dataset AP's detections.

    A JSON source (one file for the set; its label a JSON path) or a per-image file of
    another format names no such file: the sample's ``<id>.txt`` stands for it, so a set
    converted to JSON keeps the order, and the AP, of its txt files."""
    name = (sample.det_source or "").rsplit(":", 1)[-1].rsplit("/", 1)[-1]
    return name if name.lower().endswith(".txt") else f"{sample.id}.txt"
