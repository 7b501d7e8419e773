"""The Total-Text family's specs: each card (``cards.py``) with the code that evaluates it."""

from __future__ import annotations

from metrics.declare.spec import MetricSpec
from metrics.totaltext import deteval, voc
from metrics.totaltext.cards import CARDS

__all__ = ["SPECS"]

_DETEVAL, _VOC = CARDS

SPECS = (
    MetricSpec(card=_DETEVAL, evaluate=deteval.evaluate_batch, validate=deteval.validate_batch),
    MetricSpec(
        card=_VOC,
        evaluate=voc.evaluate_batch,
        validate=voc.validate_batch,
        global_extras=voc.global_extras,
        extra_counts=frozenset({"tp", "fp"}),
    ),
)
