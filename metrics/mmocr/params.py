"""Parameters of MMOCR's ``HmeanIOUMetric`` (defaults are the official ones).

The bottom of the family: imports nothing from it.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Literal

import numpy as np

Strategy = Literal["vanilla", "max_matching"]


@dataclass(frozen=True)
class HmeanIouParams:
    """MMOCR 1.x defaults (TOOLKITS.md sections 2-4).

    ``score_start/stop/step`` give the sweep ``np.arange(start, stop, step)``: 7 values by
    default, the "exclusive" stop 0.9 included by floating-point error, as in MMOCR.
    ``decimal_scores`` = False is the official comparison: the score as float32 against
    the float64 threshold, ``not (score < t)``, which drops scores written 0.7 or 0.9 at the
    0.7 / 0.9 thresholds; True gives the intended rule, the written decimal score
    ``>=`` the threshold rounded to 10 decimals.
    """

    strategy: Strategy = "vanilla"
    match_iou_thr: float = 0.5
    ignore_precision_thr: float = 0.5
    score_start: float = 0.3
    score_stop: float = 0.9
    score_step: float = 0.1
    decimal_scores: bool = False

    def __post_init__(self) -> None:
        if self.strategy not in ("vanilla", "max_matching"):
            raise ValueError(f"strategy must be vanilla or max_matching, not {self.strategy!r}")
        if not self.score_step > 0:
            raise ValueError("score_step must be positive (the kept sets must shrink)")

    @property
    def thresholds(self) -> tuple[float, ...]:
        return _thresholds(self.score_start, self.score_stop, self.score_step)


@functools.lru_cache(maxsize=64)
def _thresholds(start: float, stop: float, step: float) -> tuple[float, ...]:
    """``np.arange(start, stop, step)`` as floats (asked once per sample: memoized)."""
    return tuple(float(t) for t in np.arange(start, stop, step))


@dataclass(frozen=True)
class HmeanIouMaxMatchParams(HmeanIouParams):
    """``HmeanIOUMetric(strategy='max_matching')``."""

    strategy: Strategy = "max_matching"
