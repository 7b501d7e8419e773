"""TedEval's spec: its card (``cards.py``) with the code that evaluates it."""

from __future__ import annotations

from metrics.declare.spec import ConfidenceUse, MetricSpec
from metrics.tedeval import metric
from metrics.tedeval.cards import CARDS

__all__ = ["SPECS"]

SPECS = (
    MetricSpec(
        card=CARDS[0],
        evaluate=metric.evaluate_batch,
        validate=metric.validate_batch,
        confidences=ConfidenceUse(no_ap=metric.NO_AP),
    ),
)
