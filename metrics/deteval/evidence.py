"""DetEval's evidence: discarded candidates, match-type labels, absorbed detections and the
area recall / precision of the pairs that overlap (its pair table)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from metrics.core.evidence import Absorbed, Evidence, PairTable
from metrics.core.sparse import SparsePairs


@dataclass(frozen=True, slots=True)
class Discarded:
    """A DetEval candidate that did not become a match, with the reason and its numbers.

    ``reason`` is one of ``not_unique``, ``not_single_overlap``, ``center_distance``,
    ``sum_below_threshold``, ``om_not_single``, ``mo_not_single`` (spec 2.3); ``stage`` is
    ``"OO"``, ``"OM"`` or ``"MO"``; ``values`` holds e.g. ``S``, ``d``, ``gt_overlaps``.
    """

    reason: str
    gt: tuple[int, ...]
    det: tuple[int, ...]
    stage: str = "OO"
    values: Mapping[str, float] = field(default_factory=dict)


@dataclass(frozen=True, slots=True, eq=False)
class DetEvalEvidence(Evidence):
    """DetEval: discarded candidates, the official match-type labels, absorbed detections
    and the GT x det area recall / area precision of the pairs that overlap (sparse)."""

    discarded: tuple[Discarded, ...]
    match_types: tuple[str, ...]
    dc_dets: tuple[Absorbed, ...]
    area_recall: SparsePairs
    area_precision: SparsePairs

    def pair_table(self) -> PairTable:
        n_gt, n_det = self.area_recall.shape
        return PairTable(
            tuple(range(n_gt)),
            tuple(range(n_det)),
            ("area recall", "area precision"),
            (self.area_recall.dense(), self.area_precision.dense()),
            (
                "|G ∩ D| / |G| in inclusive pixels; one-to-one needs >= area_recall (0.8)",
                "|G ∩ D| / |D| in inclusive pixels; one-to-one needs >= area_precision (0.4)",
            ),
        )
