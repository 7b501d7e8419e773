"""DetEval parameters (official defaults, spec 2.1). The bottom of the family."""

from __future__ import annotations

from dataclasses import dataclass

VARIANTS = ("rrc", "legacy")
EMPTY_RULES = ("official", "ic15")


@dataclass(frozen=True)
class DetEvalParams:
    """Official defaults (spec 2.1); ``variant`` (2.7) and ``per_image_empty_rule`` (2.5 Q6)."""

    area_recall: float = 0.8
    area_precision: float = 0.4
    center_diff: float = 1.0
    w_oo: float = 1.0
    w_om: float = 0.8
    w_mo: float = 1.0
    variant: str = "rrc"
    per_image_empty_rule: str = "official"
    allow_float: bool = True  # false: refuse non-integers (official; --floats refuse)

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
