"""The MMOCR family's specs: each card (``cards.py``) with the code that evaluates it."""

from __future__ import annotations

from collections.abc import Sequence

from metrics.core.model import Sample
from metrics.core.results import SampleResult
from metrics.declare.card import Card
from metrics.declare.spec import MetricSpec
from metrics.mmocr import hmean
from metrics.mmocr.cards import CARDS
from metrics.mmocr.evidence import SweepEvidence
from metrics.mmocr.pairs import pair_table
from metrics.mmocr.params import HmeanIouParams
from metrics.mmocr.verdicts import compose
from metrics.shapes.mode import Mode

__all__ = ["SPECS"]


def at_threshold(result: SampleResult, k: int) -> SampleResult:
    """The result shown at the sweep's k-th threshold (its verdicts, matches and scores)."""
    ev = result.evidence
    if not isinstance(ev, SweepEvidence) or ev.shown == k or not 0 <= k < len(ev.thresholds):
        return result
    return compose(result, ev, k)


def _spec(card: Card) -> MetricSpec[HmeanIouParams]:
    """One strategy of the metric (the strategy itself is in its params)."""

    def evaluate(
        samples: Sequence[Sample], params: HmeanIouParams, mode: Mode | None = None, /
    ) -> list[SampleResult]:
        return hmean.evaluate_batch(samples, params, metric=card.id, mode=mode)

    return MetricSpec(
        card=card,
        evaluate=evaluate,
        validate=hmean.validate,
        global_extras=hmean.global_extras,
        extra_counts=frozenset({"gt_removed_lt3pts"}),
        finalize=hmean.finalize,
        pair_table=pair_table,
        at_threshold=at_threshold,
        shardable=False,  # one problem for the whole set when no detection has a score
    )


SPECS = tuple(_spec(card) for card in CARDS)
