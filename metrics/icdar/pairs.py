"""The pair table of the IoU family for one image: IoU of every GT x detection pair, with the
polygons, don't-care rule and detection order of the metric (``prepare``)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from metrics.core.evidence import PairTable
from metrics.core.model import Sample
from metrics.icdar.common import prepare
from metrics.icdar.params import GreedyParams
from metrics.shapes.cache import GeometryCache


def iou_table(*, curved: bool) -> Callable[[Sample, GreedyParams], PairTable]:
    """The pair table of ``ic15_iou`` / ``siou`` / ``tiou`` (or their curved variants)."""

    def table(sample: Sample, params: GreedyParams) -> PairTable:
        p = prepare(
            sample,
            curved=curved,
            dc_threshold=params.dc_area_precision,
            confidences=params.confidences,
            geometry=GeometryCache(),
        )
        back = np.argsort(np.asarray(p.order, dtype=np.intp))  # evaluation order -> file order
        iou = p.iou[:, back] if len(back) else p.iou
        return PairTable(
            tuple(range(len(sample.gt))),
            tuple(range(len(sample.det))),
            ("IoU",),
            (iou,),
            (
                "|G ∩ D| / (|G| + |D| − |G ∩ D|); greedy: the first free pair above the "
                "threshold, GTs in file order, detections in evaluation order",
            ),
        )

    return table
