"""ICDAR15 IoU: the worked examples of spec 1.6 (E1-E5), the strict 0.5 threshold
(1.5 Q2) and tallies that add up to the dataset scores."""

from __future__ import annotations

import pytest

from metrics.core.results import Verdict, aggregate
from metrics.icdar import iou, tiou
from metrics.shapes.mode import Detail, Mode
from tests.support import dets, gts, quad, run_one, sample

G0 = ("0,0,100,0,100,20,0,20", "ABCDE")


D60 = "0,0,60,0,60,20,0,20"


def ic15(s):
    return iou.evaluate_sample(s, iou.IouParams())


def t(s, **kw):
    return tiou.evaluate_sample(s, tiou.TiouParams(**kw))


def test_sixty_percent_cover_matches() -> None:  # 1.6 E1, 3.10 E1
    s = sample(gts(G0), dets(D60))
    r = ic15(s)
    assert (r.recall, r.precision, r.hmean) == (1.0, 1.0, 1.0)
    assert r.matches[0].values["iou"] == pytest.approx(0.6)
    siou = run_one("siou", s, tiou.TiouParams())
    assert (siou.recall, siou.precision) == pytest.approx((0.6, 0.6))
    rt = t(s)
    assert (rt.recall, rt.precision, rt.hmean) == pytest.approx((0.36, 0.6, 0.45))
    assert rt.matches[0].values["ct"] == pytest.approx(800)
    assert rt.matches[0].regions["cut"].area == pytest.approx(800)
    assert rt.gt[0].verdict is Verdict.PARTIAL


def test_forty_percent_cover_is_a_near_miss() -> None:  # 1.6 E2
    r = ic15(sample(gts(G0), dets("0,0,40,0,40,20,0,20")))
    assert (r.recall, r.precision, r.hmean) == (0.0, 0.0, 0.0)
    assert r.gt[0].verdict is Verdict.MISSED
    assert r.gt[0].near_miss is not None
    assert (r.gt[0].near_miss.partner, r.gt[0].near_miss.value) == (0, pytest.approx(0.4))
    assert r.det[0].verdict is Verdict.FALSE_POSITIVE


def test_dont_care_absorbs_detection() -> None:  # 1.6 E3
    s = sample(
        gts(G0, ("200,0,300,0,300,20,200,20", "###")),
        dets(D60, "210,0,290,0,290,20,210,20", "400,0,500,0,500,20,400,20"),
    )
    r = ic15(s)
    assert (r.recall, r.precision) == (1.0, 0.5)
    assert r.hmean == pytest.approx(0.6667, abs=1e-4)
    assert r.det[1].verdict is Verdict.DONT_CARE and r.det[1].absorbed_by == 1
    assert r.gt[1].verdict is Verdict.DONT_CARE


def test_confidence_order_and_average_precision() -> None:  # 1.6 E4
    s = sample(
        gts(G0), [quad(D60, conf=0.9, line=1), quad("300,0,400,0,400,20,300,20", conf=0.95, line=2)]
    )
    r = ic15(s)
    assert (r.recall, r.precision) == (1.0, 0.5)
    assert r.matches[0].det == (0,)  # file index of D60, evaluated second
    assert r.extra["ap"] == pytest.approx(0.5)
    assert iou.global_extras([r]) == {"ap": pytest.approx(0.5)}


def test_greedy_keeps_first_qualifying_detection() -> None:  # 1.6 E5
    r = ic15(sample(gts(G0), dets(D60, G0[0])))
    assert (r.recall, r.precision) == (1.0, 0.5)
    assert r.det[1].verdict is Verdict.FALSE_POSITIVE
    assert r.det[1].near_miss.value == pytest.approx(1.0)


def test_iou_exactly_half_does_not_match() -> None:  # 1.5 Q2
    r = ic15(sample(gts(G0), dets("0,0,50,0,50,20,0,20")))
    assert r.recall == 0.0


def test_tallies_add_up_to_global_scores() -> None:
    a = ic15(sample(gts(G0), dets(D60)))
    b = ic15(sample(gts(G0), dets("0,0,40,0,40,20,0,20")))
    s = aggregate([a, b])
    assert (s.recall, s.precision) == (0.5, 0.5)


def test_extras_mode_keeps_ap_and_evidence_without_instance_lists() -> None:
    ranked = [
        quad(D60, conf=0.9, line=1),
        quad("300,0,400,0,400,20,300,20", conf=0.95, line=2),
        quad("0,100,50,100,50,120,0,120", conf=0.5, line=3),  # absorbed by the don't-care
    ]
    block = [
        sample(gts(G0, ("0,100,50,100,50,120,0,120", "###")), ranked, sid="a"),
        sample(gts(G0), dets(D60), sid="b"),  # no confidences: no AP
        sample([], [quad(D60, conf=0.3)], sid="c"),
    ]
    whole = iou.evaluate_batch(block, iou.IouParams())
    cut = iou.evaluate_batch(block, iou.IouParams(), Mode(Detail.EXTRAS))
    assert [r.det for r in cut] == [(), (), ()]
    assert not any(r.complete for r in cut)
    for w, c in zip(whole, cut, strict=True):
        assert (c.tally, c.extra, c.evidence) == (w.tally, w.extra, w.evidence)
    assert whole[0].extra["ap"] == pytest.approx(0.5)
    assert iou.global_extras(cut) == iou.global_extras(whole)


def test_block_problems_name_the_file_and_line_of_each_box() -> None:
    ccw = "0,0,0,20,100,20,100,0"  # counter-clockwise with y down
    block = [
        sample(gts(G0, (ccw, "X")), [quad(D60, line=1), quad("0.5,0,60,0,60,20,0,20", line=2)]),
        sample(gts(G0), dets(D60, ccw), sid="img_2"),
        sample([], [], sid="img_3"),
    ]
    found = iou.validate_batch(block, iou.IouParams(allow_float=False))
    assert [(p.source, p.line, p.sample_id, p.message[:20]) for p in found] == [
        ("det:res_img_1.txt", 2, "img_1", "coordinates must be "),
        ("gt:gt_img_1.txt", 2, "img_1", "points are not clock"),
        ("det:res_img_2.txt", 2, "img_2", "points are not clock"),
    ]
    assert iou.validate_batch(block, iou.IouParams(check_orientation=False)) == []
