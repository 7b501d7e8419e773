"""Which error classes a metric can have, and in which unit it counts them.

A one-to-one metric (ICDAR IoU, TIoU, VOC, ...) has no split class: it books a word cut in
three as a miss plus false positives (or one match and two false positives when a piece
overlaps enough). Fixing "split" under it fixes nothing and would read as "splits cost
nothing"; the attribution shows such a class as impossible, with the sentence
``impossible`` gives, instead of a gain of 0.

The counts of a class are in the metric's own unit: CLEval counts missed and
false-positive *characters* (its ``miss`` and ``fp_chars`` counters); every other metric
counts boxes (GT boxes, detections, matches). ``count_of`` gives the count and its label.
"""

from __future__ import annotations

from metrics.core.protocols import Params
from metrics.core.results import Evaluation

SPLIT = frozenset(
    {
        "deteval",
        "tedeval",
        "totaltext_deteval",
        "cleval_det",
        "cleval_e2e",
        "cleval_legacy_det",
        "cleval_legacy_e2e",
    }
)
MERGE = SPLIT | {"wordline_iou", "wordline_tiou"}
MULTILINE = frozenset({"tedeval"})
PARTIAL_CREDIT = frozenset(
    {
        "siou",
        "tiou",
        "curved_siou",
        "curved_tiou",
        "wordline_tiou",
        "tedeval",
        "cleval_det",
        "cleval_e2e",
        "cleval_legacy_det",
        "cleval_legacy_e2e",
        "hiertext_word",
        "hiertext_line",
        "hiertext_paragraph",
    }
)
CHARACTERS = frozenset({"cleval_det", "cleval_e2e", "cleval_legacy_det", "cleval_legacy_e2e"})

UNITS = {
    "missed": "GT boxes",
    "false_positive": "detections",
    "split": "split GTs",
    "merge": "merging detections",
    "multiline": "rejected merges",
    "localisation": "GT boxes",
    "tightness": "matches",
    "all": "errors",
}
CLEVAL_COUNTERS = {"missed": "miss", "false_positive": "fp_chars"}


def impossible(metric: str, name: str) -> str:
    """Why ``metric`` cannot have error class ``name`` ("" when it can)."""
    if name == "split" and metric not in SPLIT:
        return (
            f"{metric} has no split class: a split is booked as a miss plus false positives "
            "(or one match plus false positives when a piece overlaps enough)"
        )
    if name == "merge" and metric not in MERGE:
        return (
            f"{metric} has no merge class: a merge is booked as at most one match plus missed GTs"
        )
    if name == "multiline" and metric not in MULTILINE:
        return f"{metric} has no multiline class: only TedEval rejects merges across lines"
    if name == "tightness" and metric not in PARTIAL_CREDIT:
        return (
            f"{metric} gives every match full credit: a loose box costs nothing until it "
            "falls under the threshold (then it counts as localisation)"
        )
    return ""


def count_of(ev: Evaluation[Params], name: str, errors: int) -> tuple[float, str]:
    """The count of class ``name`` in the metric's own unit, and the unit: CLEval's
    character counters for missed and false positives, ``errors`` boxes elsewhere."""
    counter = CLEVAL_COUNTERS.get(name)
    if ev.metric in CHARACTERS and counter is not None and ev.summary is not None:
        return float(ev.summary.tally[counter]), "characters"
    return float(errors), UNITS.get(name, "boxes")
