"""ICDAR 2015 IoU protocol (``ic15_iou``): one-to-one, IoU > 0.5, greedy in index order.

Paper: Karatzas et al., ICDAR 2015 Robust Reading Competition (Task 4.1).
Official implementation matched: the "Origin" numbers of Yuliang-Liu/TIoU-metric ``script.py``
@1da1363 (= RRC Challenge 4 script), spec section 1.
Follows the code where it departs from a plain reading of the protocol: greedy first-found
matching in GT-major order (Q1), strict ``>`` thresholds (Q2), self-intersecting quads with
cancelled area (Q3), integer-only coordinates (Q4). Detection indices in results are file
indices even when confidences re-order the evaluation. AP (spec 1.3) only when they do:
``confidences=false`` is the script's CONFIDENCES=False, which computes none.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from metrics.core.model import Problem, Sample
from metrics.core.results import SampleResult
from metrics.icdar.batch import DetStates, evaluate_batch_states
from metrics.icdar.common import icdar_problems, icdar_problems_batch
from metrics.icdar.evidence import IouEvidence, RankedDetection
from metrics.icdar.greedy import evaluate_greedy_batch, tiou_options
from metrics.icdar.params import IouParams
from metrics.shapes.mode import Mode

ID = "ic15_iou"


def validate_batch(samples: Sequence[Sample], params: IouParams) -> list[Problem]:
    return icdar_problems_batch(
        samples, allow_float=params.allow_float, check_orientation=params.check_orientation
    )


def validate(sample: Sample, params: IouParams) -> list[Problem]:
    return icdar_problems(
        sample, allow_float=params.allow_float, check_orientation=params.check_orientation
    )


def evaluate_sample(sample: Sample, params: IouParams) -> SampleResult:
    return evaluate_batch([sample], params)[0]


def evaluate_batch(
    samples: Sequence[Sample], params: IouParams, mode: Mode | None = None
) -> list[SampleResult]:
    """Many samples in one vectorized pass (same results as evaluate_sample on each)."""
    if params.confidences is False or (mode is not None and not mode.results):
        # file order: the official script computes no AP; TALLIES: nobody reads it
        return evaluate_greedy_batch(
            samples, params, metric=ID, score="iou", curved=False, mode=mode
        )
    results, states = evaluate_batch_states(
        samples,
        params,
        metric=ID,
        score="iou",
        curved=False,
        opts=tiou_options(params, False),
        mode=mode or Mode(),
    )
    return [
        _with_ap(s, r, states, k) for k, (s, r) in enumerate(zip(samples, results, strict=True))
    ]


def _with_ap(sample: Sample, result: SampleResult, states: DetStates, s: int) -> SampleResult:
    ranked = ranked_detections(sample, states, s)
    if not ranked:
        return result
    n_gt = int(result.tally["n_gt_care"])
    ap = average_precision(ranked, n_gt) if n_gt else result.precision
    return _with(result, ranked, ap)


def _with(result: SampleResult, ranked: list[tuple[float, bool]], ap: float) -> SampleResult:
    from dataclasses import replace

    return replace(
        result,
        evidence=IouEvidence(tuple(RankedDetection(c, m) for c, m in ranked)),
        extra={**result.extra, "ap": ap},
    )


def ranked_detections(sample: Sample, states: DetStates, s: int) -> list[tuple[float, bool]]:
    """(confidence, matched) of every care det, when the dets carry confidences (spec 1.3);
    ``states``: the detections' states of the block ``sample`` is sample s of."""
    if not sample.det or any(d.confidence is None for d in sample.det):
        return []
    return states.ranked(s, [float(d.confidence or 0.0) for d in sample.det])


def average_precision(items: Iterable[tuple[float, bool]], n_gt_care: float) -> float:
    """Non-interpolated AP of spec 1.3: mean precision at each matched rank over n_gt_care."""
    ranked = sorted(items, key=lambda t: -t[0])
    if not ranked:
        return 0.0
    hits, total = 0, 0.0
    for n, (_, matched) in enumerate(ranked, start=1):
        if matched:
            hits += 1
            total += hits / n
    return total / n_gt_care if n_gt_care else total


def global_extras(results: Iterable[SampleResult]) -> dict[str, float]:
    """Global AP over every care det of every image (only when dets carry confidences)."""
    items: list[tuple[float, bool]] = []
    n_gt = 0.0
    for r in results:
        if isinstance(r.evidence, IouEvidence):
            items.extend((d.confidence, d.matched) for d in r.evidence.ranked)
        n_gt += r.tally["n_gt_care"]
    return {"ap": average_precision(items, n_gt)} if items else {}
