"""Parameters of MMOCR's ``HmeanIOUMetric`` (defaults are the official ones).

The bottom of the family: imports nothing from it.
"""

from __future__ import annotations

import functools
from typing import Literal

from metrics.core.records import dataclass
from metrics.declare.params import UNIT, param

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

    strategy: Strategy = param(
        "vanilla", "how pairs are matched: vanilla (greedy) or max_matching (maximum bipartite)"
    )
    match_iou_thr: float = param(
        0.5, "a GT and a detection match when their IoU is strictly above this", range=UNIT
    )
    ignore_precision_thr: float = param(
        0.5,
        "a detection is ignored when more than this share of its area lies in one ignored GT",
        range=UNIT,
    )
    score_start: float = param(0.3, "lowest score threshold of the sweep", range=UNIT)
    score_stop: float = param(
        0.9,
        "end of the sweep (exclusive, but 0.9 is reached by floating-point error)",
        range=UNIT,
    )
    score_step: float = param(0.1, "step between the sweep's score thresholds", range=(1e-6, 1.0))
    decimal_scores: bool = param(
        False,
        "compare the written decimal score with the threshold rounded to 10 decimals (false: "
        "the official float32 comparison, which drops scores written 0.7 or 0.9 at those "
        "thresholds)",
    )

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
    import numpy as np  # the params are read by --describe and the viewer without numpy

    return tuple(float(t) for t in np.arange(start, stop, step))


@dataclass(frozen=True)
class HmeanIouMaxMatchParams(HmeanIouParams):
    """``HmeanIOUMetric(strategy='max_matching')``."""

    strategy: Strategy = param(
        "max_matching",
        "how pairs are matched: vanilla (greedy) or max_matching (maximum bipartite)",
    )
