"""The Total-Text family's evidence: the rounded sigma / tau tables (DetEval) and the IoU
table (VOC), which are their pair tables, and the detections don't-care GTs absorbed."""

from __future__ import annotations

from metrics.core.evidence import (
    Absorbed,
    Evidence,
    FloatArray,
    Limit,
    PairTable,
    States,
    VocFalsePositive,
    gt_taken,
)
from metrics.core.records import dataclass


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
    limits: tuple[Limit, Limit]  # one-to-one: sigma > tr, tau > tp (the params)

    def pair_table(self) -> PairTable:
        return PairTable(
            self.care_gt,
            self.kept_det,
            ("sigma", "tau"),
            (self.sigma, self.tau),
            (
                f"|G ∩ D| / |G| (GT covered), rounded; one-to-one needs {self.limits[0]} (tr), "
                "a split or merge >= tr",
                f"|G ∩ D| / |D| (detection covered), rounded; one-to-one needs {self.limits[1]} "
                "(tp), a split or merge >= tp",
            ),
            self.limits,
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
    limit: Limit  # IoU >= iou_threshold (the params)

    def pair_table(self) -> PairTable:
        return PairTable(
            self.care_gt,
            self.kept_det,
            ("IoU",),
            (self.iou,),
            (f"|G ∩ D| / (|G ∪ D| + offset); a detection matches its best GT at {self.limit}",),
            (self.limit,),
        )

    def instance_states(self) -> States:
        return {}, gt_taken(self.false_positives)
