"""The ICDAR IoU family's specs: each card (``cards.py``) with the code that evaluates it.

One shared greedy matcher (``metrics.icdar.greedy`` / ``batch``) gives every member its
matches; only the credit per matched pair changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from metrics.core.model import Problem, Sample
from metrics.core.results import SampleResult
from metrics.declare.spec import ConfidenceUse, MetricSpec
from metrics.icdar import curved, iou, tiou
from metrics.icdar.cards import CARDS
from metrics.icdar.pairs import iou_table, wordline_table
from metrics.icdar.params import WordlineParams

if TYPE_CHECKING:
    from metrics.shapes.mode import Mode

__all__ = ["SPECS"]

_CARD = {c.id: c for c in CARDS}


# The word + text-line modules are imported when one of their metrics runs (an ICDAR run
# without text lines does not create their classes: a few ms of every start).
def _wordline_iou(
    samples: Sequence[Sample], params: WordlineParams, mode: Mode | None = None, /
) -> list[SampleResult]:
    from metrics.icdar import wordline_batch

    return wordline_batch.evaluate_batch_iou(samples, params, mode)


def _wordline_tiou(
    samples: Sequence[Sample], params: WordlineParams, mode: Mode | None = None, /
) -> list[SampleResult]:
    from metrics.icdar import wordline_batch

    return wordline_batch.evaluate_batch_tiou(samples, params, mode)


def _wordline_validate(samples: Sequence[Sample], params: WordlineParams) -> list[Problem]:
    from metrics.icdar import wordline

    return wordline.validate_batch(samples, params)


# The official curved script refuses polygons in the ICDAR order, clockwise as drawn (y
# down; counter-clockwise with y up), spec 3.9 C1, which Total-Text's TedEval/CLEval GT copy
# uses: --metric all reverses them, with a note.
_ORIENT = {"auto_orient": "true"}

# Every member ranks detections by confidence before matching (the scripts' CONFIDENCES=True,
# spec 0.7; the curved script reads every confidence as 1.0, the engine ranks by the values).
# Only the RRC "Origin" (ic15_iou) reports the AP of that ranking: the TIoU script computes
# it without reporting it, the curved and word + text-line scripts have none (spec 1.3).
_RANKS = ConfidenceUse()
_RANKS_AP = ConfidenceUse(ap="ranked")

SPECS = (
    MetricSpec(
        card=_CARD["ic15_iou"],
        evaluate=iou.evaluate_batch,
        validate=iou.validate_batch,
        global_extras=iou.global_extras,
        pair_table=iou_table(curved=False),
        confidences=_RANKS_AP,
    ),
    MetricSpec(
        card=_CARD["siou"],
        evaluate=tiou.evaluate_batch_siou,
        validate=tiou.validate_batch,
        pair_table=iou_table(curved=False),
        confidences=_RANKS,
    ),
    MetricSpec(
        card=_CARD["tiou"],
        evaluate=tiou.evaluate_batch,
        validate=tiou.validate_batch,
        pair_table=iou_table(curved=False),
        confidences=_RANKS,
    ),
    MetricSpec(
        card=_CARD["curved_iou"],
        evaluate=curved.evaluate_batch_iou,
        validate=curved.validate_batch,
        fallback=_ORIENT,
        pair_table=iou_table(curved=True),
        confidences=_RANKS,
    ),
    MetricSpec(
        card=_CARD["curved_siou"],
        evaluate=curved.evaluate_batch_siou,
        validate=curved.validate_batch,
        fallback=_ORIENT,
        pair_table=iou_table(curved=True),
        confidences=_RANKS,
    ),
    MetricSpec(
        card=_CARD["curved_tiou"],
        evaluate=curved.evaluate_batch,
        validate=curved.validate_batch,
        fallback=_ORIENT,
        pair_table=iou_table(curved=True),
        confidences=_RANKS,
    ),
    MetricSpec(
        card=_CARD["wordline_iou"],
        evaluate=_wordline_iou,
        validate=_wordline_validate,
        pair_table=wordline_table,
        confidences=_RANKS,
    ),
    MetricSpec(
        card=_CARD["wordline_tiou"],
        evaluate=_wordline_tiou,
        validate=_wordline_validate,
        pair_table=wordline_table,
        confidences=_RANKS,
    ),
)
