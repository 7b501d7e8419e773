"""DetEval quirks of spec 2.5 (touching neighbours, rounded split sums, centre
distance, uniqueness counting don't-care detections) and the per-image rules for empty images."""

from __future__ import annotations

import pytest

from metrics.core.evidence import Absorbed
from metrics.core.results import MatchKind, Verdict
from metrics.deteval import metric
from metrics.deteval.metric import DetEvalParams
from metrics.shapes.mode import Detail, Mode
from tests.support import DETEVAL_G0 as G0
from tests.support import DETEVAL_LEGACY as LEGACY
from tests.support import box, boxes, ltrb_sample, scores
from tests.support import deteval_reasons as reasons
from tests.support import deteval_run as run

# --------------------------------------------------------------------------- quirks 2.5


def test_touching_neighbours_are_recovered_as_one_to_one_via_split() -> None:  # Q2 + Q3
    touching = box(99, 0, 198, 19, "FGH", line=2)  # shares column x = 99 with G0
    r = run((G0, touching), boxes((0, 0, 99, 19), (99, 0, 198, 19)))
    assert scores(r) == (1.0, 1.0, 1.0)
    assert reasons(r) == ["not_single_overlap", "not_single_overlap"]
    assert [(m.kind, m.label, m.gt, m.det) for m in r.matches] == [
        (MatchKind.ONE_TO_ONE, "OO", (0,), (0,)),
        (MatchKind.ONE_TO_ONE, "OO", (1,), (1,)),
    ]
    assert r.evidence.match_types == ("OO-via-OM", "OO-via-OM")
    legacy = run((G0, touching), boxes((0, 0, 99, 19), (99, 0, 198, 19)), LEGACY)
    assert legacy.evidence.match_types == ("OO", "OO")


def test_split_sum_is_rounded_to_four_decimals() -> None:  # Q4
    gt = (box(0, 0, 99, 249),)  # 25000 px
    det = boxes((0, 0, 99, 99), (0, 100, 98, 200))  # 10000 + 9999 px: S = 0.79996
    r = run(gt, det)
    assert scores(r) == pytest.approx((0.8, 0.8, 0.8))
    assert r.matches[0].values["recall_sum"] == pytest.approx(0.79996)
    assert r.matches[0].values["rounded_sum"] == 0.8
    legacy = run(gt, det, LEGACY)  # no rounding: 0.79996 < 0.8
    assert scores(legacy) == (0.0, 0.0, 0.0)
    assert legacy.evidence.discarded[0].reason == "sum_below_threshold"


def test_far_centers_discard_one_to_one_and_lonely_groups() -> None:
    r = run((G0,), boxes((0, 0, 79, 19)), DetEvalParams(center_diff=0.05))
    assert scores(r) == (0.0, 0.0, 0.0)
    assert reasons(r) == ["center_distance", "om_not_single", "mo_not_single"]
    assert r.evidence.discarded[0].values["d"] == pytest.approx(0.108, abs=1e-3)
    assert r.evidence.discarded[2].values["det_overlaps"] == 1


def test_uniqueness_counts_dont_care_detections() -> None:  # Q5
    dc = box(0, 20, 99, 59, "###", line=2)  # right below G0
    # det 1 qualifies for G0 (R 1, P 0.4) but lies mostly in the dc region (0.6 > 0.4) -> dc;
    # it still breaks the uniqueness of (G0, det 0), while the overlap counts of OM / MO
    # ignore it, so G0 and det 0 each have a single overlap: no match at all.
    r = run((G0, dc), boxes((0, 0, 99, 19), (0, 0, 99, 49)))
    assert r.det[1].verdict is Verdict.DONT_CARE and r.det[1].absorbed_by == 1
    assert reasons(r) == ["not_unique", "om_not_single", "mo_not_single"]
    assert r.evidence.discarded[0].values["row_count"] == 2
    assert r.matches == ()
    assert scores(r) == (0.0, 0.0, 0.0)


