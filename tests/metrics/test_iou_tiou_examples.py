"""Worked examples of spec 1.6 (ICDAR15 IoU) and 3.10 (SIoU, TIoU, curved, word & text-line)."""

from __future__ import annotations

import pytest

from metrics.icdar import curved, iou, tiou, wordline
from metrics.results import Verdict, aggregate
from tests.metrics.helpers import dets, gts, quad, sample

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
    siou = tiou.evaluate_sample_siou(s, tiou.TiouParams())
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


@pytest.mark.parametrize(("x0", "recall"), [(1, 0.99), (2, 0.9604)])
def test_tolerance_absorbs_one_percent_cut(x0: int, recall: float) -> None:  # 3.10 E2
    r = t(sample(gts(G0), dets(f"{x0},0,100,0,100,20,{x0},20")))
    assert r.recall == pytest.approx(recall)


def test_paper_rule_without_tolerance() -> None:
    r = t(sample(gts(G0), dets("1,0,100,0,100,20,1,20")), tolerance=0.0)
    assert r.recall == pytest.approx(0.99 * 0.99)


def test_detection_swallowing_a_neighbour_is_an_outlier() -> None:  # 3.10 E3
    s = sample(gts(G0, ("100,0,150,0,150,20,100,20", "FG")), dets("0,0,120,0,120,20,0,20"))
    r = t(s)
    m = r.matches[0]
    assert m.values["ot"] == pytest.approx(400)
    assert m.values["tiou_precision"] == pytest.approx(0.6944, abs=1e-4)
    assert m.related["outlier_gts"] == (1,)
    assert m.regions["outlier"].area == pytest.approx(400)
    assert (r.recall, r.precision) == pytest.approx((0.4167, 0.6944), abs=1e-4)
    o = ic15(s)
    assert (o.recall, o.precision) == (0.5, 1.0)


@pytest.mark.parametrize(("dc_as_outlier", "precision"), [(True, 0.6944), (False, 0.8333)])
def test_dont_care_gt_counted_as_outlier(dc_as_outlier: bool, precision: float) -> None:
    s = sample(gts(G0, ("100,0,150,0,150,20,100,20", "###")), dets("0,0,120,0,120,20,0,20"))
    r = t(s, dc_as_outlier=dc_as_outlier)  # 3.10 E4 and the paper switch
    assert r.precision == pytest.approx(precision, abs=1e-4)
    assert r.recall == pytest.approx(0.8333, abs=1e-4)


def test_curved_float_coordinates_and_greedy() -> None:  # 3.10 E5
    s = sample(
        gts(("0,0,0,20,100,20,100,0", "ABCDE"), ("100,0,100,20,150,20,150,0", "###")),
        dets("0,0,0,20,60.5,20,60.5,0", "0.1,0,0.1,20,120.3,20,120.3,0"),
    )
    p = curved.CurvedParams()
    assert curved.validate(s, p) == []
    o = curved.evaluate_sample_iou(s, p)
    si = curved.evaluate_sample_siou(s, p)
    r = curved.evaluate_sample(s, p)
    assert (o.recall, o.precision) == (1.0, 0.5)
    assert (si.recall, si.precision) == pytest.approx((0.605, 0.3025))
    assert (r.recall, r.precision) == pytest.approx((0.366025, 0.3025))
    assert r.det[1].near_miss.value == pytest.approx(0.8304239, abs=1e-6)


def test_curved_refuses_icdar_orientation_unless_auto_orient() -> None:  # 3.9 C1
    s = sample(gts(("0,0,100,0,100,20,0,20", "ABCDE")), dets("0,0,100,0,100,20,0,20"))
    problems = curved.validate(s, curved.CurvedParams())
    assert len(problems) == 2 and "counter-clockwise" in problems[0].message
    assert problems[0].line == 1 and problems[0].source == "gt:gt_img_1.txt"
    p = curved.CurvedParams(auto_orient=True)
    assert curved.validate(s, p) == []
    assert curved.evaluate_sample(s, p).recall == 1.0


W0, W1 = G0, ("110,0,200,0,200,20,110,20", "FGH")
T0 = "0,0,200,0,200,20,0,20"


def wl(s, metric="tiou", **kw):
    p = wordline.WordlineParams(**kw)
    f = wordline.evaluate_sample if metric == "tiou" else wordline.evaluate_sample_iou
    return f(s, p)


def test_text_line_detection_credits_its_words() -> None:  # 3.10 E6
    s = sample(gts(W0, W1), dets(T0), lines=[quad(T0, "line")])
    assert t(s).recall == 0.0
    o, r = wl(s, "iou"), wl(s)
    assert (o.recall, o.precision) == (0.5, 1.0)
    assert (r.recall, r.precision) == (1.0, 1.0)
    assert r.matches[0].label == "text_line" and r.matches[0].gt == (0, 1)


def test_dont_care_word_in_line_lifts_recall_above_one() -> None:  # 3.10 E7 (W2)
    s = sample(gts(W0, (W1[0], "###")), dets(T0), lines=[quad(T0, "line")])
    o, r = wl(s, "iou"), wl(s)
    assert o.recall == 1.0
    assert (r.recall, r.precision) == (2.0, 1.0)
    assert wl(s, exclude_dc_words=True).recall == 1.0


def test_partly_covered_line_leaves_words_for_word_stage() -> None:  # 3.10 E8
    s = sample(
        gts(W0, W1, ("300,0,400,0,400,20,300,20", "XYZ")),
        dets("0,0,150,0,150,20,0,20", "300,0,400,0,400,20,300,20"),
        lines=[quad(T0, "line")],
    )
    o, r = wl(s, "iou"), wl(s)
    assert (o.recall, o.precision) == pytest.approx((2 / 3, 1.0))
    assert (r.recall, r.precision) == pytest.approx((2 / 3, 0.875))


def test_tallies_add_up_to_global_scores() -> None:
    a = ic15(sample(gts(G0), dets(D60)))
    b = ic15(sample(gts(G0), dets("0,0,40,0,40,20,0,20")))
    s = aggregate([a, b])
    assert (s.recall, s.precision) == (0.5, 0.5)
