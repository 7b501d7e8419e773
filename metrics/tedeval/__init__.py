"""TedEval: character-level scores from pseudo character centres. Face: ``SPECS``."""

from __future__ import annotations

from metrics.spec import ConfidenceUse, MetricSpec, quad_data
from metrics.tedeval import metric
from metrics.tedeval.params import TedEvalParams

__all__ = ["SPECS", "TedEvalParams"]

SPECS: tuple[MetricSpec, ...] = (
    MetricSpec(
        id="tedeval",
        title="TedEval",
        params_type=TedEvalParams,
        evaluate=metric.evaluate_batch,
        validate=metric.validate_batch,
        aliases=("ted",),
        applies=quad_data,
        confidences=ConfidenceUse(no_ap=metric.NO_AP),
    ),
)
