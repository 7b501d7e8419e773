"""MMOCR's evidence: what happened at every threshold of the score sweep."""

from __future__ import annotations

from metrics.core.evidence import Absorbed, Evidence, States
from metrics.core.records import dataclass


@dataclass(frozen=True, slots=True)
class SweepEvidence(Evidence):
    """A score-threshold sweep (MMOCR ``HmeanIOUMetric``): what happened at every threshold.

    ``scores`` are the detections' scores as compared (float32 for MMOCR), aligned with the
    det list, and ``levels[j]`` the number of thresholds at which det j is counted (kept
    sets shrink as the threshold grows: det j counts at ``thresholds[:levels[j]]``);
    ``pairs[k]`` the (GT, det) pairs matched at ``thresholds[k]``, ``pair_iou[k]`` their
    IoU; ``shown`` the threshold whose verdicts and matches the result shows (the globally
    best one once the metric's ``finalize`` has run). ``below_min_threshold`` lists the dets
    under the lowest threshold, ``ignored_overlap`` those dropped by an ignored GT (the GT
    and the ratio each), ``gt_removed`` the GT taken out before evaluation (< 3 points).
    """

    thresholds: tuple[float, ...]
    scores: tuple[float, ...]
    levels: tuple[int, ...]
    pairs: tuple[tuple[tuple[int, int], ...], ...]
    pair_iou: tuple[tuple[float, ...], ...]
    shown: int = 0
    below_min_threshold: tuple[int, ...] = ()
    ignored_overlap: tuple[Absorbed, ...] = ()
    gt_removed: tuple[int, ...] = ()

    def instance_states(self) -> States:
        """Detections under the shown score threshold are ``below_threshold``."""
        below = {j: "below_threshold" for j, lv in enumerate(self.levels) if lv <= self.shown}
        return {}, below
