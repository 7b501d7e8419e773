"""The MMOCR family's cards: what each metric is, before any of its code is imported."""

from __future__ import annotations

from metrics.declare.card import Card
from metrics.declare.offers import with_confidences

_F = "metrics.mmocr"
_REQUIRES = "a confidence (score) on every detection line"
_CANVAS = (
    "GT and detections coloured by verdict; a line joins each matched pair (IoU on it). "
    "A missed GT or false positive is labelled with its best IoU (the near miss)."
)
_CREDIT = "credit 1 when matched at the shown score threshold (IoU > 0.5"

CARDS: tuple[Card, ...] = (
    Card(
        id="mmocr_hmean_iou",
        title="MMOCR hmean-iou",
        family=_F,
        params="HmeanIouParams",
        aliases=("mmocr",),
        applies=with_confidences,
        requires=_REQUIRES,
        what="MMOCR HmeanIOUMetric: ICDAR-style IoU matching swept over 7 score thresholds; "
        "the best H-mean of the sweep is reported (chosen on the evaluated set)",
        source="MMOCR 1.x HmeanIOUMetric (strategy vanilla)",
        datasets="what MMOCR training logs print (ICDAR 2015, Total-Text, CTW1500)",
        credit=_CREDIT + ", greedy)",
        canvas=_CANVAS + " Detections under the shown threshold or dropped by the ignore rule "
        "are drawn as don't care.",
    ),
    Card(
        id="mmocr_hmean_iou_maxmatch",
        title="MMOCR hmean-iou (max_matching)",
        family=_F,
        params="HmeanIouMaxMatchParams",
        aliases=("mmocr_maxmatch",),
        applies=with_confidences,
        requires=_REQUIRES,
        what="MMOCR HmeanIOUMetric with maximum bipartite matching instead of greedy",
        source="MMOCR 1.x HmeanIOUMetric (strategy max_matching)",
        datasets="MMOCR configs that set strategy='max_matching'",
        credit=_CREDIT + ", the most pairs a maximum bipartite matching finds)",
        canvas=_CANVAS,
    ),
)
