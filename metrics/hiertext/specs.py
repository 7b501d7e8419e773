"""The HierText family's specs: each card (``cards.py``) with the code that evaluates it."""

from __future__ import annotations

from metrics.declare.spec import MetricSpec
from metrics.hiertext import metric
from metrics.hiertext.cards import CARDS
from metrics.hiertext.view import level_view

__all__ = ["SPECS"]

SPECS = tuple(
    MetricSpec(
        card=card,
        evaluate=metric.evaluator(level),
        validate=metric.validator(level),
        global_extras=metric.global_extras,
        view=None if level == "word" else level_view(level),
        shardable=False,  # the set's hierarchy is checked as a whole
    )
    for level, card in zip(metric.LEVELS, CARDS, strict=True)
)
