"""TedEval's evidence: pseudo character centres, multiline tests, the don't-care rules and
the area recall / precision of the pairs that overlap (its pair table)."""

from __future__ import annotations

from collections.abc import Mapping

from metrics.core.evidence import (
    Evidence,
    FloatArray,
    Limit,
    MultilineTest,
    PairTable,
    PccEvidence,
    area_pair_table,
)
from metrics.core.records import dataclass
from metrics.core.sparse import SparsePairs


@dataclass(frozen=True, slots=True, eq=False)
class TedEvalEvidence(Evidence):
    """TedEval: PCC, multiline tests, the don't-care rule that applied to each detection
    (``"single"`` / ``"sum"``), what is left of such detections after the cut, and the area
    recall / precision of every overlapping (GT, det) pair (file indices) as matched: after
    the don't-care cuts (the pair matrix)."""

    pcc: PccEvidence
    multiline: tuple[MultilineTest, ...]
    dc_det_rule: Mapping[int, str]
    det_polygons_after_dc: Mapping[int, tuple[FloatArray, ...]]
    area_recall: SparsePairs
    area_precision: SparsePairs
    limits: tuple[Limit, Limit]  # one-to-one: area recall, area precision (the params)

    def pcc_evidence(self) -> PccEvidence:
        return self.pcc

    def multiline_tests(self) -> tuple[MultilineTest, ...]:
        return self.multiline

    def pair_table(self) -> PairTable:
        return area_pair_table(
            self.area_recall, self.area_precision, self.limits, "after the don't-care cuts"
        )
