"""PaddleOCR's evidence: the polygons skipped entirely."""

from __future__ import annotations

from metrics.core.evidence import Evidence, Skipped
from metrics.core.records import dataclass


@dataclass(frozen=True, slots=True)
class SkippedEvidence(Evidence):
    """``paddleocr_det_iou``: GT and detections skipped entirely (not valid or not simple
    after padding), which count nowhere and cannot absorb or match anything."""

    gt_invalid_skipped: tuple[Skipped, ...]
    det_invalid_skipped: tuple[Skipped, ...]

    def skipped(self) -> tuple[tuple[Skipped, ...], tuple[Skipped, ...]]:
        return self.gt_invalid_skipped, self.det_invalid_skipped
