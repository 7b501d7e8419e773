"""False positives one detector made and the other did not (the failure gallery's "false
positives of B that A did not make").

Two detectors' boxes never share coordinates, so "the same false positive" is a geometric
question: a false positive of one side is "made by the other too" when a false positive of
the other side covers it with an IoU of at least ``iou`` (0.5, the ICDAR rule); the others
are that side's own. Only the metric's verdicts are read (which detections are false
positives); the IoU is computed here, on the detections as given.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import shapely

from metrics.core.model import Instance
from metrics.core.results import SampleResult, Verdict
from metrics.shapes.geometry import intersection_areas, polygons
from metrics.shapes.matching import pair_iou

SAME_FP_IOU = 0.5


def _false_positives(r: SampleResult | None) -> list[int]:
    return [] if r is None else [d.index for d in r.det if d.verdict is Verdict.FALSE_POSITIVE]


def false_positives_only(
    mine: Sequence[Instance],
    my_result: SampleResult | None,
    theirs: Sequence[Instance],
    their_result: SampleResult | None,
    iou: float = SAME_FP_IOU,
) -> tuple[int, ...]:
    """Indices of my false positives (into ``mine``) that no false positive of the other
    side covers at IoU >= ``iou``; () when the other side has no result for the image."""
    own = [i for i in _false_positives(my_result) if i < len(mine)]
    if not own or their_result is None:
        return ()
    other = [j for j in _false_positives(their_result) if j < len(theirs)]
    if not other:
        return tuple(own)
    ga, _ = polygons([np.asarray(mine[i].points, np.float64).reshape(-1, 2) for i in own])
    gb, _ = polygons([np.asarray(theirs[j].points, np.float64).reshape(-1, 2) for j in other])
    inter = intersection_areas(ga, gb)
    values = pair_iou(inter, shapely.area(ga)[:, None], shapely.area(gb)[None, :])
    return tuple(i for i, row in zip(own, values, strict=True) if not bool((row >= iou).any()))
