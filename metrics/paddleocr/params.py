"""Parameters of PaddleOCR's ``DetMetric`` (defaults = the official evaluator). The bottom of
the family: imports nothing from it."""

from __future__ import annotations

from metrics.core.records import dataclass
from metrics.declare.params import UNIT, param


@dataclass(frozen=True)
class PaddleParams:
    """Official defaults (``DetectionIoUEvaluator``, TOOLKITS.md sections 2, 3, 5)."""

    iou_constraint: float = param(
        0.5, "a GT and a detection match when their IoU is strictly above this", range=UNIT
    )
    area_precision_constraint: float = param(
        0.5,
        "a detection is don't care when more than this share of its area lies in one don't-care GT",
        range=UNIT,
    )
    check_simple: bool = param(
        True,
        "skip polygons that are valid but not simple (the evaluated version, commit 4ffb5b6; "
        "false: later versions, which test validity only)",
    )
