"""PaddleOCR's pair table for one image: the IoU of every GT x detection pair, as its
greedy matching compares it with ``iou_constraint`` (``metric.iou_table``)."""

from __future__ import annotations

from metrics.core.evidence import Limit, PairTable
from metrics.core.model import Sample
from metrics.paddleocr.metric import iou_table
from metrics.paddleocr.params import PaddleParams


def pair_table(sample: Sample, params: PaddleParams) -> PairTable:
    """IoU of the (padded float32) GT and the detections; matched greedily, GTs in file order,
    when strictly above ``iou_constraint``."""
    return PairTable(
        tuple(range(len(sample.gt))),
        tuple(range(len(sample.det))),
        ("IoU",),
        (iou_table(sample, params),),
        (
            "|G ∩ D| / |G ∪ D| (GT padded to the image's largest point count, float32); "
            "greedy: the first free pair, GTs and detections in file order",
        ),
        (Limit(">", params.iou_constraint),),
    )
