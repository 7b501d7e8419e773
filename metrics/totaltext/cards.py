"""The Total-Text family's cards: what each metric is, before any of its code is imported."""

from __future__ import annotations

from metrics.declare.card import Card
from metrics.declare.offers import totaltext_like

_F = "metrics.totaltext"
_SRC = "Total-Text-Dataset Evaluation_Protocol "
_IOU_CANVAS = (
    "GT and detections coloured by verdict; a line joins each matched pair (IoU on it). "
    "A missed GT or false positive is labelled with its best IoU (the near miss)."
)

CARDS: tuple[Card, ...] = (
    Card(
        id="totaltext_deteval",
        title="Total-Text DetEval",
        family=_F,
        params="TotalTextDetEvalParams",
        aliases=("tt_deteval",),
        applies=totaltext_like,
        what="Total-Text's DetEval: one-to-one, one-to-many and many-to-one on polygons with "
        "tr 0.7, tp 0.6 and split/merge weight 0.8 (coverages rounded to 2 decimals)",
        source=_SRC + "Deteval.py",
        datasets="Total-Text (the dataset's own protocol, most curved-text papers)",
        credit="1 for OO, 0.8 for OM (per GT; per det on the precision side) and MO, on "
        "coverages sigma = |G ∩ D| / |G|, tau = |G ∩ D| / |D| rounded to 2 decimals",
        canvas="Links by kind (OO, OM, MO); the inspector gives sigma (GT coverage) and tau "
        "(detection coverage) of each pair.",
    ),
    Card(
        id="totaltext_voc",
        title="Total-Text Pascal VOC",
        family=_F,
        params="TotalTextVocParams",
        aliases=("tt_voc",),
        applies=totaltext_like,
        what="Total-Text's Pascal-VOC rule: one-to-one, IoU >= 0.5 with +1 in the union, each "
        "detection against its single best GT",
        source=_SRC + "Pascal_VOC.py",
        datasets="Total-Text",
        credit="credit 1 when matched: |G ∩ D| / (|G ∪ D| + 1) >= 0.5 with the best GT",
        canvas=_IOU_CANVAS + " A detection whose best GT was already taken is a false positive.",
    ),
)
