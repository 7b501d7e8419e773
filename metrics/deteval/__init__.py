"""ICDAR 2013 DetEval (one-to-one, split, merge). Face of the family: ``SPECS``."""

from __future__ import annotations

from metrics.deteval import metric
from metrics.deteval.params import DetEvalParams
from metrics.spec import MetricSpec, each_sample, ltrb_only

__all__ = ["SPECS", "DetEvalParams"]

SPECS: tuple[MetricSpec, ...] = (
    MetricSpec(
        id="deteval",
        title="ICDAR13 DetEval",
        params_type=DetEvalParams,
        evaluate=metric.evaluate_batch,
        validate=each_sample(metric.validate),
        aliases=("ic13", "deteval13"),
        applies=ltrb_only,
    ),
)
