"""SCUT-CTW1500's pair table for one image: the IoU of every GT x detection pair, as
``voc_eval_polygon`` computes it (``match.block`` with ``every``)."""

from __future__ import annotations

import numpy as np

from metrics.core.evidence import Limit, PairTable
from metrics.core.model import Sample
from metrics.ctw1500.match import block
from metrics.ctw1500.params import Ctw1500Params


def pair_table(sample: Sample, params: Ctw1500Params) -> PairTable:
    """IoU of every pair (0 for pairs that do not overlap or have an unusable polygon); a
    detection is a true positive when its best GT's IoU is above the threshold and that GT
    is still free."""
    b = block([sample], params, near=False, every=True)
    iou = np.zeros((len(sample.gt), len(sample.det)))
    iou[b.f.pi, b.f.pj] = np.maximum(b.iou, 0.0)
    return PairTable(
        tuple(range(len(sample.gt))),
        tuple(range(len(sample.det))),
        ("IoU",),
        (iou,),
        (
            "|D ∩ G| / max(|G| + |D| − |D ∩ G|, min_union); each detection in evaluation order "
            "takes its best GT (first argmax) if free",
        ),
        (Limit(">", params.iou_threshold),),
    )
