"""TedEval quirks of spec 4.6: don't-care cuts and rules, zero-credit matches, unique
one-to-one candidates, the pivot switch, confidence order, empty images, LTRB order, batches."""

from __future__ import annotations

import pytest
import shapely

from metrics.core.model import BoxType, Instance, Sample, ltrb_points
from metrics.core.results import Verdict
from metrics.shapes.geometry import rings_of
from metrics.tedeval.metric import (
    TedEvalParams,
    evaluate_batch,
    evaluate_sample,
)
from tests.support import WORD_G0 as G0
from tests.support import dets, gts, quad, sample, scores
from tests.support import pcc_points as pcc_of
from tests.support import tedeval_records as records
from tests.support import tedeval_run as run


def test_detection_loses_the_dont_care_region_it_overlaps() -> None:
    """T8: a care det overlapping a dc region a little loses it: its precision rises."""
    dc = "80,0,180,0,180,20,80,20"
    r = run(gts(G0, (dc, "###")), dets("0,0,120,0,120,20,0,20"))
    assert records(r) == [("OO", (0,), (0,))]
    assert r.det[0].verdict is Verdict.MATCHED  # P = 2000/2000 after the cut, not 2000/2400
    assert r.evidence.dc_det_rule == {}
    det = shapely.Polygon([(0, 0), (120, 0), (120, 20), (0, 20)])
    g0 = shapely.Polygon([(0, 0), (100, 0), (100, 20), (0, 20)])
    dc_region = shapely.difference(shapely.Polygon([(80, 0), (180, 0), (180, 20), (80, 20)]), g0)
    expected = rings_of(shapely.difference(det, dc_region))
    got = r.evidence.det_polygons_after_dc[0]
    assert len(got) == len(expected) == 1
    assert shapely.Polygon(got[0]).equals(shapely.Polygon(expected[0]))
    assert shapely.Polygon(got[0]).area == 2000


def test_single_dont_care_rule() -> None:
    """A det inside a big dc GT (R = 0.1, P = 1): the sum rule fails, the single rule fires."""
    r = run(gts(G0, ("200,0,1200,0,1200,20,200,20", "###")), dets("300,0,400,0,400,20,300,20"))
    assert r.det[0].verdict is Verdict.DONT_CARE
    assert r.evidence.dc_det_rule == {0: "single"}
    assert r.det[0].values["dc_precision"] == 1.0
    assert scores(r) == (0.0, 0.0, 0.0)  # G0 missed, no care det


def test_matched_detection_without_characters_is_partial_with_zero_credit() -> None:
    """An OO match whose det holds none of the PCC: matched, credit 0."""
    r = run(gts(("0,0,100,0,100,20,0,20", "AB")), dets("30,0,70,0,70,20,30,20"))
    assert records(r) == [("OO", (0,), (0,))]
    assert pcc_of(r, 0) == [[25, 10], [75, 10]]
    g, d = r.gt[0], r.det[0]
    assert (g.verdict, g.credit, g.partners) == (Verdict.PARTIAL, 0.0, (0,))
    assert (d.verdict, d.credit, d.partners) == (Verdict.PARTIAL, 0.0, (0,))
    assert scores(r) == (0.0, 0.0, 0.0)


def test_one_to_one_needs_a_unique_candidate() -> None:
    """T4: a dc det that also qualifies makes the GT row non-unique (dc columns count)."""
    gt = gts(G0, ("0,0,100,0,100,40,0,40", "###"))  # dc GT overlapping G0 -> cut to y 20..40
    det = dets("0,0,100,0,100,20,0,20", "0,10,100,10,100,30,0,30")
    r = run(gt, det)
    assert r.det[1].verdict is Verdict.DONT_CARE  # half of it lies in the dc region
    assert records(r) == []  # G0 row has two qualifying dets (one of them dc)
    assert scores(r) == (0.0, 0.0, 0.0)


