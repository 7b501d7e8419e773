"""TedEval worked examples of spec 4.7 (E1-E7): pseudo character centres, splits on a
shared edge, overlapping splits, the multiline rejection, vertical words, don't-care regions."""

from __future__ import annotations

import math

import pytest

from metrics.core.results import MatchKind, NearMiss, Verdict
from tests.support import WORD_G0 as G0
from tests.support import dets, gts, scores
from tests.support import pcc_hits as hits_of
from tests.support import pcc_points as pcc_of
from tests.support import tedeval_records as records
from tests.support import tedeval_run as run


def test_partial_detection_credits_the_characters_it_covers() -> None:
    """E1: D60 is an OO match (d = 0.242); PCC x = 10, 30, 50 lie inside, 70 and 90 do not."""
    r = run(gts(G0), dets("0,0,60,0,60,20,0,20"))
    assert scores(r) == pytest.approx((0.6, 0.6, 0.6))
    assert records(r) == [("OO", (0,), (0,))]
    oo = r.matches[0]
    assert oo.kind is MatchKind.ONE_TO_ONE
    assert oo.values["d"] == pytest.approx(2 * 20 / (math.hypot(100, 20) + math.hypot(60, 20)))
    assert (oo.values["area_recall"], oo.values["area_precision"]) == (0.6, 1.0)
    assert pcc_of(r, 0) == [[10, 10], [30, 10], [50, 10], [70, 10], [90, 10]]
    assert hits_of(r, 0) == [1, 1, 1, 0, 0]
    assert r.evidence.pcc.hit_by[0] == ((0,), (0,), (0,), (), ())
    g, d = r.gt[0], r.det[0]
    assert (g.verdict, g.credit, dict(g.values)) == (
        Verdict.PARTIAL,
        0.6,
        {"found": 3, "length": 5},
    )
    assert (d.verdict, d.credit, dict(d.values)) == (
        Verdict.PARTIAL,
        0.6,
        {"contained": 3, "total": 5},
    )
    assert g.partners == (0,) and d.partners == (0,)


def test_split_on_shared_edge_counts_once() -> None:
    """E2: the PCC at x = 50 lies on the shared edge and belongs to the right det only."""
    r = run(gts(G0), dets("0,0,50,0,50,20,0,20", "50,0,100,0,100,20,50,20"))
    assert scores(r) == pytest.approx((1.0, 0.5, 2 / 3))
    assert records(r) == [("OM", (0,), (0, 1))]
    assert r.matches[0].kind is MatchKind.SPLIT
    assert r.matches[0].values["recall_sum"] == 1.0
    assert hits_of(r, 0) == [1, 1, 1, 1, 1]
    assert r.evidence.pcc.hit_by[0] == ((0,), (0,), (1,), (1,), (1,))
    assert [d.credit for d in r.det] == [0.4, 0.6]
    assert [dict(d.values) for d in r.det] == [
        {"contained": 2, "total": 5},
        {"contained": 3, "total": 5},
    ]
    assert r.gt[0].verdict is Verdict.MATCHED and r.gt[0].partners == (0, 1)
    (ml,) = r.evidence.multiline
    assert (ml.kind, ml.gt, ml.det, ml.rejected) == ("OM", (0,), (0, 1), False)
    assert ml.pivots == {0: ((0.0, 10.0), (25.0, 10.0)), 1: ((50.0, 10.0), (75.0, 10.0))}
    assert [(p.a, p.b, p.theta, p.passed) for p in ml.pairs] == [
        (0, 1, 0.0, True),
        (1, 0, 0.0, True),
    ]
    assert ml.rejecting_pair is None


def test_overlapping_split_loses_the_doubly_covered_character() -> None:
    """E3: PCC x = 50 lies in both dets: it counts for both precisions but not for recall."""
    r = run(gts(G0), dets("0,0,60,0,60,20,0,20", "40,0,100,0,100,20,40,20"))
    assert scores(r) == pytest.approx((0.8, 0.6, 2 * 0.8 * 0.6 / 1.4))
    assert records(r) == [("OM", (0,), (0, 1))]
    assert hits_of(r, 0) == [1, 1, 2, 1, 1]
    assert r.evidence.pcc.hit_by[0][2] == (0, 1)
    assert dict(r.gt[0].values) == {"found": 4, "length": 5}
    assert [d.credit for d in r.det] == [0.6, 0.6]


