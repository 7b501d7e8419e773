"""Word & text-line IoU / TIoU (spec 3.10 E6-E8): a text-line detection credits its
words, don't-care words can lift recall above one, partly covered lines fall back to words."""

from __future__ import annotations

import pytest

from metrics.icdar import tiou, wordline
from tests.support import dets, gts, quad, sample

G0 = ("0,0,100,0,100,20,0,20", "ABCDE")


def t(s, **kw):
    return tiou.evaluate_sample(s, tiou.TiouParams(**kw))


W0, W1 = G0, ("110,0,200,0,200,20,110,20", "FGH")


T0 = "0,0,200,0,200,20,0,20"


def wl(s, metric="tiou", **kw):
    p = wordline.WordlineParams(**kw)
    return wordline.evaluate_one(s, p, "wordline_tiou" if metric == "tiou" else "wordline_iou")


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


def _verdicts(r):
    return [(x.verdict.value, round(x.credit, 6)) for x in r.gt], [
        (x.verdict.value, round(x.credit, 6)) for x in r.det
    ]


def test_origin_instances_count_matches_not_tiou_credits() -> None:
    """``wordline_iou`` shows what its R and P count: a matched detection 1 (not its TIoU
    precision), the words of a matched line sharing its one match (W1); ``wordline_tiou``
    shows the TIoU credits (E6, E8)."""
    e6 = sample(gts(W0, W1), dets(T0), lines=[quad(T0, "line")])
    gt, det = _verdicts(wl(e6, "iou"))
    assert gt == [("partial", 0.5), ("partial", 0.5)] and det == [("matched", 1.0)]
    gt, det = _verdicts(wl(e6))
    assert gt == [("matched", 1.0), ("matched", 1.0)] and det == [("matched", 1.0)]
    e8 = sample(
        gts(W0, W1, ("300,0,400,0,400,20,300,20", "XYZ")),
        dets("0,0,150,0,150,20,0,20", "300,0,400,0,400,20,300,20"),
        lines=[quad(T0, "line")],
    )
    o = wl(e8, "iou")
    gt, det = _verdicts(o)
    assert gt == [("matched", 1.0), ("missed", 0.0), ("matched", 1.0)]
    assert det == [("matched", 1.0), ("matched", 1.0)]
    assert sum(x.credit for x in o.gt) == o.tally.recall_credit == 2  # type: ignore[union-attr]
    gt, det = _verdicts(wl(e8))
    assert det == [("partial", 0.75), ("matched", 1.0)]
    cut = sample(  # E8 with D1 cut short: its word match takes a TIoU penalty
        gts(W0, W1, ("300,0,400,0,400,20,300,20", "XYZ")),
        dets("0,0,150,0,150,20,0,20", "310,0,400,0,400,20,310,20"),
        lines=[quad(T0, "line")],
    )
    o, r = wl(cut, "iou"), wl(cut)
    assert r.matches[1].regions and not o.matches[1].regions  # drawn for TIoU only
    assert [m.values for m in r.matches] == [m.values for m in o.matches]  # same evidence
    assert _verdicts(o)[1][1] == ("matched", 1.0) and _verdicts(r)[1][1][0] == "partial"
