"""PaddleOCR's spec: its card (``cards.py``) with the code that evaluates it."""

from __future__ import annotations

from collections.abc import Iterable

from metrics.core.results import SampleResult
from metrics.declare.spec import MetricSpec, each_sample
from metrics.paddleocr import metric, validate
from metrics.paddleocr.cards import CARDS
from metrics.paddleocr.evidence import SkippedEvidence
from metrics.paddleocr.pairs import pair_table

__all__ = ["SPECS"]


_COUNTERS = (
    "matched",
    "gt_care",
    "det_care",
    "images",
    "gt_invalid_skipped",
    "det_invalid_skipped",
)


def global_extras(results: Iterable[SampleResult]) -> dict[str, float]:
    """The official counters: matches, care GT / detections, evaluated images, skipped
    polygons (images without GT are not among the results: the validation notes list them)."""
    out = dict.fromkeys(_COUNTERS, 0.0)
    for r in results:
        for key in ("matched", "gt_care", "det_care"):
            out[key] += r.extra[key]
        out["images"] += 1
        if isinstance(r.evidence, SkippedEvidence):
            out["gt_invalid_skipped"] += len(r.evidence.gt_invalid_skipped)
            out["det_invalid_skipped"] += len(r.evidence.det_invalid_skipped)
    return out


SPECS = (
    MetricSpec(
        card=CARDS[0],
        evaluate=metric.evaluate_batch,
        validate=each_sample(validate.validate),
        global_extras=global_extras,
        extra_counts=frozenset(_COUNTERS),
        pair_table=pair_table,
    ),
)
