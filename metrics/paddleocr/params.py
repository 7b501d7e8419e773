"""Parameters of PaddleOCR's ``DetMetric`` (defaults = the official evaluator). The bottom of
the family: imports nothing from it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PaddleParams:
    """Official defaults (``DetectionIoUEvaluator``, TOOLKITS.md sections 2, 3, 5).

    iou_constraint:
        A GT and a detection match when their IoU is strictly above it.
    area_precision_constraint:
        A detection is don't-care when more than this share of its area lies in one
        don't-care GT.
    check_simple:
        Skip polygons that are valid but not simple (the evaluated version, commit 4ffb5b6);
        False follows later versions, which test ``is_valid`` only.
    """

    iou_constraint: float = 0.5
    area_precision_constraint: float = 0.5
    check_simple: bool = True
