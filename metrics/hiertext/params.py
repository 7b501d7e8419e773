"""HierText parameters (official defaults of ``HierTextEvaluator``). The bottom of the family."""

from __future__ import annotations

from metrics.core.records import dataclass
from metrics.declare.params import UNIT, param


@dataclass(frozen=True)
class HierTextParams:
    """Official defaults (HIERTEXT.md sections 3-5)."""

    iou_threshold: float = param(
        0.5, "a mutually best pair matches when its IoU is at least this (>=)", range=UNIT
    )
    filter_invalid_thr: float = param(
        0.5,
        "a detection is don't care when inter / (its area + 1e-5) is at least this (>=) for "
        "one illegible GT",
        range=UNIT,
    )
    box_prefilter: bool = param(
        True,
        "two masks intersect only when their boxes overlap with positive area, as the official "
        "code (false: every shared pixel counts, also of boxes that merely touch)",
    )
    allow_float: bool = param(
        True,
        "rasterise non-integer word vertices at the nearest pixel (false: refuse them, as "
        "OpenCV's fillPoly in the official code takes integers only)",
    )
