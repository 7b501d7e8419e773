"""The Total-Text family's evidence: the rounded sigma / tau tables (DetEval) and the IoU
table (VOC), which are their pair tables, and the detections don't-care GTs absorbed."""

from __future__ import annotations

from dataclasses import dataclass

from metrics.core.evidence import (
    Absorbed,
    Evidence,
    FloatArray,
    PairTable,
    States,
    VocFalsePositive,
    gt_taken,
)


@dataclass(frozen=True, slots=True, eq=False)
class TotalTextDetEvalEvidence(Evidence):
    """Total-Text DetEval: the rounded sigma / tau tables (rows = ``care_gt``, columns =
    ``kept_det``, both file indices) and the detections the don't-care filter removed, with
    the GT that absorbed each and its ``inter / (area + 1)``."""

    care_gt: tuple[int, ...]
    kept_det: tuple[int, ...]
    sigma: FloatArray
    tau: FloatArray
    dc_dets: tuple[Absorbed, ...]

    def pair_table(self) -> PairTable:
        return PairTable(
            self.care_gt,
            self.kept_det,
            ("sigma", "tau"),
            (self.sigma, self.tau),
            (
                "|G ∩ D| / |G| (GT covered), rounded to 2 decimals",
                "|G ∩ D| / |D| (detection covered), rounded to 2 decimals",
            ),
        )


@dataclass(frozen=True, slots=True, eq=False)
class TotalTextVocEvidence(Evidence):
    """Total-Text VOC: the IoU table (rows = ``care_gt``, columns = ``kept_det``), why each
    false positive is one, and the detections absorbed by don't-care GTs."""

    care_gt: tuple[int, ...]
    kept_det: tuple[int, ...]
    iou: FloatArray
    false_positives: tuple[VocFalsePositive, ...]
    dc_dets: tuple[Absorbed, ...]

    def pair_table(self) -> PairTable:
        return PairTable(
            self.care_gt, self.kept_det, ("IoU",), (self.iou,), ("|G ∩ D| / (|G ∪ D| + 1)",)
        )

    def instance_states(self) -> States:
        return {}, gt_taken(self.false_positives)
