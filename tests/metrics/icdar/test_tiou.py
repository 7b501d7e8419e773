"""SIoU / TIoU: the worked examples of spec 3.10 (E2-E4): the 1 % cut tolerance, the
paper rule without it, and outliers (a detection swallowing a neighbour, don't-care GTs)."""

from __future__ import annotations

import pytest

from metrics.icdar import iou, tiou
from tests.support import dets, gts, sample

G0 = ("0,0,100,0,100,20,0,20", "ABCDE")


def ic15(s):
    return iou.evaluate_sample(s, iou.IouParams())


def t(s, **kw):
    return tiou.evaluate_sample(s, tiou.TiouParams(**kw))


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
