"""DetEval parameters (official defaults, spec 2.1). The bottom of the family."""

from __future__ import annotations

from metrics.core.records import dataclass
from metrics.declare.params import NON_NEGATIVE, UNIT, param

VARIANTS = ("rrc", "legacy")
EMPTY_RULES = ("official", "ic15")


@dataclass(frozen=True)
class DetEvalParams:
    """Official defaults (spec 2.1); ``variant`` (2.7) and ``per_image_empty_rule`` (2.5 Q6)."""

    area_recall: float = param(
        0.8, "minimum share of the GT covered by the detection (DetEval tr, >=)", range=UNIT
    )
    area_precision: float = param(
        0.4, "minimum share of the detection covering the GT (DetEval tp, >=)", range=UNIT
    )
    center_diff: float = param(
        1.0,
        "a one-to-one match needs 2 × the distance of the box centres / the sum of the "
        "box diagonals strictly below this",
        range=NON_NEGATIVE,
    )
    w_oo: float = param(1.0, "credit of a one-to-one match", range=UNIT)
    w_om: float = param(
        0.8,
        "credit of a split (one GT, several detections), for the GT and each detection",
        range=UNIT,
    )
    w_mo: float = param(1.0, "credit of a merge (several GTs, one detection)", range=UNIT)
    variant: str = param(
        "rrc",
        "which copy of the official script: rrc (the RRC site's) or legacy (older copies: no "
        "single-overlap test, no rounding)",
        choices=VARIANTS,
    )
    per_image_empty_rule: str = param(
        "official",
        "per-image scores of an image without detections: official (R = P = 0, H = 0) or ic15",
        choices=EMPTY_RULES,
    )
    allow_float: bool = param(
        True, "accept non-integer coordinates (false: refuse them, as the official reader does)"
    )

    def __post_init__(self) -> None:
        if self.variant not in VARIANTS:
            raise ValueError(f"variant must be one of {VARIANTS}, not {self.variant!r}")
        if self.per_image_empty_rule not in EMPTY_RULES:
            raise ValueError(
                f"per_image_empty_rule must be one of {EMPTY_RULES}, "
                f"not {self.per_image_empty_rule!r}"
            )

    @property
    def legacy(self) -> bool:
        return self.variant == "legacy"
