"""Ranges of the metric parameters, checked when a value is set (``--set``, the API).

A value outside its range is refused before anything is evaluated, in one line naming the
parameter: a NaN threshold, a negative weight or a DetEval credit above 1 would otherwise
print NaN, negative or > 1 scores. Every float must be finite; the ranges below are the
meaningful ones (a ratio threshold in [0, 1], a weight or a tolerance >= 0).
"""

from __future__ import annotations

import math
from typing import Any

UNIT = (0.0, 1.0)
NON_NEGATIVE = (0.0, math.inf)

RANGES: dict[str, tuple[float, float]] = {
    **dict.fromkeys(
        (
            "area_precision",
            "area_precision_constraint",
            "area_recall",
            "coverage",
            "dc_area_precision",
            "dc_threshold",
            "filter_invalid_thr",
            "fsc_k",
            "ignore_precision_thr",
            "iou_constraint",
            "iou_threshold",
            "match_iou_thr",
            "membership",
            "score_start",
            "score_stop",
            "tolerance",
            "tp",
            "tr",
            "w_mo",
            "w_om",
            "w_oo",
        ),
        UNIT,
    ),
    **dict.fromkeys(
        (
            "center_diff",
            "gran_weight",
            "precision_gran_weight",
            "recall_gran_weight",
            "ot_zero_eps",
            "union_offset",
            "vertical_aspect",
            "vertical_thresh",
        ),
        NON_NEGATIVE,
    ),
    "min_union": (1e-300, math.inf),
    "score_step": (1e-6, 1.0),
    "multiline_angle": (0.0, 180.0),
    "decimals": (0, 15),
    "k": (1, 1000),
}


def check_value(name: str, value: Any) -> None:
    """Raise ValueError when ``value`` is no valid value of the parameter ``name``."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number, got {value}")
    lo, hi = RANGES.get(name, (-math.inf, math.inf))
    if not lo <= value <= hi:
        what = "from 0 to 1" if (lo, hi) == UNIT else f"in [{lo:g}, {hi:g}]"
        raise ValueError(f"{name} must be {what}, got {value:g}")
