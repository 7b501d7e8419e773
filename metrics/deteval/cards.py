"""DetEval's card: what the metric is, before any of its code is imported."""

from __future__ import annotations

from metrics.declare.card import Card
from metrics.declare.offers import ltrb_only

CARDS: tuple[Card, ...] = (
    Card(
        id="deteval",
        title="ICDAR13 DetEval",
        family="metrics.deteval",
        params="DetEvalParams",
        aliases=("ic13", "deteval13"),
        applies=ltrb_only,
        what="ICDAR 2013 DetEval: one-to-one, split (one GT, several dets, credit 0.8) and "
        "merge on area recall >= 0.8 and area precision >= 0.4",
        source="RRC TL2p DetEval script",
        datasets="ICDAR 2013, ICDAR 2011",
        credit="1 for one-to-one, 0.8 for the GT and each detection of a split, 1 for each GT "
        "of a merge and its detection",
        canvas="Links by kind: one-to-one, split (one GT, several dets), merge (several GTs, "
        "one det). The inspector and the pair matrix list the candidates DetEval discarded "
        "and why.",
    ),
)
