"""The HierText family's cards: what each metric is, before any of its code is imported."""

from __future__ import annotations

from metrics.declare.card import Card
from metrics.declare.offers import hierarchical

_F = "metrics.hiertext"
_SRC = "google-research-datasets/hiertext eval.py"
_CANVAS = (
    "GT and detections coloured by verdict; a line joins each matched pair (IoU on it). "
    "A missed GT or false positive is labelled with its best IoU (the near miss)."
)
_CREDIT = (
    "credit 1 when matched: mutually best pair with IoU >= 0.5 ({}); PQ = F × tightness, "
    "the mean IoU of the matches"
)


def _card(level: str, what: str, datasets: str, iou: str) -> Card:
    return Card(
        id=f"hiertext_{level}",
        title=f"HierText {level} PQ",
        family=_F,
        params="HierTextParams",
        aliases=(f"hiertext_{level}s", f"ht_{level}"),
        applies=hierarchical,
        what=what,
        source=_SRC,
        datasets=datasets,
        credit=_CREDIT.format(iou),
        canvas=_CANVAS,
    )


CARDS: tuple[Card, ...] = (
    _card(
        "word",
        "HierText word level: polygon IoU, mutual-best matching at IoU >= 0.5, PQ = F x tightness",
        "HierText (ICDAR 2023 competition)",
        "polygon IoU of the words",
    ),
    _card(
        "line",
        "HierText line level: pixel masks of the words of each line, mutual-best at IoU >= 0.5",
        "HierText",
        "IoU of the pixel masks of each line's words",
    ),
    _card(
        "paragraph",
        "HierText paragraph level: pixel masks of the words of each paragraph",
        "HierText",
        "IoU of the pixel masks of each paragraph's words",
    ),
)
