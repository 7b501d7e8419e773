"""DetEval's spec: its card (``cards.py``) with the code that evaluates it."""

from __future__ import annotations

from metrics.declare.spec import MetricSpec, each_sample
from metrics.deteval import metric
from metrics.deteval.cards import CARDS

__all__ = ["SPECS"]

SPECS = (
    MetricSpec(
        card=CARDS[0],
        evaluate=metric.evaluate_batch,
        validate=each_sample(metric.validate),
    ),
)
