"""Parameters of the ICDAR IoU family (defaults are the official ones), each declared with
its help and range (``metrics.declare.params.param``).

The bottom of the family: imports nothing from it.
"""

from __future__ import annotations

from typing import Protocol

from metrics.core.records import dataclass
from metrics.declare.params import NON_NEGATIVE, UNIT, param

# The words every member shares (the greedy matcher compares with ``>``, spec 1.1).
_IOU = "a GT and a detection match when their IoU is strictly above this"
_DC = "a detection is don't care when more than this share of its area lies in one don't-care GT"
_CONF = (
    "rank detections by confidence before matching (none: when every detection has one; "
    "false: file order)"
)
_FLOAT = "accept non-integer coordinates (false: refuse them, as the official reader does)"
_CW = "refuse quads that are not clockwise, as the official reader does"
_TOL = "a cut or outlier share up to this costs nothing (official 0.01; the paper's rule: 0)"
_EPS = "an outlier area up to this is taken as 0"
_DC_OT = "don't-care GTs count as outliers inside a detection (the official code; the paper: false)"
# The word + text-line choices, declared on the fields and checked when set.
COMPARISONS = (">", ">=")
SKIP_WORD = ("line_index", "none")


@dataclass(frozen=True)
class IouParams:
    """Official defaults (spec 1.1)."""

    iou_threshold: float = param(0.5, _IOU, range=UNIT)
    dc_area_precision: float = param(0.5, _DC, range=UNIT)
    confidences: bool | None = param(None, _CONF + "; the AP of that ranking is reported as ap")
    allow_float: bool = param(True, _FLOAT)
    check_orientation: bool = param(True, _CW)


@dataclass(frozen=True)
class TiouParams:
    """Official defaults (spec 1.1 and 3.1)."""

    iou_threshold: float = param(0.5, _IOU, range=UNIT)
    dc_area_precision: float = param(0.5, _DC, range=UNIT)
    tolerance: float = param(0.01, _TOL, range=UNIT)
    ot_zero_eps: float = param(1e-10, _EPS, range=NON_NEGATIVE)
    dc_as_outlier: bool = param(True, _DC_OT)
    confidences: bool | None = param(None, _CONF)
    allow_float: bool = param(True, _FLOAT)
    check_orientation: bool = param(True, _CW)


@dataclass(frozen=True)
class CurvedParams:
    """Official defaults (spec 3.1, 3.5)."""

    iou_threshold: float = param(0.5, _IOU, range=UNIT)
    dc_area_precision: float = param(0.5, _DC, range=UNIT)
    tolerance: float = param(0.01, _TOL, range=UNIT)
    ot_zero_eps: float = param(1e-10, _EPS, range=NON_NEGATIVE)
    dc_as_outlier: bool = param(True, _DC_OT)
    confidences: bool | None = param(None, _CONF)
    auto_orient: bool = param(
        False,
        "reverse counter-clockwise polygons instead of refusing them (the official curved "
        "script refuses them)",
    )


@dataclass(frozen=True)
class WordlineParams:
    """Official defaults (spec 3.1, 3.6, quirk switches of 3.7)."""

    iou_threshold: float = param(0.5, _IOU, range=UNIT)
    dc_area_precision: float = param(0.5, _DC, range=UNIT)
    tolerance: float = param(0.01, _TOL, range=UNIT)
    ot_zero_eps: float = param(1e-10, _EPS, range=NON_NEGATIVE)
    dc_as_outlier: bool = param(True, _DC_OT)
    membership_op: str = param(
        ">=", "comparison of a word's share inside a text line with membership", choices=COMPARISONS
    )
    membership: float = param(
        0.5, "share of a word inside a text line for the word to belong to it", range=UNIT
    )
    coverage_op: str = param(
        ">", "comparison of a text line's coverage by its words with coverage", choices=COMPARISONS
    )
    coverage: float = param(0.5, "share of a text line its words must cover", range=UNIT)
    skip_word: str = param(
        "line_index",
        "which word a matched line leaves out of its outliers (official: the word whose "
        "index is the line's; the paper: none)",
        choices=SKIP_WORD,
    )
    exclude_dc_words: bool = param(False, "leave don't-care words out of a line's word set")
    confidences: bool | None = param(None, _CONF)
    allow_float: bool = param(True, _FLOAT)
    check_orientation: bool = param(True, _CW)

    def __post_init__(self) -> None:
        """The choices are checked when set (``--set``), never when an image is evaluated."""
        for name, allowed in (
            ("membership_op", COMPARISONS),
            ("coverage_op", COMPARISONS),
            ("skip_word", SKIP_WORD),
        ):
            value = getattr(self, name)
            if value not in allowed:
                raise ValueError(f"{name} must be one of {', '.join(allowed)}, not {value!r}")


@dataclass(frozen=True)
class TiouOptions:
    """The TIoU scripts' numeric options (the curved script's slack differs)."""

    tolerance: float = 0.01
    ot_zero_eps: float = 1e-10
    dc_as_outlier: bool = True
    ot_slack: float = 0.001  # curved script: 0.0


class GreedyParams(Protocol):
    @property
    def iou_threshold(self) -> float: ...
    @property
    def dc_area_precision(self) -> float: ...
    @property
    def confidences(self) -> bool | None: ...
