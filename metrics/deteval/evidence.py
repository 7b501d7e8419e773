"""DetEval's evidence: discarded candidates, match-type labels, absorbed detections and the
area recall / precision of the pairs that overlap (its pair table)."""

from __future__ import annotations

from metrics.core.evidence import (
    Absorbed,
    Discarded,
    Evidence,
    Limit,
    PairTable,
    area_pair_table,
)
from metrics.core.records import dataclass
from metrics.core.sparse import SparsePairs

__all__ = ["DetEvalEvidence", "Discarded"]


@dataclass(frozen=True, slots=True, eq=False)
class DetEvalEvidence(Evidence):
    """DetEval: discarded candidates, the official match-type labels, absorbed detections
    and the GT x det area recall / area precision of the pairs that overlap (sparse)."""

    discarded: tuple[Discarded, ...]
    match_types: tuple[str, ...]
    dc_dets: tuple[Absorbed, ...]
    area_recall: SparsePairs
    area_precision: SparsePairs
    limits: tuple[Limit, Limit]  # one-to-one: area recall, area precision (the params)

    def discarded_candidates(self) -> tuple[Discarded, ...]:
        return self.discarded

    def pair_table(self) -> PairTable:
        return area_pair_table(
            self.area_recall, self.area_precision, self.limits, "in inclusive pixels"
        )
