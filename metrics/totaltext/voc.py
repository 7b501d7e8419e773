"""Total-Text Pascal VOC (``totaltext_voc``): one-to-one IoU matching, P / R / F (no AP).

Official implementation matched: cs-chan/Total-Text-Dataset
``Evaluation_Protocol/Python_scripts/Pascal_VOC.py`` + ``polygon_fast.py`` at commit 9e8ff0a
(scripts last changed 1405b97, 2019-04-11; python 2 only, quirk 18); spec
``TOTALTEXT_CTW1500.md`` V1-V5, which produced ``totaltext__*__totaltext_voc.json``. The name
comes from the Pascal VOC IoU >= 0.5 criterion.

Where this follows the code (quirk numbers of the spec):

- the don't-care filter of ``Deteval.py`` (V1; quirks 3, 4, 17);
- ``IoU = inter / (area(buffer0(D) ∪ buffer0(G)) + 1.0)``: exact copies score below 1 (10);
- detections in file order, each against its *first* best care GT only: TP if
  ``IoU >= 0.5`` (non-strict) and that GT is free; if it is taken the detection is a false
  positive even when another free GT overlaps enough (11; ``second_choice`` tries the best
  free one instead). The false positives say why: ``FP_gt_taken`` or ``FP_low_iou``;
- an image without care GT scores no TP and no FP (its detections still count in the global
  precision's denominator, V4): per image P = tp / (tp + fp), R = tp / care GTs, 0 when
  undefined; globally sum(tp) / sum(kept dets) and sum(tp) / sum(care GTs).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from metrics.core.evidence import Limit, VocFalsePositive
from metrics.core.model import FloatArray, Problem, Sample
from metrics.core.records import dataclass, field
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
from metrics.totaltext.evidence import TotalTextVocEvidence
from metrics.totaltext.params import TotalTextVocParams
from metrics.totaltext.prep import Prepared

ID = "totaltext_voc"
LOW_IOU, GT_TAKEN = "FP_low_iou", "FP_gt_taken"


def validate_batch(samples: Sequence[Sample], params: TotalTextVocParams) -> list[Problem]:
    return prep.validate(samples, allow_float=params.allow_float)


def evaluate_batch(
    samples: Sequence[Sample], params: TotalTextVocParams, mode: Mode | None = None
) -> list[SampleResult]:
    """Total-Text Pascal VOC of many samples (geometry in one vectorized pass)."""
    geometry = (mode or Mode()).cache

    def run(todo: list[Sample]) -> list[SampleResult]:
        prepared = prep.prepare(todo, params.dc_threshold, geometry)
        unions = prep.unions(todo, geometry)
        return [_evaluate(*a, params) for a in zip(todo, prepared, unions, strict=True)]

    return prep.per_evaluated(samples, params.missing_det_file, ID, {"tp": 0.0, "fp": 0.0}, run)


def evaluate_sample(sample: Sample, params: TotalTextVocParams) -> SampleResult:
    return evaluate_batch([sample], params)[0]


def global_extras(results: Iterable[SampleResult]) -> dict[str, float]:
    """The script's global true / false positive counts."""
    tp = fp = 0.0
    for r in results:
        tp += r.extra["tp"]
        fp += r.extra["fp"]
    return {"tp": tp, "fp": fp}


def iou_table(inter: FloatArray, union: FloatArray, offset: float) -> FloatArray:
    """V2: ``inter / (union + offset)``, 0 where the denominator is 0."""
    den = union + offset
    with np.errstate(divide="ignore", invalid="ignore"):
        out: FloatArray = np.where(den > 0, inter / np.where(den > 0, den, 1.0), 0.0)
    return out


@dataclass
class _Matching:
    """V3 over one image: table positions of the TP pairs and the false positives."""

    iou: FloatArray
    params: TotalTextVocParams
    pairs: list[tuple[int, int]] = field(default_factory=list)
    fps: list[tuple[int, str, int]] = field(default_factory=list)  # det, reason, best gt

    def run(self) -> _Matching:
        n_gt, n_det = self.iou.shape
        if n_gt == 0:
            return self
        taken = np.zeros(n_gt, dtype=bool)
        thr = self.params.iou_threshold
        for d in range(n_det):
            col = self.iou[:, d]
            best = int(np.argmax(col))
            g = best
            if col[best] >= thr and taken[best] and self.params.second_choice:
                free = np.where(taken, -1.0, col)
                g = int(np.argmax(free))
            if col[g] >= thr and not taken[g]:
                taken[g] = True
                self.pairs.append((g, d))
            else:
                self.fps.append((d, GT_TAKEN if col[best] >= thr else LOW_IOU, best))
        return self


