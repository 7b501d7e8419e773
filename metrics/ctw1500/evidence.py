"""SCUT-CTW1500's evidence: the detections in evaluation order (the AP curve), the false
positives with their reason, skipped detections and invalid GT."""

from __future__ import annotations

from metrics.core.evidence import Evidence, Skipped, States, VocFalsePositive, gt_taken
from metrics.core.records import dataclass


@dataclass(frozen=True, slots=True)
class VocEvidence(Evidence):
    """``ctw1500_eval``: the detections in evaluation order (the AP curve), the false
    positives with their reason, skipped detections and invalid GT (IoU 0, still counted).

    ``order`` lists the detections in evaluation order; ``confidence``, ``tp`` and ``fp`` are
    aligned with it (``tp``/``fp``: what each adds to the cumulative P/R curve; a skipped
    detection adds neither). ``det_file`` (the detection file's name) orders the images as
    the official tool does; ``sorted_by_confidence`` says whether the intended confidence
    sort was applied."""

    det_file: str
    order: tuple[int, ...]
    confidence: tuple[float, ...]
    tp: tuple[bool, ...]
    fp: tuple[bool, ...]
    false_positives: tuple[VocFalsePositive, ...]
    skipped_dets: tuple[Skipped, ...]
    invalid_gt: tuple[Skipped, ...]
    sorted_by_confidence: bool = False

    def skipped(self) -> tuple[tuple[Skipped, ...], tuple[Skipped, ...]]:
        return self.invalid_gt, self.skipped_dets

    def instance_states(self) -> States:
        gts, dets = Evidence.instance_states(self)
        return gts, {**dets, **gt_taken(self.false_positives)}
