"""CLEval parameters (official defaults, spec 5.1) and the rules the four variants differ by.

The bottom of the family: imports nothing from it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

BoxMode = Literal["auto", "QUAD", "POLY"]


def _check_choice(name: str, value: str, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise ValueError(f"{name} must be one of {allowed}, not {value!r}")


@dataclass(frozen=True)
class ClevalParams:
    """cleval 0.1.1 defaults (spec 5.1), plus the switches of spec 7."""

    area_precision: float = 0.3
    recall_gran_weight: float = 1.0
    precision_gran_weight: float = 1.0
    vertical_thresh: float = 0.5  # vertical iff w/h < thresh
    case_sensitive: bool = True
    fp_chars: Literal["official", "paper"] = "official"
    confidences: bool | None = None  # None: sort by confidence when every det has one
    box_type: BoxMode = "auto"
    allow_float: bool = True  # false: refuse non-integer QUAD/LTRB (official; --floats refuse)

    def __post_init__(self) -> None:
        _check_choice("fp_chars", self.fp_chars, ("official", "paper"))
        _check_choice("box_type", self.box_type, ("auto", "QUAD", "POLY"))


@dataclass(frozen=True)
class ClevalLegacyParams:
    """Paper-era CLEval defaults (@769dde2, spec 5.1), plus the switches of spec 7."""

    area_precision: float = 0.5
    gran_weight: float = 1.0
    vertical_thresh: float = 2.0  # vertical iff h/w >= thresh
    case_sensitive: bool = True
    rs: Literal["official", "paper"] = "official"
    confidences: bool | None = None
    box_type: BoxMode = "auto"
    allow_float: bool = True
    check_orientation: bool = True  # the legacy RRC helper rejects anticlockwise QUADs

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