def test_dont_care_detections_are_absorbed() -> None:
    dc = box(200, 0, 299, 19, "###", line=2)
    det = boxes((0, 0, 99, 19), (210, 0, 289, 19), (250, 0, 349, 19), (260, 0, 359, 19))
    r = run((G0, dc), det)
    assert [d.verdict for d in r.det] == [
        Verdict.MATCHED,
        Verdict.DONT_CARE,
        Verdict.DONT_CARE,
        Verdict.FALSE_POSITIVE,
    ]
    assert [d.absorbed_by for d in r.det] == [None, 1, 1, None]
    assert r.det[2].values["dc_precision"] == pytest.approx(0.5)
    # exactly 0.4 of det 3 lies in the dc box: the dc test is strict (>)
    assert r.det[3].near_miss is None
    assert r.evidence.dc_dets == (Absorbed(det=1, gt=1, precision=1.0), Absorbed(2, 1, 0.5))
    assert r.gt[1].verdict is Verdict.DONT_CARE
    assert scores(r)[:2] == (1.0, 0.5)
    assert r.extra["num_gt_care"] == 1 and r.extra["num_det_care"] == 2


# --------------------------------------------------------------------------- per-image rules


def test_image_without_detections_scores_zero_even_if_all_gt_dont_care() -> None:  # Q6
    dc = box(0, 0, 99, 19, "###")
    r = run((dc,), (), det_file=False)
    assert scores(r) == (0.0, 0.0, 0.0)
    assert r.tally["n_gt_care"] == 0 and r.tally["n_det_care"] == 0
    ic15 = run((dc,), (), DetEvalParams(per_image_empty_rule="ic15"), det_file=False)
    assert scores(ic15) == (1.0, 1.0, 1.0)


def test_missed_word_without_detection_file() -> None:
    r = run((G0,), (), det_file=False)
    assert scores(r) == (0.0, 0.0, 0.0)
    assert r.gt[0].verdict is Verdict.MISSED and r.gt[0].near_miss is None
    assert r.tally["n_gt_care"] == 1


def test_empty_gt_file_with_empty_det_file() -> None:
    r = run((), ())
    assert scores(r) == (1.0, 1.0, 0.0)  # official: H is only computed with detections
    assert scores(run((), (), det_file=False)) == (0.0, 0.0, 0.0)


def test_detections_without_care_gt() -> None:
    r = run((), boxes((0, 0, 9, 9)))
    assert scores(r) == (1.0, 0.0, 0.0)
    assert r.tally["n_det_care"] == 1
    assert r.det[0].verdict is Verdict.FALSE_POSITIVE


def test_only_dont_care_detections_give_zero_precision() -> None:
    dc = box(200, 0, 299, 19, "###", line=2)
    r = run((G0, dc), boxes((200, 0, 299, 19)))
    assert scores(r) == (0.0, 0.0, 0.0)
    assert r.tally["n_det_care"] == 0


def test_tallies_mode_scores_as_the_whole_result_without_records() -> None:
    touching = box(99, 0, 198, 19, "FGH", line=2)
    block = [
        ltrb_sample((G0, touching), boxes((0, 0, 99, 19), (99, 0, 198, 19))),  # via OM
        ltrb_sample((G0,), boxes((0, 0, 79, 19))),  # OO and groups discarded
        ltrb_sample((box(0, 0, 99, 249),), boxes((0, 0, 99, 99), (0, 100, 98, 200))),  # split
    ]
    for params in (DetEvalParams(), DetEvalParams(center_diff=0.05), LEGACY):
        whole = metric.evaluate_batch(block, params)
        cut = metric.evaluate_batch(block, params, Mode(Detail.TALLIES))
        assert [(r.tally, r.recall, r.precision, r.extra) for r in cut] == [
            (r.tally, r.recall, r.precision, r.extra) for r in whole
        ]
        assert not any(r.complete or r.matches or r.evidence for r in cut)
        assert any(r.matches for r in whole)
