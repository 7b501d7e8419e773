"""Parameters of the ICDAR IoU family (defaults are the official ones).

The bottom of the family: imports nothing from it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

COMPARISONS = (">", ">=")
SKIP_WORD = ("line_index", "none")


@dataclass(frozen=True)
class IouParams:
    """Official defaults (spec 1.1)."""

    iou_threshold: float = 0.5
    dc_area_precision: float = 0.5
    confidences: bool | None = None  # None: sort by confidence when every det has one
    allow_float: bool = True  # false: refuse non-integers (official; --floats refuse)
    check_orientation: bool = True


@dataclass(frozen=True)
class TiouParams:
    """Official defaults (spec 1.1 and 3.1)."""

    iou_threshold: float = 0.5
    dc_area_precision: float = 0.5
    tolerance: float = 0.01
    ot_zero_eps: float = 1e-10
    dc_as_outlier: bool = True
    confidences: bool | None = None
    allow_float: bool = True  # false: refuse non-integers (official; --floats refuse)
    check_orientation: bool = True


@dataclass(frozen=True)
class CurvedParams:
    """Official defaults (spec 3.1, 3.5)."""

    iou_threshold: float = 0.5
    dc_area_precision: float = 0.5
    tolerance: float = 0.01
    ot_zero_eps: float = 1e-10
    dc_as_outlier: bool = True
    confidences: bool | None = None
    auto_orient: bool = False


@dataclass(frozen=True)
class WordlineParams:
    """Official defaults (spec 3.1, 3.6, quirk switches of 3.7)."""

    iou_threshold: float = 0.5
    dc_area_precision: float = 0.5
    tolerance: float = 0.01
    ot_zero_eps: float = 1e-10
    dc_as_outlier: bool = True
    membership_op: str = ">="
    membership: float = 0.5
    coverage_op: str = ">"
    coverage: float = 0.5
    skip_word: str = "line_index"  # or "none" (paper)
    exclude_dc_words: bool = False
    confidences: bool | None = None
    allow_float: bool = True  # false: refuse non-integers (official; --floats refuse)
    check_orientation: bool = True

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
