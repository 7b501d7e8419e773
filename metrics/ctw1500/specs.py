"""SCUT-CTW1500's spec: its card (``cards.py``) with the code that evaluates it."""

from __future__ import annotations

from metrics.ctw1500 import metric, validate, voc
from metrics.ctw1500.cards import CARDS
from metrics.ctw1500.pairs import pair_table
from metrics.declare.spec import ConfidenceUse, MetricSpec, each_sample

__all__ = ["SPECS"]

SPECS = (
    MetricSpec(
        card=CARDS[0],
        evaluate=metric.evaluate_batch,
        validate=each_sample(validate.validate),
        global_extras=voc.global_extras,
        extra_counts=frozenset({"tp", "fp", "skipped_dets", "num_det"}),
        pair_table=pair_table,
        # The official AP runs over the detections in file order (C2, C5: the confidence
        # sort is computed but not applied): ``ap_file_order`` unless sort_by_confidence.
        confidences=ConfidenceUse(switch="sort_by_confidence", ap="any_order"),
    ),
)
