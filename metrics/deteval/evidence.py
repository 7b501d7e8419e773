"""DetEval's evidence: discarded candidates, match-type labels, absorbed detections and the
area recall / precision of the pairs that overlap (its pair table)."""

from __future__ import annotations

from dataclasses import dataclass

from metrics.core.evidence import Absorbed, Discarded, Evidence, Limit, PairTable
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
        n_gt, n_det = self.area_recall.shape
        return PairTable(
            tuple(range(n_gt)),
            tuple(range(n_det)),
            ("area recall", "area precision"),
            (self.area_recall.dense(), self.area_precision.dense()),
            (
                f"|G ∩ D| / |G| in inclusive pixels; one-to-one needs {self.limits[0]} "
                "(area_recall)",
                f"|G ∩ D| / |D| in inclusive pixels; one-to-one needs {self.limits[1]} "
                "(area_precision)",
            ),
            self.limits,
        )
