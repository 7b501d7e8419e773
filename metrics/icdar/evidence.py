"""The ICDAR IoU family's evidence: the ranked detections behind ic15_iou's AP."""

from __future__ import annotations

from metrics.core.evidence import Evidence
from metrics.core.records import dataclass


@dataclass(frozen=True, slots=True)
class RankedDetection:
    """ICDAR15 AP input: a care detection's confidence and whether it matched (spec 1.3)."""

    confidence: float
    matched: bool


@dataclass(frozen=True, slots=True)
class IouEvidence(Evidence):
    """``ic15_iou``: the ranked care detections behind the AP (empty without confidences)."""

    ranked: tuple[RankedDetection, ...] = ()
