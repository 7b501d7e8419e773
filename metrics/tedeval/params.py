"""TedEval parameters (official defaults, spec 4.1). The bottom of the family."""

from __future__ import annotations

from metrics.core.records import dataclass
from metrics.declare.params import NON_NEGATIVE, UNIT, param

PIVOT_CENTERS = ("centroid", "vertex_mean")


@dataclass(frozen=True)
class TedEvalParams:
    """Official defaults (spec 4.1); ``pivot_center`` is the paper switch of spec 7 row 20."""

    area_recall: float = param(
        0.4,
        "minimum share of the GT covered by the detection (>=; a split sums them)",
        range=UNIT,
    )
    area_precision: float = param(
        0.4,
        "minimum share of the detection covering the GT (>=; a merge sums them)",
        range=UNIT,
    )
    center_diff: float = param(
        1.0,
        "a one-to-one match needs the normalised distance of the box centres strictly below this",
        range=NON_NEGATIVE,
    )
    vertical_aspect: float = param(
        1.5,
        "a GT word whose height / width is above this has its characters running vertically",
        range=NON_NEGATIVE,
    )
    multiline_angle: float = param(
        45.0,
        "largest angle (degrees) between the pivots of a split or merge for its words to be on "
        "one line",
        range=(0.0, 180.0),
    )
    pivot_center: str = param(
        "centroid",
        "centre the multiline pivots are taken from: centroid (the code) or vertex_mean (the "
        "paper)",
        choices=PIVOT_CENTERS,
    )
    confidences: bool | None = param(
        None,
        "rank detections by confidence before matching (none: when every detection has one; "
        "false: file order)",
    )
    allow_float: bool = param(
        True, "accept non-integer coordinates (false: refuse them, as the official reader does)"
    )

    def __post_init__(self) -> None:
        if self.pivot_center not in PIVOT_CENTERS:
            raise ValueError(
                f"pivot_center must be one of {PIVOT_CENTERS}, not {self.pivot_center!r}"
            )
