"""The CLEval family's specs: each card (``cards.py``) with the code that evaluates it."""

from __future__ import annotations

from metrics.cleval import metric
from metrics.cleval.cards import CARDS
from metrics.spec import ConfidenceUse, MetricSpec, each_sample

__all__ = ["SPECS"]

_CARD = {c.id: c for c in CARDS}

_validate = each_sample(metric.validate)
_validate_e2e = each_sample(metric.validate_e2e)
_RANKS = ConfidenceUse()  # a stable sort by confidence before matching (spec 0.7); no AP
# the counters mix units (metric.global_extras): said after each number in the notes
_UNITS = {
    "split": "GTs",
    "merge": "dets",
    "overlap": "chars",
    "miss": "chars",
    "fp": "dets",
    "fp_chars": "chars",
}

SPECS = (
    MetricSpec(
        card=_CARD["cleval_det"],
        evaluate=metric.evaluate_batch,
        validate=_validate,
        global_extras=metric.global_extras,
        extras_read_evidence=False,
        confidences=_RANKS,
        extra_units=_UNITS,
    ),
    MetricSpec(
        card=_CARD["cleval_e2e"],
        evaluate=metric.evaluate_batch_e2e,
        validate=_validate_e2e,
        global_extras=metric.global_extras,
        extras_read_evidence=False,
        confidences=_RANKS,
        extra_units=_UNITS,
    ),
    MetricSpec(
        card=_CARD["cleval_legacy_det"],
        evaluate=metric.evaluate_batch_legacy,
        validate=_validate,
        global_extras=metric.global_extras,
        extras_read_evidence=False,
        confidences=_RANKS,
        extra_units=_UNITS,
    ),
    MetricSpec(
        card=_CARD["cleval_legacy_e2e"],
        evaluate=metric.evaluate_batch_legacy_e2e,
        validate=_validate_e2e,
        global_extras=metric.global_extras,
        extras_read_evidence=False,
        confidences=_RANKS,
        extra_units=_UNITS,
    ),
)