def test_pivot_center_switch_uses_vertex_mean() -> None:
    """T2: for a trapezoid the centroid and the vertex mean differ."""
    trapezoid = ("0,0,100,0,60,20,40,20", "ABCDE")
    r = run(gts(trapezoid, ("120,0,220,0,220,20,120,20", "FGHIJ")), dets("0,0,220,0,220,20,0,20"))
    c_pivot = r.evidence.multiline[0].pivots[0][1]
    r2 = run(
        gts(trapezoid, ("120,0,220,0,220,20,120,20", "FGHIJ")),
        dets("0,0,220,0,220,20,0,20"),
        TedEvalParams(pivot_center="vertex_mean"),
    )
    assert r2.evidence.multiline[0].pivots[0][1] == (50.0, 10.0)
    assert c_pivot[0] == pytest.approx(50.0) and c_pivot[1] == pytest.approx(70 / 9)


def test_confidence_order_reports_file_indices() -> None:
    """With confidences dets are evaluated by descending confidence; indices stay file ones."""
    det = [
        quad("300,0,400,0,400,20,300,20", line=1, conf=0.5),
        quad("50,0,100,0,100,20,50,20", line=2, conf=0.9),
        quad("0,0,50,0,50,20,0,20", line=3, conf=0.7),
    ]
    r = run(gts(G0), det)
    assert records(r) == [("OM", (0,), (1, 2))]  # evaluation order: file 1, file 2
    assert [d.index for d in r.det] == [0, 1, 2]
    assert [d.verdict for d in r.det] == [Verdict.FALSE_POSITIVE, Verdict.PARTIAL, Verdict.PARTIAL]
    assert r.evidence.pcc.hit_by[0] == ((2,), (2,), (1,), (1,), (1,))
    assert "ap" not in r.extra  # the official AP is always 0 (T5): not reported
    plain = run(gts(G0), det, TedEvalParams(confidences=False))
    assert records(plain) == [("OM", (0,), (1, 2))] and "ap" not in plain.extra


def test_images_without_gt_or_without_detections() -> None:
    """Spec 0.9 (ICDAR15 rule): no care GT -> R = 1, P = 0 with care dets, else 1."""
    assert scores(run([], dets("0,0,10,0,10,10,0,10"))) == (1.0, 0.0, 0.0)
    assert scores(run([], [])) == (1.0, 1.0, 1.0)
    assert scores(run(gts(G0), [])) == (0.0, 0.0, 0.0)
    only_dc = run(gts(("0,0,10,0,10,10,0,10", "###")), dets("0,0,10,0,10,10,0,10"))
    assert scores(only_dc) == (1.0, 1.0, 1.0)
    assert only_dc.tally["n_det_care"] == 0


def test_ltrb_boxes_keep_the_official_vertex_order() -> None:
    """LTRB (IC13) boxes are the quads (xmin,ymin),(xmax,ymin),(xmax,ymax),(xmin,ymax)."""

    def box(coords: tuple[int, int, int, int], text: str | None) -> Instance:
        return Instance(ltrb_points(*coords), BoxType.LTRB, text, line=1)

    r = evaluate_sample(
        Sample("img_1", (box((0, 0, 100, 20), "ABCDE"),), (box((0, 0, 60, 20), None),)),
        TedEvalParams(),
    )
    assert pcc_of(r, 0)[0] == [10, 10] and scores(r) == pytest.approx((0.6, 0.6, 0.6))


def test_batch_evaluation_equals_single_samples() -> None:
    """Evaluating samples together (sample-major flat arrays) changes nothing."""
    samples = [
        sample(gts(G0), dets("0,0,60,0,60,20,0,20")),
        sample([], dets("0,0,10,0,10,10,0,10")),
        sample(gts(G0, ("110,0,200,0,200,20,110,20", "FGH")), dets("0,0,200,0,200,20,0,20")),
        sample(gts(G0, ("80,0,180,0,180,20,80,20", "###")), dets("0,0,120,0,120,20,0,20")),
        sample(gts(G0), []),
    ]
    together = evaluate_batch(samples, TedEvalParams())
    for s, r in zip(samples, together, strict=True):
        alone = evaluate_sample(s, TedEvalParams())
        assert scores(r) == scores(alone)
        assert r.matches == alone.matches and r.gt == alone.gt and r.det == alone.det
        assert r.evidence.pcc.hit_by == alone.evidence.pcc.hit_by
