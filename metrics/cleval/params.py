"""CLEval parameters (official defaults, spec 5.1) and the rules the four variants differ by.

The bottom of the family: imports nothing from it.
"""

from __future__ import annotations

from typing import Literal

from metrics.core.records import dataclass
from metrics.declare.params import NON_NEGATIVE, UNIT, param

BoxMode = Literal["auto", "QUAD", "POLY"]

_CASE = "compare transcriptions with case (end-to-end metrics)"
_CONF = (
    "rank detections by confidence before matching (none: when every detection has one; "
    "false: file order)"
)
_BOX = "how boxes are read: auto (from the vertex count), QUAD or POLY"
_FLOAT = "accept non-integer QUAD / LTRB coordinates (false: refuse them, as the official reader)"


def _check_choice(name: str, value: str, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise ValueError(f"{name} must be one of {allowed}, not {value!r}")


@dataclass(frozen=True)
class ClevalParams:
    """cleval 0.1.1 defaults (spec 5.1), plus the switches of spec 7."""

    area_precision: float = param(
        0.3,
        "a pair qualifies when at least this share of the detection lies in the GT (a merge "
        "sums them)",
        range=UNIT,
    )
    recall_gran_weight: float = param(
        1.0,
        "weight of the split penalty (detections - 1 per split GT) on recall",
        range=NON_NEGATIVE,
    )
    precision_gran_weight: float = param(
        1.0,
        "weight of the merge penalty (GTs - 1 per merged detection) on precision",
        range=NON_NEGATIVE,
    )
    vertical_thresh: float = param(
        0.5,
        "a box whose width / height is below this has its characters running vertically",
        range=NON_NEGATIVE,
    )
    case_sensitive: bool = param(True, _CASE)
    fp_chars: Literal["official", "paper"] = param(
        "official",
        "characters an unmatched detection costs: official (round(0.5 + h/w), 1 for any wide "
        "box) or paper (long side / short side)",
    )
    confidences: bool | None = param(None, _CONF)
    box_type: BoxMode = param("auto", _BOX)
    allow_float: bool = param(True, _FLOAT)

    def __post_init__(self) -> None:
        _check_choice("fp_chars", self.fp_chars, ("official", "paper"))
        _check_choice("box_type", self.box_type, ("auto", "QUAD", "POLY"))


@dataclass(frozen=True)
class ClevalLegacyParams:
    """Paper-era CLEval defaults (@769dde2, spec 5.1), plus the switches of spec 7."""

    area_precision: float = param(
        0.5,
        "a pair qualifies when at least this share of the detection lies in the GT (a merge "
        "sums them)",
        range=UNIT,
    )
    gran_weight: float = param(
        1.0,
        "weight of the granularity penalty (splits on recall, merges on precision)",
        range=NON_NEGATIVE,
    )
    vertical_thresh: float = param(
        2.0,
        "a box whose height / width is at least this has its characters running vertically",
        range=NON_NEGATIVE,
    )
    case_sensitive: bool = param(True, _CASE)
    rs: Literal["official", "paper"] = param(
        "official",
        "recognition score: official (consumed / detection characters) or paper (over "
        "max(GT, detection characters))",
    )
    confidences: bool | None = param(None, _CONF)
    box_type: BoxMode = param("auto", _BOX)
    allow_float: bool = param(True, _FLOAT)
    check_orientation: bool = param(
        True, "refuse quads that are not clockwise, as the legacy RRC helper does"
    )

    def __post_init__(self) -> None:
        _check_choice("rs", self.rs, ("official", "paper"))
        _check_choice("box_type", self.box_type, ("auto", "QUAD", "POLY"))


@dataclass(frozen=True, slots=True)
class Rules:
    """Everything that differs between the four CLEval metrics and their switches."""

    legacy: bool
    e2e: bool
    c: float
    w_r: float
    w_p: float
    vertical_thresh: float
    case_sensitive: bool = True
    fp_paper: bool = False
    rs_paper: bool = False
    confidences: bool | None = None
    box_type: str = "auto"


Params = ClevalParams | ClevalLegacyParams