def test_multiline_merge_is_rejected() -> None:
    """E4: seen from G1's centre, G0's centre and left pivot diverge by 59.04° >= 45°."""
    r = run(gts(G0, ("0,30,100,30,100,50,0,50", "FGHIJ")), dets("0,0,100,0,100,50,0,50"))
    assert scores(r) == (0.0, 0.0, 0.0)
    assert r.matches == ()
    (ml,) = r.evidence.multiline
    assert (ml.kind, ml.gt, ml.det) == ("MO", (0, 1), (0,))
    assert ml.rejected and ml.rejecting_pair == (0, 1)
    assert ml.pivots == {0: ((0.0, 10.0), (50.0, 10.0)), 1: ((0.0, 40.0), (50.0, 40.0))}
    first, second = ml.pairs
    assert (first.a, first.b, first.passed) == (0, 1, False)
    assert first.theta == pytest.approx(59.04, abs=0.005)
    assert first.angle == pytest.approx(90 - math.degrees(math.atan2(30, 50)))
    assert (second.a, second.b, second.passed) == (1, 0, False)
    assert [g.verdict for g in r.gt] == [Verdict.MISSED, Verdict.MISSED]
    assert r.gt[0].near_miss == NearMiss(0, 1.0, "area_recall")
    assert r.det[0].verdict is Verdict.FALSE_POSITIVE
    assert r.det[0].near_miss == NearMiss(0, 0.4, "area_precision")


def test_same_line_merge_is_accepted() -> None:
    """E5: both ordered pairs have θ = 0, so the MO record stands; all 8 PCC are counted."""
    r = run(gts(G0, ("110,0,200,0,200,20,110,20", "FGH")), dets("0,0,200,0,200,20,0,20"))
    assert scores(r) == (1.0, 1.0, 1.0)
    assert records(r) == [("MO", (0, 1), (0,))]
    assert r.matches[0].kind is MatchKind.MERGE
    assert r.matches[0].values["precision_sum"] == pytest.approx(0.95)
    assert pcc_of(r, 1) == [[125, 10], [155, 10], [185, 10]]
    (ml,) = r.evidence.multiline
    assert [p.theta for p in ml.pairs] == [0.0, 0.0] and not ml.rejected
    assert ml.pivots[1] == ((110.0, 10.0), (155.0, 10.0))
    assert dict(r.det[0].values) == {"contained": 8, "total": 8}
    assert r.det[0].partners == (0, 1)


def test_vertical_word_reads_bottom_to_top() -> None:
    """E6: aspect 5 > 1.5 rotates the points; PCC run from (10, 90) up to (10, 10)."""
    r = run(gts(("0,0,20,0,20,100,0,100", "ABCDE")), dets("0,0,20,0,20,60,0,60"))
    assert r.evidence.pcc.vertical == (True,)
    assert pcc_of(r, 0) == [[10, 90], [10, 70], [10, 50], [10, 30], [10, 10]]
    assert hits_of(r, 0) == [0, 0, 1, 1, 1]
    assert records(r) == [("OO", (0,), (0,))]
    assert scores(r) == pytest.approx((0.6, 0.6, 0.6))


def test_dont_care_region_absorbs_a_detection_and_spares_an_edge_neighbour() -> None:
    """E7: G0 is cut out of the dc GT; det 1 lies in the dc region (sum rule), det 0 only
    touches it along an edge and keeps its polygon."""
    r = run(
        gts(G0, ("60,0,160,0,160,20,60,20", "###")),
        dets("0,0,100,0,100,20,0,20", "100,0,160,0,160,20,100,20"),
    )
    assert scores(r) == (1.0, 1.0, 1.0)
    assert (r.extra["num_gt_care"], r.extra["num_det_care"]) == (1, 1)
    assert records(r) == [("OO", (0,), (0,))]
    assert r.gt[1].verdict is Verdict.DONT_CARE
    assert r.evidence.pcc.points[1].shape == (0, 2)
    assert r.det[1].verdict is Verdict.DONT_CARE and r.det[1].absorbed_by == 1
    assert r.evidence.dc_det_rule == {1: "sum"}
    assert 0 not in r.evidence.det_polygons_after_dc
    assert r.evidence.det_polygons_after_dc[1] == ()  # nothing left of det 1
