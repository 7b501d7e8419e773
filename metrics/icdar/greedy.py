"""One evaluation of a sample for ic15_iou / siou / tiou and their curved variants.

The three scores share matching and don't-care handling exactly (spec 3: "only the credit
per matched pair changes"); ``score`` picks the credit: 1 (IoU), IoU (SIoU) or TIoU_R/TIoU_P.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import numpy as np

from metrics.core.model import Sample
from metrics.core.results import (
    MatchRecord,
    SampleResult,
    Verdict,
    credit_tally,
    per_image_rule,
)
from metrics.icdar.batch import evaluate_batch
from metrics.icdar.common import Prepared, instance_results
from metrics.icdar.params import GreedyParams, TiouOptions
from metrics.shapes.matching import best_in_matrix
from metrics.shapes.mode import Mode

Score = Literal["iou", "siou", "tiou"]


def tiou_options(params: object, curved: bool) -> TiouOptions:
    return TiouOptions(
        tolerance=float(getattr(params, "tolerance", 0.01)),
        ot_zero_eps=float(getattr(params, "ot_zero_eps", 1e-10)),
        dc_as_outlier=bool(getattr(params, "dc_as_outlier", True)),
        ot_slack=0.0 if curved else 0.001,
    )


def credits(score: Score, values: dict[str, float]) -> tuple[float, float]:
    """(recall credit, precision credit) of one matched pair."""
    if score == "iou":
        return 1.0, 1.0
    if score == "siou":
        return values["iou"], values["iou"]
    return values["tiou_recall"], values["tiou_precision"]


def evaluate_greedy(
    sample: Sample, params: GreedyParams, *, metric: str, score: Score, curved: bool
) -> SampleResult:
    """One sample (the batch evaluation applied to a block of one)."""
    return evaluate_greedy_batch(
        [sample], params, metric=metric, score=score, curved=curved, mode=None
    )[0]


def evaluate_greedy_batch(
    samples: Sequence[Sample],
    params: GreedyParams,
    *,
    metric: str,
    score: Score,
    curved: bool,
    mode: Mode | None,
) -> list[SampleResult]:
    """A block of samples in ``mode`` (None: every result whole, a cache of its own)."""
    return evaluate_batch(
        samples,
        params,
        metric=metric,
        score=score,
        curved=curved,
        opts=tiou_options(params, curved),
        mode=mode or Mode(),
    )


def build_result(
    sample: Sample,
    p: Prepared,
    pairs: list[tuple[int, int]],
    matched: list[tuple[dict[str, float], MatchRecord]],
    *,
    metric: str,
    score: Score,
) -> SampleResult:
    gt_credit: dict[int, float] = {}
    det_credit: dict[int, float] = {}
    for (i, j), (values, _) in zip(pairs, matched, strict=True):
        gt_credit[i], det_credit[p.order[j]] = credits(score, values)
    n_gt = int(np.count_nonzero(~p.gt.dont_care))
    n_det = int(np.count_nonzero(~p.det_dc))
    rc, pc = sum(gt_credit.values()), sum(det_credit.values())
    recall, precision, h = per_image_rule(n_gt, n_det, rc, pc)
    inverse = np.argsort(np.asarray(p.order, dtype=np.intp)) if p.order else np.zeros(0, int)
    det_dc_file = p.det_dc[inverse] if len(inverse) else p.det_dc
    absorbed_file = p.absorbed[inverse] if len(inverse) else p.absorbed
    iou_file = p.iou[:, inverse] if len(inverse) else p.iou
    gt_best = best_in_matrix(iou_file, ~det_dc_file, axis=1)
    det_best = best_in_matrix(iou_file, ~p.gt.dont_care, axis=0)
    gt_partner = {i: p.order[j] for i, j in pairs}
    det_partner = {p.order[j]: i for i, j in pairs}
    return SampleResult(
        metric=metric,
        sample_id=sample.id,
        recall=recall,
        precision=precision,
        hmean=h,
        tally=credit_tally(n_gt, n_det, rc, pc, n_matched=len(pairs)),
        gt=instance_results(
            len(sample.gt), gt_credit, gt_partner, p.gt.dont_care, gt_best, None, Verdict.MISSED
        ),
        det=instance_results(
            len(sample.det),
            det_credit,
            det_partner,
            det_dc_file,
            det_best,
            absorbed_file,
            Verdict.FALSE_POSITIVE,
        ),
        matches=tuple(rec for _, rec in matched),
        extra={"num_gt_care": n_gt, "num_det_care": n_det, "num_matched": len(pairs)},
    )
