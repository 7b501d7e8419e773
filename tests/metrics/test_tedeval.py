"""TedEval: worked examples of spec 4.7, quirks of 4.6, properties, and the official references."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.geometry import rings_of
from metrics.io.reader import load_dataset
from metrics.model import BoxType, Instance, Sample, Severity, ltrb_points
from metrics.quads import convex_quad_inter, strictly_apart
from metrics.results import MatchKind, NearMiss, SampleResult, Verdict, aggregate
from metrics.tedeval.metric import (
    TedEvalParams,
    _Contours,
    _inside,
    evaluate_batch,
    evaluate_sample,
    global_extras,
    validate,
)
from tests.conftest import SHARED, shared_or_skip
from tests.metrics.helpers import convex_quads, dets, gts, quad, sample

TOL = 1e-6
G0 = ("0,0,100,0,100,20,0,20", "ABCDE")  # PCC at x = 10, 30, 50, 70, 90 (y = 10)
REFERENCES = (
    "ic13__original",
    "ic13__crop80",
    "ic13__split2",
    "ic13__overlap10",
    "ic13__merge_line",
    "ic15__original",
    "ic15__jitter_seed1",
    "ic15__split3",
    "ic15__multiline",
    "ic15__pixellink",
)


def run(
    gt: list[Instance], det: list[Instance], params: TedEvalParams | None = None
) -> SampleResult:
    return evaluate_sample(sample(gt, det), params or TedEvalParams())


def scores(r: SampleResult) -> tuple[float, float, float]:
    return r.recall, r.precision, r.hmean


def records(r: SampleResult) -> list[tuple[str, tuple[int, ...], tuple[int, ...]]]:
    return [(m.label, m.gt, m.det) for m in r.matches]


def pcc_of(r: SampleResult, gt: int) -> list[list[float]]:
    pts: list[list[float]] = r.evidence["pcc"][gt].tolist()
    return pts


def hits_of(r: SampleResult, gt: int) -> list[int]:
    counts: list[int] = r.evidence["pcc_hits"][gt].tolist()
    return counts


# --------------------------------------------------------------------------- parameters


def test_official_defaults() -> None:
    p = TedEvalParams()
    assert (p.area_recall, p.area_precision, p.center_diff) == (0.4, 0.4, 1.0)
    assert (p.vertical_aspect, p.multiline_angle) == (1.5, 45.0)
    assert (p.pivot_center, p.confidences) == ("centroid", None)


def test_unknown_pivot_center_is_refused() -> None:
    with pytest.raises(ValueError, match="pivot_center"):
        TedEvalParams(pivot_center="median")


# --------------------------------------------------------------------------- worked examples 4.7


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
    assert r.evidence["pcc_hit_by"][0] == ((0,), (0,), (0,), (), ())
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
    assert r.evidence["pcc_hit_by"][0] == ((0,), (0,), (1,), (1,), (1,))
    assert [d.credit for d in r.det] == [0.4, 0.6]
    assert [dict(d.values) for d in r.det] == [
        {"contained": 2, "total": 5},
        {"contained": 3, "total": 5},
    ]
    assert r.gt[0].verdict is Verdict.MATCHED and r.gt[0].partners == (0, 1)
    (ml,) = r.evidence["multiline"]
    assert (ml["kind"], ml["gt"], ml["det"], ml["rejected"]) == ("OM", (0,), (0, 1), False)
    assert ml["pivots"] == {0: ((0.0, 10.0), (25.0, 10.0)), 1: ((50.0, 10.0), (75.0, 10.0))}
    assert [(p["a"], p["b"], p["theta"], p["passed"]) for p in ml["pairs"]] == [
        (0, 1, 0.0, True),
        (1, 0, 0.0, True),
    ]
    assert ml["rejecting_pair"] is None


def test_overlapping_split_loses_the_doubly_covered_character() -> None:
    """E3: PCC x = 50 lies in both dets: it counts for both precisions but not for recall."""
    r = run(gts(G0), dets("0,0,60,0,60,20,0,20", "40,0,100,0,100,20,40,20"))
    assert scores(r) == pytest.approx((0.8, 0.6, 2 * 0.8 * 0.6 / 1.4))
    assert records(r) == [("OM", (0,), (0, 1))]
    assert hits_of(r, 0) == [1, 1, 2, 1, 1]
    assert r.evidence["pcc_hit_by"][0][2] == (0, 1)
    assert dict(r.gt[0].values) == {"found": 4, "length": 5}
    assert [d.credit for d in r.det] == [0.6, 0.6]


def test_multiline_merge_is_rejected() -> None:
    """E4: seen from G1's centre, G0's centre and left pivot diverge by 59.04° >= 45°."""
    r = run(gts(G0, ("0,30,100,30,100,50,0,50", "FGHIJ")), dets("0,0,100,0,100,50,0,50"))
    assert scores(r) == (0.0, 0.0, 0.0)
    assert r.matches == ()
    (ml,) = r.evidence["multiline"]
    assert (ml["kind"], ml["gt"], ml["det"]) == ("MO", (0, 1), (0,))
    assert ml["rejected"] and ml["rejecting_pair"] == (0, 1)
    assert ml["pivots"] == {0: ((0.0, 10.0), (50.0, 10.0)), 1: ((0.0, 40.0), (50.0, 40.0))}
    first, second = ml["pairs"]
    assert (first["a"], first["b"], first["passed"]) == (0, 1, False)
    assert first["theta"] == pytest.approx(59.04, abs=0.005)
    assert first["angle"] == pytest.approx(90 - math.degrees(math.atan2(30, 50)))
    assert (second["a"], second["b"], second["passed"]) == (1, 0, False)
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
    (ml,) = r.evidence["multiline"]
    assert [p["theta"] for p in ml["pairs"]] == [0.0, 0.0] and not ml["rejected"]
    assert ml["pivots"][1] == ((110.0, 10.0), (155.0, 10.0))
    assert dict(r.det[0].values) == {"contained": 8, "total": 8}
    assert r.det[0].partners == (0, 1)


def test_vertical_word_reads_bottom_to_top() -> None:
    """E6: aspect 5 > 1.5 rotates the points; PCC run from (10, 90) up to (10, 10)."""
    r = run(gts(("0,0,20,0,20,100,0,100", "ABCDE")), dets("0,0,20,0,20,60,0,60"))
    assert r.evidence["pcc_vertical"] == (True,)
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
    assert r.evidence["pcc"][1].shape == (0, 2)
    assert r.det[1].verdict is Verdict.DONT_CARE and r.det[1].absorbed_by == 1
    assert r.evidence["dc_det_rule"] == {1: "sum"}
    assert 0 not in r.evidence["det_polygons_after_dc"]
    assert r.evidence["det_polygons_after_dc"][1] == ()  # nothing left of det 1


# --------------------------------------------------------------------------- quirks 4.6


def test_detection_loses_the_dont_care_region_it_overlaps() -> None:
    """T8: a care det overlapping a dc region a little loses it: its precision rises."""
    dc = "80,0,180,0,180,20,80,20"
    r = run(gts(G0, (dc, "###")), dets("0,0,120,0,120,20,0,20"))
    assert records(r) == [("OO", (0,), (0,))]
    assert r.det[0].verdict is Verdict.MATCHED  # P = 2000/2000 after the cut, not 2000/2400
    assert r.evidence["dc_det_rule"] == {}
    det = shapely.Polygon([(0, 0), (120, 0), (120, 20), (0, 20)])
    g0 = shapely.Polygon([(0, 0), (100, 0), (100, 20), (0, 20)])
    dc_region = shapely.difference(shapely.Polygon([(80, 0), (180, 0), (180, 20), (80, 20)]), g0)
    expected = rings_of(shapely.difference(det, dc_region))
    got = r.evidence["det_polygons_after_dc"][0]
    assert len(got) == len(expected) == 1
    assert shapely.Polygon(got[0]).equals(shapely.Polygon(expected[0]))
    assert shapely.Polygon(got[0]).area == 2000


def test_single_dont_care_rule() -> None:
    """A det inside a big dc GT (R = 0.1, P = 1): the sum rule fails, the single rule fires."""
    r = run(gts(G0, ("200,0,1200,0,1200,20,200,20", "###")), dets("300,0,400,0,400,20,300,20"))
    assert r.det[0].verdict is Verdict.DONT_CARE
    assert r.evidence["dc_det_rule"] == {0: "single"}
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
    c_pivot = r.evidence["multiline"][0]["pivots"][0][1]
    r2 = run(
        gts(trapezoid, ("120,0,220,0,220,20,120,20", "FGHIJ")),
        dets("0,0,220,0,220,20,0,20"),
        TedEvalParams(pivot_center="vertex_mean"),
    )
    assert r2.evidence["multiline"][0]["pivots"][0][1] == (50.0, 10.0)
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
    assert r.evidence["pcc_hit_by"][0] == ((2,), (2,), (1,), (1,), (1,))
    assert r.extra["ap"] == 0.0
    assert global_extras([r]) == {"ap": 0.0}
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
        assert r.evidence["pcc_hit_by"] == alone.evidence["pcc_hit_by"]


# --------------------------------------------------------------------------- validation (T7)


def test_empty_care_transcription_is_an_input_error() -> None:
    s = sample(gts(G0, ("0,30,100,30,100,50,0,50", "")), dets("0,0,60,0,60,20,0,20"))
    (problem,) = validate(s, TedEvalParams())
    assert problem.severity is Severity.ERROR
    assert (problem.source, problem.line, problem.sample_id) == ("gt:gt_img_1.txt", 2, "img_1")
    assert "transcription" in problem.message


def test_polygons_and_float_coordinates_are_input_errors() -> None:
    s = sample(gts(("0,0,10,0,10,10,5,15,0,10", "ABC")), [quad("0.5,0,10,0,10,10,0,10")])
    problems = validate(s, TedEvalParams())
    assert [(p.source, p.line) for p in problems] == [
        ("gt:gt_img_1.txt", 1),
        ("det:res_img_1.txt", 1),
    ]
    assert validate(s, TedEvalParams(allow_float=True))[0].line == 1  # the polygon remains
    assert len(validate(s, TedEvalParams(allow_float=True))) == 1
    assert validate(sample(gts(G0, ("0,0,5,0,5,5,0,5", "###")), []), TedEvalParams()) == []


# --------------------------------------------------------------------------- PNPOLY (spec 0.6)


def _contours(rings: Sequence[tuple[Sequence[tuple[float, float]], bool]]) -> _Contours:
    """One detection made of the given contours (vertices, is_hole), smallest area first."""
    rings = sorted(rings, key=lambda r: abs(shapely.Polygon(r[0]).area))
    xy = np.array([p for r, _ in rings for p in r], dtype=np.float64)
    length = np.array([len(r) for r, _ in rings], dtype=np.intp)
    return _Contours(
        x=xy[:, 0],
        y=xy[:, 1],
        start=(np.cumsum(length) - length).astype(np.intp),
        length=length,
        hole=np.array([h for _, h in rings], dtype=bool),
        first=np.zeros(1, dtype=np.intp),
        count=np.array([len(rings)], dtype=np.intp),
    )


def test_point_in_polygon_smallest_containing_contour_decides() -> None:
    """Solid [0,100]², hole [20,80]², island [40,60]² inside the hole (Polygon3 semantics)."""
    c = _contours(
        [
            ([(0, 0), (100, 0), (100, 100), (0, 100)], False),
            ([(20, 20), (80, 20), (80, 80), (20, 80)], True),
            ([(40, 40), (60, 40), (60, 60), (40, 60)], False),
        ]
    )
    pts = np.array([[10, 10], [30, 30], [50, 50], [20, 50], [80, 50], [40, 50], [60, 50]], float)
    got = _inside(pts[:, 0], pts[:, 1], np.zeros(len(pts), dtype=np.intp), c)
    # island point inside; hole's left edge belongs to the hole, its right edge to the solid
    assert got.tolist() == [True, False, True, False, True, True, False]


@given(
    st.integers(-50, 50),
    st.integers(-50, 50),
    st.integers(1, 40),
    st.integers(1, 40),
    st.integers(-60, 60),
    st.integers(-60, 60),
)
def test_point_in_rectangle_is_half_open(
    x0: int, y0: int, w: int, h: int, px: int, py: int
) -> None:
    """Inside ⇔ x0 <= x < x1 and y0 <= y < y1, whatever the vertex order."""
    for ring in (
        [(x0, y0), (x0 + w, y0), (x0 + w, y0 + h), (x0, y0 + h)],
        [(x0, y0), (x0, y0 + h), (x0 + w, y0 + h), (x0 + w, y0)],
    ):
        c = _contours([(ring, False)])
        got = _inside(np.array([px], float), np.array([py], float), np.zeros(1, np.intp), c)
        assert bool(got[0]) == (x0 <= px < x0 + w and y0 <= py < y0 + h)


# --------------------------------------------------------------------------- properties


@settings(max_examples=150, deadline=None)
@given(
    x=st.integers(0, 500),
    y=st.integers(0, 500),
    w=st.integers(4, 300),
    h=st.integers(4, 120),
    shear=st.integers(-3, 3),
    slant=st.integers(-3, 3),
    text=st.text(st.characters(min_codepoint=65, max_codepoint=90), min_size=1, max_size=20),
)
def test_detection_equal_to_its_gt_scores_one(
    x: int, y: int, w: int, h: int, shear: int, slant: int, text: str
) -> None:
    """A non-vertical care GT detected exactly: every PCC lies strictly inside -> R = P = 1."""
    pts = [(x, y), (x + w, y + shear), (x + w + slant, y + shear + h), (x + slant, y + h)]
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    if max(ys) - min(ys) > 1.5 * (max(xs) - min(xs)):
        return  # vertical words are another rule (E6)
    coords = ",".join(f"{a},{b}" for a, b in pts)
    r = run([quad(coords, text)], [quad(coords)])
    assert scores(r) == (1.0, 1.0, 1.0)
    assert records(r) == [("OO", (0,), (0,))]
    assert hits_of(r, 0) == [1] * len(text)


# --------------------------------------------------------------------------- conformance


def _reference(name: str) -> dict[str, Any]:
    path = shared_or_skip("reference", f"{name}__tedeval.json")
    ref: dict[str, Any] = json.loads(path.read_text())
    return ref


def _evaluate_reference(ref: dict[str, Any]) -> list[SampleResult]:
    inputs = ref["inputs"]
    ds = load_dataset(SHARED.parent / inputs["gt"], SHARED.parent / inputs["det"])
    assert not ds.errors
    samples = list(ds.samples)
    assert not [p for s in samples for p in validate(s, TedEvalParams())]
    return evaluate_batch(samples, TedEvalParams())


@pytest.mark.conformance
@pytest.mark.parametrize("name", REFERENCES)
def test_reproduces_official_reference(name: str) -> None:
    ref = _reference(name)
    results = _evaluate_reference(ref)
    assert sorted(r.sample_id for r in results) == sorted(ref["per_image"])
    for r in results:
        expected = ref["per_image"][r.sample_id]
        for key in ("recall", "precision", "hmean"):
            assert getattr(r, key) == pytest.approx(expected[key], abs=TOL), (r.sample_id, key)
    total = aggregate(results)
    for key in ("recall", "precision", "hmean"):
        assert getattr(total, key) == pytest.approx(ref["global"][key], abs=TOL), key
    assert total.tally["n_gt_care"] == ref["global"]["num_gt_care"]
    assert total.tally["n_det_care"] == ref["global"]["num_det_care"]


@pytest.mark.conformance
@pytest.mark.parametrize("name", REFERENCES)
def test_reproduces_official_records_and_character_scores(name: str) -> None:
    """Per image: the official pairs (type, GT, dets), recallScore / precisionScore fractions
    and don't-care dets."""
    ref = _reference(name)
    for r in _evaluate_reference(ref):
        expected = ref["per_image"][r.sample_id]
        pairs = [(p["type"], tuple(p["gt"]), tuple(p["det"])) for p in expected["pairs"]]
        assert records(r) == pairs, r.sample_id
        found = [[g.values["found"], g.values["length"]] if g.partners else None for g in r.gt]
        assert found == (expected["recall_scores"] or [None] * len(r.gt)), r.sample_id
        contained = [
            [d.values["contained"], d.values["total"]] if d.partners else None for d in r.det
        ]
        assert contained == (expected["precision_scores"] or [None] * len(r.det)), r.sample_id
        dc = [d.index for d in r.det if d.verdict is Verdict.DONT_CARE]
        assert dc == expected["det_dont_care"], r.sample_id


@settings(max_examples=300, deadline=None)
@given(convex_quads(), convex_quads())
def test_strictly_apart_quads_are_at_positive_distance(
    qa: list[tuple[int, int]], qb: list[tuple[int, int]]
) -> None:
    """The exact test that lets cut don't-care GTs skip GEOS intersections (area exactly 0)."""
    a, b = np.array([qa], dtype=np.float64), np.array([qb], dtype=np.float64)
    gap = shapely.distance(shapely.polygons(a[0]), shapely.polygons(b[0]))
    assert bool(strictly_apart(a, b)[0]) == (gap > 0)
    if gap == 0:
        area = shapely.area(shapely.intersection(shapely.polygons(a[0]), shapely.polygons(b[0])))
        assert convex_quad_inter(a, b)[0] == pytest.approx(area, abs=1e-9)
