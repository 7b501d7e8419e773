"""SCUT-CTW1500's own evaluation (VOC-style polygon IoU, AP). Face of the family: ``SPECS``."""

from __future__ import annotations

from metrics.ctw1500 import metric, validate, voc
from metrics.ctw1500.params import Ctw1500Params
from metrics.spec import ConfidenceUse, MetricSpec, ctw1500_like, each_sample

__all__ = ["SPECS", "Ctw1500Params"]

SPECS: tuple[MetricSpec, ...] = (
    MetricSpec(
        id=metric.ID,
        title="SCUT-CTW1500 eval",
        params_type=Ctw1500Params,
        evaluate=metric.evaluate_batch,
        validate=each_sample(validate.validate),
        aliases=("ctw1500", "ctw"),
        applies=ctw1500_like,
        global_extras=voc.global_extras,
        # The official AP runs over the detections in file order (C2, C5: the confidence
        # sort is computed but not applied): ``ap_file_order`` unless sort_by_confidence.
        confidences=ConfidenceUse(switch="sort_by_confidence", ap="any_order"),
    ),
)
