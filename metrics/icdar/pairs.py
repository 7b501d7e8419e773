"""The pair tables of the IoU family for one image: IoU of every GT x detection pair, with the
polygons, don't-care rule and detection order of the metric (``prepare``); the word +
text-line metrics add what their line stage compares (``wordline.line_measures``)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from metrics.core.evidence import Limit, PairTable
from metrics.core.model import FloatArray, Sample
from metrics.icdar.common import Prepared, prepare
from metrics.icdar.params import GreedyParams, WordlineParams
from metrics.shapes.cache import GeometryCache

_IOU = (
    "|G ∩ D| / (|G| + |D| − |G ∩ D|); greedy: the first free pair above the threshold, GTs "
    "in file order, detections in evaluation order"
)


def _prepared(
    sample: Sample, params: GreedyParams | WordlineParams, *, curved: bool
) -> tuple[Prepared, FloatArray]:
    """The metric's polygons and the IoU table in file order of the detections."""
    p = prepare(
        sample,
        curved=curved,
        dc_threshold=params.dc_area_precision,
        confidences=getattr(params, "confidences", None),
        geometry=GeometryCache(),
    )
    back = np.argsort(np.asarray(p.order, dtype=np.intp))  # evaluation order -> file order
    return p, (p.iou[:, back] if len(back) else p.iou)


def iou_table(*, curved: bool) -> Callable[[Sample, GreedyParams], PairTable]:
    """The pair table of ``ic15_iou`` / ``siou`` / ``tiou`` (or their curved variants)."""

    def table(sample: Sample, params: GreedyParams) -> PairTable:
        _, iou = _prepared(sample, params, curved=curved)
        return PairTable(
            tuple(range(len(sample.gt))),
            tuple(range(len(sample.det))),
            ("IoU",),
            (iou,),
            (_IOU,),
            (Limit(">", params.iou_threshold),),
        )

    return table


def wordline_table(sample: Sample, params: WordlineParams) -> PairTable:
    """The pair table of ``wordline_iou`` / ``wordline_tiou``: the word IoU of the word stage
    and, per word, the line stage's IoU of its text line (the best line it belongs to) and
    the share of the word the detection covers."""
    from metrics.icdar import wordline, wordline_batch

    p, iou = _prepared(sample, params, curved=False)
    n_gt, n_det = len(sample.gt), len(sample.det)
    line_iou, cover = np.zeros((n_gt, n_det)), np.zeros((n_gt, n_det))
    if n_gt and n_det and sample.gt_lines:
        _, _, l_iou, io_w, io_d = wordline.line_measures(sample, p)
        member = wordline_batch.ARRAY_OPS[params.membership_op](io_w, params.membership)
        back = np.argsort(np.asarray(p.order, dtype=np.intp))
        for w in range(n_gt):
            rows = np.flatnonzero(member[w])
            if len(rows):
                line_iou[w] = l_iou[rows].max(axis=0)[back]
        cover = io_d[:, back]
    op = params.coverage_op
    return PairTable(
        tuple(range(n_gt)),
        tuple(range(n_det)),
        ("IoU", "line IoU", "word covered"),
        (iou, line_iou, cover),
        (
            f"word stage: {_IOU}",
            f"line stage: IoU of the word's text line (it lies {params.membership_op} "
            f"{params.membership:g} inside it) with the detection; a line matched with IoU "
            f"> {params.iou_threshold:g} credits its member words the detection covers "
            f"{op} {params.coverage:g}",
            f"|W ∩ D| / |W|: a matched line credits the word when {op} {params.coverage:g}",
        ),
        (Limit(">", params.iou_threshold), None, None),
    )
