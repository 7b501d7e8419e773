"""SIoU and TIoU (``siou``, ``tiou``): tightness-aware credits on the ICDAR 2015 matches.

Paper: Liu et al., "Tightness-aware Evaluation Protocol for Scene Text Detection", CVPR 2019.
Official implementation matched: Yuliang-Liu/TIoU-metric ``script.py`` @1da1363, spec 3.
Matching, don't-care handling and aggregation are those of ``ic15_iou``; a matched pair earns
IoU (SIoU), or I·f(Ct/|G|)/U for recall and I·f(Ot/|D|)/U for precision (TIoU), where Ct is the
part of the GT cut off by the detection and Ot the area of other GTs inside the detection.
Where the code departs from the paper (defaults reproduce the code):
``tolerance=0.01`` (paper: 0, Q2) and ``dc_as_outlier=True`` (don't-care GTs count as
outliers, a bug of the official code; paper intent: False, Q1).
"""

from __future__ import annotations

from collections.abc import Sequence

from metrics.core.model import Problem, Sample
from metrics.core.results import SampleResult
from metrics.icdar.common import icdar_problems, icdar_problems_batch
from metrics.icdar.greedy import evaluate_greedy, evaluate_greedy_batch
from metrics.icdar.params import TiouParams
from metrics.shapes.mode import Mode


def validate_batch(samples: Sequence[Sample], params: TiouParams) -> list[Problem]:
    return icdar_problems_batch(
        samples, allow_float=params.allow_float, check_orientation=params.check_orientation
    )


def validate(sample: Sample, params: TiouParams) -> list[Problem]:
    return icdar_problems(
        sample, allow_float=params.allow_float, check_orientation=params.check_orientation
    )


def evaluate_batch(
    samples: Sequence[Sample], params: TiouParams, mode: Mode | None = None
) -> list[SampleResult]:
    """TIoU of many samples in one vectorized pass."""
    return evaluate_greedy_batch(
        samples, params, metric="tiou", score="tiou", curved=False, mode=mode
    )


def evaluate_batch_siou(
    samples: Sequence[Sample], params: TiouParams, mode: Mode | None = None
) -> list[SampleResult]:
    return evaluate_greedy_batch(
        samples, params, metric="siou", score="siou", curved=False, mode=mode
    )


def evaluate_sample(sample: Sample, params: TiouParams) -> SampleResult:
    """TIoU of one sample (the result also carries IoU and SIoU values per match)."""
    return evaluate_greedy(sample, params, metric="tiou", score="tiou", curved=False)
