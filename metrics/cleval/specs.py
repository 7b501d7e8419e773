"""The CLEval family's specs: each card (``cards.py``) with the code that evaluates it."""

from __future__ import annotations

from typing import Any

from metrics.cleval import metric
from metrics.cleval.cards import CARDS
from metrics.cleval.pairs import pair_table
from metrics.core.protocols import Params
from metrics.declare.spec import ConfidenceUse, MetricSpec

__all__ = ["SPECS"]

_CARD = {c.id: c for c in CARDS}

_validate = metric.validate_batch
_validate_e2e = metric.validate_batch_e2e
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


def _spec(mid: str, evaluate: Any, validate: Any) -> MetricSpec[Params]:
    """One CLEval metric: the four share extras, ranking and the units of their counters."""
    return MetricSpec(
        card=_CARD[mid],
        evaluate=evaluate,
        validate=validate,
        global_extras=metric.global_extras,
        extras_read_evidence=False,
        confidences=_RANKS,
        extra_units=_UNITS,
        pair_table=pair_table(e2e=mid.endswith("e2e")),
    )


SPECS = (
    _spec("cleval_det", metric.evaluate_batch, _validate),
    _spec("cleval_e2e", metric.evaluate_batch_e2e, _validate_e2e),
    _spec("cleval_legacy_det", metric.evaluate_batch_legacy, _validate),
    _spec("cleval_legacy_e2e", metric.evaluate_batch_legacy_e2e, _validate_e2e),
)
