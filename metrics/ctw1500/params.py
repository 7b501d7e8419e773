"""Parameters of SCUT-CTW1500's evaluation (defaults = the official script). The bottom of
the family: imports nothing from it."""

from __future__ import annotations

import math

from metrics.core.records import dataclass
from metrics.declare.params import UNIT, param


@dataclass(frozen=True)
class Ctw1500Params:
    """Official defaults (TOTALTEXT_CTW1500.md C1-C5)."""

    iou_threshold: float = param(
        0.5,
        "a detection is a true positive when its IoU with its best GT is strictly above this "
        "(ovthresh)",
        range=UNIT,
    )
    min_union: float = param(
        1e-5, "the union is clamped at this value before dividing", range=(1e-300, math.inf)
    )
    sort_by_confidence: bool = param(
        False,
        "rank detections by confidence, as the script meant to (it computes the sort but keeps "
        "file order, C2); the AP is then over that ranking (ap, not ap_file_order)",
    )
