"""DetEval's spec: its card (``cards.py``) with the code that evaluates it."""

from __future__ import annotations

from metrics.deteval import metric
from metrics.deteval.cards import CARDS
from metrics.spec import MetricSpec, each_sample

__all__ = ["SPECS"]

SPECS = (
    MetricSpec(
        card=CARDS[0],
        evaluate=metric.evaluate_batch,
        validate=each_sample(metric.validate),
    ),
)
