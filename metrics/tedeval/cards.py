"""TedEval's card: what the metric is, before any of its code is imported."""

from __future__ import annotations

from metrics.declare.card import Card
from metrics.declare.offers import quad_data

PCC_CANVAS = (
    "Dots are pseudo character centres (PCC) of each GT: red missed, green counted once, "
    "orange counted by several detections. Links show one-to-one, split and merge groups."
)

CARDS: tuple[Card, ...] = (
    Card(
        id="tedeval",
        title="TedEval",
        family="metrics.tedeval",
        params="TedEvalParams",
        aliases=("ted",),
        applies=quad_data,
        what="TedEval: character-level recall and precision from pseudo character centres, "
        "one-to-many and many-to-one matching, a multiline test for merges",
        source="clovaai/TedEval script.py",
        datasets="ICDAR 2013, ICDAR 2015",
        credit="recall = GT characters (PCC) counted / characters; precision = detection "
        "area credit, both with the one-to-many / many-to-one rules",
        canvas=PCC_CANVAS + " Diamonds and squares are the multiline pivots (square: rejected).",
    ),
)
