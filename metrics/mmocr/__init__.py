"""MMOCR's ``HmeanIOUMetric``: ``mmocr_hmean_iou`` (strategy vanilla, MMOCR's default) and
``mmocr_hmean_iou_maxmatch`` (strategy max_matching).

Face of the family: ``SPECS`` for the registry. Both sweep the detection-score threshold and
report the best hmean of the sweep; they are offered by ``--metric all`` only when every
detection carries a confidence.
"""

from __future__ import annotations

from collections.abc import Sequence

from metrics.core.model import Sample
from metrics.core.results import SampleResult
from metrics.evidence import SweepEvidence
from metrics.mmocr import hmean
from metrics.mmocr.params import HmeanIouMaxMatchParams, HmeanIouParams
from metrics.mmocr.verdicts import compose
from metrics.spec import MetricSpec, with_confidences

__all__ = ["SPECS", "HmeanIouMaxMatchParams", "HmeanIouParams"]


REQUIRES = "a confidence (score) on every detection line"


def at_threshold(result: SampleResult, k: int) -> SampleResult:
    """The result shown at the sweep's k-th threshold (its verdicts, matches and scores)."""
    ev = result.evidence
    if not isinstance(ev, SweepEvidence) or ev.shown == k or not 0 <= k < len(ev.thresholds):
        return result
    return compose(result, ev, k)


def _spec(
    mid: str, title: str, params_type: type[HmeanIouParams], aliases: tuple[str, ...]
) -> MetricSpec:
    """One strategy of the metric (the strategy itself is in its params)."""

    def evaluate(samples: Sequence[Sample], params: HmeanIouParams) -> list[SampleResult]:
        return hmean.evaluate_batch(samples, params, metric=mid)

    return MetricSpec(
        id=mid,
        title=title,
        params_type=params_type,
        evaluate=evaluate,
        validate=hmean.validate,
        aliases=aliases,
        applies=with_confidences,
        global_extras=hmean.global_extras,
        finalize=hmean.finalize,
        requires=REQUIRES,
        at_threshold=at_threshold,
        shardable=False,  # one problem for the whole set when no detection has a score
    )


SPECS: tuple[MetricSpec, ...] = (
    _spec("mmocr_hmean_iou", "MMOCR hmean-iou", HmeanIouParams, ("mmocr",)),
    _spec(
        "mmocr_hmean_iou_maxmatch",
        "MMOCR hmean-iou (max_matching)",
        HmeanIouMaxMatchParams,
        ("mmocr_maxmatch",),
    ),
)
