"""Total-Text Pascal VOC (spec V1-V5): the +1 in the IoU denominator, the non-strict
``>= 0.5``, one best GT per detection (``FP_gt_taken``, quirk 11) and the per-image rules."""

from __future__ import annotations

from typing import Any

import pytest

from metrics.core.evidence import VocFalsePositive
from metrics.core.results import SampleResult, Verdict
from metrics.totaltext.evidence import TotalTextVocEvidence
from metrics.totaltext.params import TotalTextVocParams
from metrics.totaltext.voc import evaluate_sample
from tests.support import Rect, approx_tuple, dets, gts, rect, rect_sample, sample, scores


def run(gt: list[Rect], det: list[Rect], **params: Any) -> SampleResult:
    return evaluate_sample(rect_sample(gt, det), TotalTextVocParams(**params))


def fps(r: SampleResult) -> tuple[VocFalsePositive, ...]:
    assert isinstance(r.evidence, TotalTextVocEvidence)
    return r.evidence.false_positives


def test_official_defaults() -> None:
    p = TotalTextVocParams()
    assert (p.iou_threshold, p.dc_threshold, p.union_offset, p.second_choice) == (
        0.5,
        0.5,
        1.0,
        False,
    )


def test_exact_copy_scores_below_one() -> None:
    """Quirk 10: IoU = 100 / (100 + 1) for a 10 x 10 copy; ``union_offset=0`` gives 1."""
    r = run([(0, 0, 10, 10)], [(0, 0, 10, 10)])
    assert r.matches[0].values["iou"] == 100 / 101
    assert r.matches[0].label == "TP"
    assert scores(r) == approx_tuple(1.0, 1.0, 1.0)
    assert run([(0, 0, 10, 10)], [(0, 0, 10, 10)], union_offset=0.0).matches[0].values[
        "iou"
    ] == pytest.approx(1.0)


@pytest.mark.parametrize(("height", "tp"), [(5, 1.0), (4, 0.0)])
def test_iou_threshold_is_not_strict(height: int, tp: float) -> None:
    """A 10 x 5 det inside an 11 x 9 GT: 50 / (99 + 1) = 0.5 exactly, a TP (>=); 10 x 4 is not."""
    r = run([(0, 0, 11, 9)], [(0, 0, 10, height)])
    assert r.extra["tp"] == tp
    if not tp:
        assert [(f.det, f.reason, f.best_gt) for f in fps(r)] == [(0, "FP_low_iou", 0)]
        assert fps(r)[0].best_iou == pytest.approx(40 / 100)


def test_best_gt_taken_is_a_false_positive() -> None:
    """Quirk 11: two copies of GT 0; the second's best GT (IoU 1000/1001) is taken, and
    GT 1 (IoU 1000/1201, free) is not tried. ``second_choice`` takes GT 1 instead."""
    gt, det = [(0, 0, 100, 10), (0, 0, 100, 12)], [(0, 0, 100, 10), (0, 0, 100, 10)]
    r = run(gt, det)
    assert [(m.gt, m.det) for m in r.matches] == [((0,), (0,))]
    assert [(f.det, f.reason, f.best_gt) for f in fps(r)] == [(1, "FP_gt_taken", 0)]
    assert fps(r)[0].best_iou == pytest.approx(1000 / 1001)
    assert r.det[1].verdict is Verdict.FALSE_POSITIVE
    assert r.det[1].values["gt_taken"] == 1.0
    assert r.gt[1].verdict is Verdict.MISSED
    assert scores(r)[:2] == approx_tuple(0.5, 0.5)
    fallback = run(gt, det, second_choice=True)
    assert [(m.gt, m.det) for m in fallback.matches] == [((0,), (0,)), ((1,), (1,))]


def test_low_iou_false_positive_names_its_best_gt() -> None:
    r = run([(0, 0, 100, 10), (200, 0, 300, 10)], [(200, 0, 240, 10), (500, 0, 510, 10)])
    assert [(f.det, f.reason, f.best_gt) for f in fps(r)] == [
        (0, "FP_low_iou", 1),
        (1, "FP_low_iou", 0),  # no overlap: the first care GT, IoU 0
    ]
    assert r.det[0].near_miss is not None and r.det[0].near_miss.partner == 1
    assert r.det[1].near_miss is None


def test_dont_care_filter_and_absorbed_detection() -> None:
    words = [(rect(0, 0, 100, 10), "WORD"), (rect(200, 0, 300, 10), "###")]
    r = evaluate_sample(
        sample(gts(*words), dets(rect(210, 0, 290, 10), rect(0, 0, 100, 10))),
        TotalTextVocParams(),
    )
    assert (r.det[0].verdict, r.det[0].absorbed_by) == (Verdict.DONT_CARE, 1)
    assert [(m.gt, m.det) for m in r.matches] == [((0,), (1,))]
    assert (r.extra["num_det"], r.extra["num_det_care"]) == (2, 1)
    assert scores(r) == approx_tuple(1.0, 1.0, 1.0)


def test_image_without_care_gt_scores_no_tp_and_no_fp() -> None:
    """V4: the loop is skipped; per-image P = 0 (0/0), the det still counts globally."""
    words = [(rect(200, 0, 300, 10), "###")]
    r = evaluate_sample(sample(gts(*words), dets(rect(0, 0, 10, 10))), TotalTextVocParams())
    assert (r.extra["tp"], r.extra["fp"]) == (0.0, 0.0)
    assert fps(r) == ()
    assert scores(r) == approx_tuple(0.0, 0.0, 0.0)
    assert (r.tally.n_gt_care, r.tally.n_det_care) == (0, 1)
