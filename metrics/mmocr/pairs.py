"""MMOCR's pair table for one image: the IoU of every GT x detection pair, as
``HmeanIOUMetric`` compares it with ``match_iou_thr`` (``geometry.block_areas``)."""

from __future__ import annotations

from metrics.core.evidence import Limit, PairTable
from metrics.core.model import Sample
from metrics.mmocr.geometry import block_areas
from metrics.mmocr.params import HmeanIouParams


def pair_table(sample: Sample, params: HmeanIouParams) -> PairTable:
    """IoU of the repaired polygons; at each score threshold, the kept detections are
    matched to care GTs (greedily or by maximum matching) when strictly above the limit."""
    (areas,) = block_areas([sample], (params.match_iou_thr, params.ignore_precision_thr))
    return PairTable(
        tuple(range(len(sample.gt))),
        tuple(range(len(sample.det))),
        ("IoU",),
        (areas.iou,),
        (
            "|G ∩ D| / (|G| + |D| − |G ∩ D|) of the repaired polygons; pairs above the limit "
            f"are matched {params.strategy.replace('_', ' ')} at each score threshold",
        ),
        (Limit(">", params.match_iou_thr),),
    )
