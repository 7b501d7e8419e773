"""DetEval's discarded candidates in words, for the inspector and the pair matrix.

What each metric is and what each parameter means is declared by its family (its cards and
its Params fields, ``metrics.declare.card`` / ``metrics.declare.params``).
"""

from __future__ import annotations

# DetEval's discarded candidates (``metrics.core.evidence.Discarded``): the stage and the reason
# in words, for the inspector and the pair matrix.
DISCARD_STAGE = {"OO": "one-to-one", "OM": "split (one-to-many)", "MO": "merge (many-to-one)"}
DISCARD_REASON = {
    "not_unique": "more than one candidate meets both area thresholds for this GT or this "
    "detection",
    "not_single_overlap": "the GT or the detection also overlaps other boxes (a one-to-one "
    "match needs a single overlap each)",
    "center_distance": "their centres are too far apart",
    "sum_below_threshold": "the summed area recall (split) or precision (merge) of the group "
    "stays under the threshold",
    "om_not_single": "the GT overlaps fewer than two detections (a split needs two or more)",
    "mo_not_single": "the detection overlaps fewer than two GTs (a merge needs two or more)",
}

DISCARD_SHORT = {
    "not_unique": "several candidates meet the thresholds",
    "not_single_overlap": "overlaps other boxes too",
    "center_distance": "centres too far apart",
    "sum_below_threshold": "summed area under the threshold",
    "om_not_single": "the GT overlaps fewer than 2 detections",
    "mo_not_single": "the detection overlaps fewer than 2 GTs",
}


def discard_line(stage: str, reason: str) -> str:
    """``"split (one-to-many) candidate discarded: <reason in words>"``."""
    why = DISCARD_REASON.get(reason, reason.replace("_", " "))
    return f"{DISCARD_STAGE.get(stage, stage)} candidate discarded: {why}"
