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
  evaluation order (C5): order-dependent, as all confidences are 0.999.

What the official script cannot take is evaluated where the rule is well defined and reported
as a located warning by ``validate`` (see ``metrics.ctw1500.validate``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from metrics.ctw1500.match import Block, block
from metrics.ctw1500.params import Ctw1500Params
from metrics.ctw1500.voc import voc_ap
from metrics.evidence import Skipped, VocEvidence, VocFalsePositive, VocStep
from metrics.matching import IntArray, best_partner
from metrics.model import FloatArray, Sample
from metrics.results import (
    InstanceResult,
    MatchKind,
    MatchRecord,
    NearMiss,
    SampleResult,
    Verdict,
    credit_tally,
    hmean,
)

ID = "ctw1500_eval"
OFFICIAL_CONFIDENCE = 0.999  # sortdetection.py gives every detection this score


def evaluate_batch(samples: Sequence[Sample], params: Ctw1500Params) -> list[SampleResult]:
    """Evaluate a block of samples; results in the order of ``samples``."""
    if not samples:
        return []
    b = block(samples, params)
    counted = b.tp | b.fp
    near = best_partner(b.f.pi, b.f.pj, np.where(counted[b.f.pj], b.iou, -1.0), len(b.f.g_owner))
    return [_sample_result(b, s, sample, near) for s, sample in enumerate(samples)]


def evaluate_sample(sample: Sample, params: Ctw1500Params) -> SampleResult:
    return evaluate_batch([sample], params)[0]


def _confidence(sample: Sample, j: int) -> float:
    c = sample.det[j].confidence
    return OFFICIAL_CONFIDENCE if c is None else float(c)


def _steps(b: Block, s: int, sample: Sample) -> tuple[VocStep, ...]:
    """The detections of sample ``s`` in evaluation order, with their TP / FP increments."""
    d0 = int(b.f.d_off[s])
    order = sorted(range(len(sample.det)), key=lambda j: int(b.rank[d0 + j]))
    return tuple(
        VocStep(j, _confidence(sample, j), bool(b.tp[d0 + j]), bool(b.fp[d0 + j])) for j in order
    )


def _false_positives(b: Block, s: int, steps: tuple[VocStep, ...]) -> tuple[VocFalsePositive, ...]:
    d0, g0 = int(b.f.d_off[s]), int(b.f.g_off[s])
    out = []
    for st in steps:
        d = d0 + st.det
        if st.fp:
            best = int(b.best_gt[d])
            out.append(
                VocFalsePositive(
                    st.det,
                    "FP_gt_taken" if b.taken[d] else "FP_low_iou",
                    None if best < 0 else best - g0,
                    float(b.best_iou[d]),
                )
            )
    return tuple(out)


def _gt_results(
    b: Block, s: int, partner: dict[int, int], near: tuple[IntArray, FloatArray]
) -> tuple[InstanceResult, ...]:
    g0, g1, d0 = int(b.f.g_off[s]), int(b.f.g_off[s + 1]), int(b.f.d_off[s])
    out = []
    for k in range(g1 - g0):
        if k in partner:
            out.append(InstanceResult(k, Verdict.MATCHED, 1.0, partners=(partner[k],)))
            continue
        nm = None
        if near[1][g0 + k] > 0:
            nm = NearMiss(int(near[0][g0 + k]) - d0, float(near[1][g0 + k]), "iou")
        out.append(InstanceResult(k, Verdict.MISSED, near_miss=nm))
    return tuple(out)


def _det_results(b: Block, s: int, n_det: int) -> tuple[InstanceResult, ...]:
    d0, g0 = int(b.f.d_off[s]), int(b.f.g_off[s])
    out = []
    for j in range(n_det):
        d = d0 + j
        best, value = int(b.best_gt[d]), float(b.best_iou[d])
        if b.tp[d]:
            out.append(
                InstanceResult(
                    j, Verdict.MATCHED, 1.0, partners=(best - g0,), values={"iou": value}
                )
            )
        elif b.fp[d]:
            nm = NearMiss(best - g0, value, "iou") if value > 0 else None
            out.append(InstanceResult(j, Verdict.FALSE_POSITIVE, near_miss=nm))
        else:  # skipped before matching: counts nowhere
            out.append(InstanceResult(j, Verdict.DONT_CARE))
    return tuple(out)


def _skipped(reasons: list[str], lo: int, hi: int) -> tuple[Skipped, ...]:
    return tuple(Skipped(k - lo, reasons[k]) for k in range(lo, hi) if reasons[k])


def _sample_result(
    b: Block, s: int, sample: Sample, near: tuple[IntArray, FloatArray]
) -> SampleResult:
    g0, g1 = int(b.f.g_off[s]), int(b.f.g_off[s + 1])
    d0, d1 = int(b.f.d_off[s]), int(b.f.d_off[s + 1])
    steps = _steps(b, s, sample)
    tp = int(np.count_nonzero(b.tp[d0:d1]))
    fp = int(np.count_nonzero(b.fp[d0:d1]))
    npos = g1 - g0
    recall = tp / npos if npos else 0.0
    precision = tp / max(tp + fp, np.finfo(np.float64).eps)
    matches = tuple(
        MatchRecord(
            kind=MatchKind.ONE_TO_ONE,
            gt=(int(b.best_gt[d0 + st.det]) - g0,),
            det=(st.det,),
            values={"iou": float(b.best_iou[d0 + st.det])},
            label="TP",
        )
        for st in steps
        if st.tp
    )
    partner = {m.gt[0]: m.det[0] for m in matches}
    ap = voc_ap([st.tp for st in steps], [st.fp for st in steps], npos) if steps else np.nan
    det_file = (sample.det_source or sample.id).rsplit(":", 1)[-1].rsplit("/", 1)[-1]
    return SampleResult(
        metric=ID,
        sample_id=sample.id,
        recall=recall,
        precision=precision,
        hmean=hmean(recall, precision),
        tally=credit_tally(npos, tp + fp, tp, tp, n_matched=tp),
        gt=_gt_results(b, s, partner, near),
        det=_det_results(b, s, d1 - d0),
        matches=matches,
        evidence=VocEvidence(
            det_file=det_file,
            steps=steps,
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
            "ap": ap,
        },
    )
