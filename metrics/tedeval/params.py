"""TedEval parameters (official defaults, spec 4.1). The bottom of the family."""

from __future__ import annotations

from dataclasses import dataclass

PIVOT_CENTERS = ("centroid", "vertex_mean")


@dataclass(frozen=True)
class TedEvalParams:
    """Official defaults (spec 4.1); ``pivot_center`` is the paper switch of spec 7 row 20."""

    area_recall: float = 0.4
    area_precision: float = 0.4
    center_diff: float = 1.0
    vertical_aspect: float = 1.5
    multiline_angle: float = 45.0
    pivot_center: str = "centroid"
    confidences: bool | None = None  # None: sort by confidence when every det has one
    allow_float: bool = True  # false: refuse non-integers (official, spec 7 row 1; --floats refuse)

    def __post_init__(self) -> None:
        if self.pivot_center not in PIVOT_CENTERS:
            raise ValueError(
                f"pivot_center must be one of {PIVOT_CENTERS}, not {self.pivot_center!r}"
            )