def _evaluate(
    sample: Sample, p: Prepared, union: FloatArray, params: TotalTextVocParams
) -> SampleResult:
    iou = iou_table(p.inter, union[np.ix_(p.care_gt, p.kept_det)], params.union_offset)
    m = _Matching(iou, params).run()
    n_gt, n_det = len(p.care_gt), len(p.kept_det)
    tp, fp = float(len(m.pairs)), float(len(m.fps))
    tally = credit_tally(n_gt, n_det, tp, tp)
    recall, precision, h = tally.scores()
    fps = tuple(
        VocFalsePositive(int(p.kept_det[d]), reason, int(p.care_gt[g]), float(iou[g, d]))
        for d, reason, g in m.fps
    )
    return SampleResult(
        metric=ID,
        sample_id=sample.id,
        recall=recall,
        precision=precision,
        hmean=h,
        tally=tally,
        gt=_gt_results(p, m),
        det=_det_results(p, m, fps),
        matches=tuple(
            MatchRecord(
                kind=MatchKind.ONE_TO_ONE,
                gt=(int(p.care_gt[g]),),
                det=(int(p.kept_det[d]),),
                values={"iou": float(iou[g, d])},
                label="TP",
            )
            for g, d in m.pairs
        ),
        evidence=TotalTextVocEvidence(
            care_gt=tuple(int(i) for i in p.care_gt),
            kept_det=tuple(int(j) for j in p.kept_det),
            iou=prep.frozen(iou),
            false_positives=fps,
            dc_dets=p.dc_dets,
            limit=Limit(">=", params.iou_threshold),
        ),
        extra={
            "num_gt": p.n_gt,
            "num_gt_care": n_gt,
            "num_det": p.n_det,
            "num_det_care": n_det,
            "tp": tp,
            "fp": fp,
        },
    )


def _gt_results(p: Prepared, m: _Matching) -> tuple[InstanceResult, ...]:
    row = {int(g): r for r, g in enumerate(p.care_gt)}
    matched = {g: d for g, d in m.pairs}
    out = []
    for i in range(p.n_gt):
        r = row.get(i)
        if r is None:
            out.append(InstanceResult(i, Verdict.DONT_CARE))
        elif r in matched:
            d = matched[r]
            out.append(
                InstanceResult(
                    i,
                    Verdict.MATCHED,
                    1.0,
                    partners=(int(p.kept_det[d]),),
                    values={"iou": float(m.iou[r, d])},
                )
            )
        else:
            near = None
            if m.iou.shape[1] and m.iou[r].max() > 0:
                d = int(np.argmax(m.iou[r]))
                near = NearMiss(int(p.kept_det[d]), float(m.iou[r, d]), "iou")
            out.append(InstanceResult(i, Verdict.MISSED, near_miss=near))
    return tuple(out)


def _det_results(
    p: Prepared, m: _Matching, fps: tuple[VocFalsePositive, ...]
) -> tuple[InstanceResult, ...]:
    col = {int(d): c for c, d in enumerate(p.kept_det)}
    matched = {d: g for g, d in m.pairs}
    why = {f.det: f for f in fps}
    out = []
    for j in range(p.n_det):
        c = col.get(j)
        if c is None:
            out.append(p.absorbed_result(j))
        elif c in matched:
            g = matched[c]
            out.append(
                InstanceResult(
                    j,
                    Verdict.MATCHED,
                    1.0,
                    partners=(int(p.care_gt[g]),),
                    values={"iou": float(m.iou[g, c])},
                )
            )
        else:
            f = why.get(j)
            near = None
            if f is not None and f.best_gt is not None and f.best_iou > 0:
                near = NearMiss(f.best_gt, f.best_iou, "iou")
            values = {} if f is None else {"gt_taken": float(f.reason == GT_TAKEN)}
            out.append(InstanceResult(j, Verdict.FALSE_POSITIVE, near_miss=near, values=values))
    return tuple(out)
