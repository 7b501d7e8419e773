"""CLEval (0.1.1 and legacy): worked examples of spec 5.13, quirks, properties, references."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import shapely
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from metrics.cleval.geometry import interiors_apart, pnpoly, poly_pcc, poly_points
from metrics.cleval.match import lcs
from metrics.cleval.metric import (
    ClevalLegacyParams,
    ClevalParams,
    evaluate_batch,
    evaluate_batch_e2e,
    evaluate_batch_legacy,
    evaluate_batch_legacy_e2e,
    evaluate_sample,
    evaluate_sample_e2e,
    evaluate_sample_legacy,
    evaluate_sample_legacy_e2e,
    global_extras,
    validate,
    validate_e2e,
)
from metrics.io.reader import load_dataset
from metrics.model import BoxType, Dataset, Instance, Sample, Severity
from metrics.order import clockwise_violations
from metrics.quads import is_convex_quad
from metrics.registry import METRICS
from metrics.results import MatchKind, SampleResult, Verdict, aggregate
from metrics.runner import run
from tests.conftest import SHARED, shared_or_skip
from tests.metrics.helpers import convex_quads, dets, gts, quad, sample

TOL = 1e-6
G0 = ("0,0,100,0,100,20,0,20", "ABCDE")
D60 = "0,0,60,0,60,20,0,20"
V011 = ClevalParams()
LEGACY = ClevalLegacyParams()
EVIDENCE_KEYS = {"pcc", "pcc_vertical", "pcc_hits", "pcc_hit_by", "dc_det_rule", "counters"}
E2E_KEYS = EVIDENCE_KEYS | {"e2e", "consumed", "remaining"}


def rph(r: SampleResult) -> tuple[float, float, float]:
    return r.recall, r.precision, r.hmean


def approx(*values: float) -> Any:
    return pytest.approx(values, abs=1e-12)


def hits(r: SampleResult, gt: int = 0) -> list[int]:
    return [int(v) for v in r.evidence["pcc_hits"][gt]]


def counters(r: SampleResult) -> dict[str, int]:
    return dict(r.evidence["counters"])


# --------------------------------------------------------------------------- worked examples


def test_e1_one_to_one_partial_cover() -> None:
    s = sample(gts(G0), dets(D60))
    for r in (evaluate_sample(s, V011), evaluate_sample_legacy(s, LEGACY)):
        assert rph(r) == approx(0.6, 1.0, 0.75)
        assert set(r.evidence) == EVIDENCE_KEYS
        np.testing.assert_array_equal(
            r.evidence["pcc"][0], [[10, 10], [30, 10], [50, 10], [70, 10], [90, 10]]
        )
        assert r.evidence["pcc_vertical"] == (False,)
        assert hits(r) == [1, 1, 1, 0, 0]
        assert r.evidence["pcc_hit_by"][0] == ((0,), (0,), (0,), (), ())
        assert [(m.kind, m.label, m.gt, m.det) for m in r.matches] == [
            (MatchKind.ONE_TO_ONE, "OO", (0,), (0,))
        ]
        g, d = r.gt[0], r.det[0]
        assert (g.verdict, g.credit, g.partners) == (Verdict.PARTIAL, 0.6, (0,))
        assert g.values == {"found": 3.0, "length": 5.0, "split": 0.0, "gran_r": 0.0}
        assert (d.verdict, d.credit) == (Verdict.MATCHED, 1.0)
        assert d.values == {
            "credited": 3.0,
            "total": 3.0,
            "merge": 0.0,
            "gran_p": 0.0,
            "fp_chars": 0.0,
        }
        assert counters(r) == {
            "split": 0,
            "merge": 0,
            "overlap": 0,
            "miss": 2,
            "fp_boxes": 0,
            "fp_chars": 0,
        }
        assert (r.tally["tp"], r.tally["chars_gt"], r.tally["chars_det"]) == (3, 5, 3)


def test_e2_pcc_on_right_edge_is_outside() -> None:
    r = evaluate_sample(sample(gts(G0), dets("0,0,30,0,30,20,0,20")), V011)
    assert (r.recall, r.precision) == approx(0.2, 1.0)
    assert hits(r) == [1, 0, 0, 0, 0]


def test_e3_split_half_open_and_e2e_order() -> None:
    s = sample(
        gts(G0), [quad("0,0,50,0,50,20,0,20", "AB", 1), quad("50,0,100,0,100,20,50,20", "CDE", 2)]
    )
    r = evaluate_sample(s, V011)
    assert (r.recall, r.precision) == approx(0.8, 1.0)
    assert [(m.kind, m.label, m.gt, m.det) for m in r.matches] == [
        (MatchKind.SPLIT, "OM", (0,), (0, 1))
    ]
    assert r.evidence["pcc_hit_by"][0] == ((0,), (0,), (1,), (1,), (1,))
    assert counters(r)["split"] == 1
    assert (r.tally["tp"], r.tally["gran_r"], r.tally["gran_p"]) == (5, 1, 0)
    g = r.gt[0]
    assert (g.verdict, g.credit, g.values["split"], g.values["gran_r"]) == (
        Verdict.MATCHED,
        1.0,
        1.0,
        1.0,
    )
    e = evaluate_sample_e2e(s, V011)
    assert set(e.evidence) == E2E_KEYS
    assert (e.recall, e.precision) == approx(0.8, 1.0)
    assert e.evidence["e2e"] == (
        {"gt": 0, "dets": (0, 1), "text": "ABCDE", "lcs": "ABCDE", "lcs_len": 5},
    )
    assert e.evidence["consumed"] == {0: "AB", 1: "CDE"}
    assert e.evidence["remaining"] == {0: "", 1: ""}
    assert e.extra["recognition_score"] == 1.0
    assert (e.extra["det_recall"], e.extra["det_precision"]) == approx(0.8, 1.0)


def test_e4_overlapped_pcc_counts_twice_in_chars_det() -> None:
    s = sample(
        gts(G0), [quad("0,0,60,0,60,20,0,20", "ABC", 1), quad("40,0,100,0,100,20,40,20", "CDE", 2)]
    )
    r = evaluate_sample(s, V011)
    assert (r.recall, r.precision) == approx(0.8, 5 / 6)
    assert hits(r) == [1, 1, 2, 1, 1]
    assert r.evidence["pcc_hit_by"][0][2] == (0, 1)
    assert counters(r)["overlap"] == 1
    assert r.tally["chars_det"] == 6
    d0, d1 = r.det
    assert (d0.values["credited"], d0.values["total"], d0.verdict) == (3, 3, Verdict.MATCHED)
    assert (d1.values["credited"], d1.values["total"], d1.verdict) == (2, 3, Verdict.PARTIAL)
    e = evaluate_sample_e2e(s, V011)
    assert (e.recall, e.precision) == approx(0.8, 5 / 6)
    step = e.evidence["e2e"][0]
    assert (step["text"], step["lcs"], step["lcs_len"]) == ("ABCCDE", "ABCDE", 5)
    assert e.evidence["consumed"] == {0: "ABC", 1: "DE"}
    assert e.evidence["remaining"] == {0: "", 1: "C"}
    assert (e.tally["tp"], e.tally["chars_det"], e.tally["fp_chars"]) == (5, 6, 1)


def test_e5_merge() -> None:
    s = sample(
        gts(G0, ("110,0,200,0,200,20,110,20", "FGH")),
        [quad("0,0,200,0,200,20,0,20", "ABCDEFGH", 1)],
    )
    r = evaluate_sample(s, V011)
    assert (r.recall, r.precision) == approx(1.0, 0.875)
    assert [(m.kind, m.label, m.gt, m.det) for m in r.matches] == [
        (MatchKind.MERGE, "MO", (0, 1), (0,))
    ]
    assert r.matches[0].values["area_precision_sum"] == pytest.approx(0.95, abs=1e-6)
    assert counters(r)["merge"] == 1
    assert (r.det[0].values["merge"], r.det[0].values["gran_p"]) == (1.0, 1.0)
    assert r.det[0].partners == (0, 1)
    e = evaluate_sample_e2e(s, V011)
    assert (e.recall, e.precision) == approx(1.0, 0.875)
    assert [(x["gt"], x["lcs"]) for x in e.evidence["e2e"]] == [(0, "ABCDE"), (1, "FGH")]
    assert e.evidence["remaining"] == {0: ""}


def test_e6_false_positive_character_estimate() -> None:
    s = sample(gts(G0), dets(D60, "300,0,400,0,400,20,300,20"))
    r = evaluate_sample(s, V011)
    assert rph(r) == pytest.approx((0.6, 0.75, 2 / 3), abs=1e-12)
    assert r.det[1].verdict is Verdict.FALSE_POSITIVE
    assert r.det[1].values["fp_chars"] == 1
    assert counters(r)["fp_boxes"] == 1 and counters(r)["fp_chars"] == 1
    legacy = evaluate_sample_legacy(s, LEGACY)
    assert rph(legacy) == pytest.approx((0.6, 0.375, 0.6 * 0.75 / 0.975), abs=1e-12)
    assert legacy.det[1].values["fp_chars"] == 5
    paper = evaluate_sample(s, ClevalParams(fp_chars="paper"))
    assert paper.precision == pytest.approx(3 / 8)
    tall = evaluate_sample(sample(gts(G0), dets(D60, "300,0,320,0,320,100,300,100")), V011)
    assert tall.det[1].values["fp_chars"] == 5


def test_e7_area_precision_threshold_differs_by_version() -> None:
    s = sample(gts(G0), dets("0,0,100,0,100,50,0,50"))
    assert (evaluate_sample(s, V011).recall, evaluate_sample(s, V011).precision) == approx(1, 1)
    legacy = evaluate_sample_legacy(s, LEGACY)
    assert (legacy.recall, legacy.precision) == approx(0.0, 0.0)
    assert legacy.det[0].values["fp_chars"] == 2
    assert legacy.det[0].near_miss is not None
    assert legacy.det[0].near_miss.value == pytest.approx(0.4)
    assert legacy.gt[0].verdict is Verdict.MISSED


def test_e8_dont_care_gt_absorbs_detection() -> None:
    s = sample(
        gts(G0, ("200,0,300,0,300,20,200,20", "###")),
        dets("0,0,100,0,100,20,0,20", "210,0,290,0,290,20,210,20"),
    )
    # 0.1.1 tests a single dc GT first, legacy the sum over PCC-sharing dc GTs first
    for r, rule in (
        (evaluate_sample(s, V011), "single"),
        (evaluate_sample_legacy(s, LEGACY), "sum"),
    ):
        assert (r.recall, r.precision) == approx(1.0, 1.0)
        np.testing.assert_array_equal(r.evidence["pcc"][1][:, 0], [210, 230, 250, 270, 290])
        assert r.evidence["dc_det_rule"] == {1: rule}
        assert r.gt[1].verdict is Verdict.DONT_CARE
        assert (r.det[1].verdict, r.det[1].absorbed_by) == (Verdict.DONT_CARE, 1)
        assert hits(r, 1) == [0, 0, 0, 0, 0]  # cleared: the dc GT is never matched


def test_e9_case_sensitivity() -> None:
    s = sample(gts(G0), [quad("0,0,100,0,100,20,0,20", "abcde", 1)])
    e = evaluate_sample_e2e(s, V011)
    assert (e.recall, e.precision) == approx(0.0, 0.0)
    assert (e.extra["det_recall"], e.extra["det_precision"]) == approx(1.0, 1.0)
    assert e.evidence["e2e"][0]["lcs_len"] == 0
    insensitive = evaluate_sample_e2e(s, ClevalParams(case_sensitive=False))
    assert (insensitive.recall, insensitive.precision) == approx(1.0, 1.0)
    assert insensitive.evidence["consumed"] == {0: "ABCDE"}
    legacy = evaluate_sample_legacy_e2e(s, ClevalLegacyParams(case_sensitive=False))
    assert (legacy.recall, legacy.precision, legacy.extra["recognition_score"]) == approx(1, 1, 1)


def test_e10_vertical_gt() -> None:
    s = sample(gts(("0,0,20,0,20,100,0,100", "ABCDE")), dets("0,0,20,0,20,60,0,60"))
    for r in (evaluate_sample(s, V011), evaluate_sample_legacy(s, LEGACY)):
        assert (r.recall, r.precision) == approx(0.6, 1.0)
        assert r.evidence["pcc_vertical"] == (True,)
        np.testing.assert_array_equal(
            r.evidence["pcc"][0], [[10, 90], [10, 70], [10, 50], [10, 30], [10, 10]]
        )
        assert hits(r) == [0, 0, 1, 1, 1]


# --------------------------------------------------------------------------- quirks


def test_q7_float32_area_precision() -> None:
    """ap = 0.299999999 is below 0.3 in float64 but rounds to float32(0.3)."""
    s = sample(
        gts(("0,0,299999999,0,299999999,1,0,1", "A")), dets("0,0,1000000000,0,1000000000,1,0,1")
    )
    assert evaluate_sample(s, V011).recall == 1.0
    assert evaluate_sample_legacy(s, ClevalLegacyParams(area_precision=0.3)).recall == 0.0


def test_q8_set_iteration_order_in_e2e() -> None:
    """Valid GTs {5, 9} iterate 9 first in 0.1.1: GT 9 consumes the merged det's text."""
    far = [
        (f"{1000 + 200 * k},0,{1100 + 200 * k},0,{1100 + 200 * k},20,{1000 + 200 * k},20", "###")
        for k in range(8)
    ]
    items = [*far[:5], ("0,0,40,0,40,20,0,20", "AB"), *far[5:], ("60,0,100,0,100,20,60,20", "AB")]
    s = sample(gts(*items), [quad("0,0,100,0,100,20,0,20", "AB", 1)])
    new = evaluate_sample_e2e(s, V011)
    old = evaluate_sample_legacy_e2e(s, LEGACY)
    assert [x["gt"] for x in new.evidence["e2e"]] == [9, 5]
    assert [x["gt"] for x in old.evidence["e2e"]] == [5, 9]
    assert [x["lcs_len"] for x in new.evidence["e2e"]] == [2, 0]
    assert new.gt[9].values["lcs"] == 2 and new.gt[5].values["lcs"] == 0


def test_q9_lcs_tie_rules() -> None:
    assert lcs("AB", "BA", legacy=False) == (1, "B")
    assert lcs("AB", "BA", legacy=True) == (1, "A")
    assert lcs("", "AB", legacy=False) == (0, "")


def _official_lcs(s1: str, s2: str, legacy: bool) -> tuple[int, str]:
    """The official string DP (utils.lcs / script.lcs), for comparison."""
    if not s1 or not s2:
        return 0, ""
    m = [["" for _ in s2] for _ in s1]
    for i in range(len(s1)):
        for j in range(len(s2)):
            if s1[i] == s2[j]:
                m[i][j] = s1[i] if i == 0 or j == 0 else m[i - 1][j - 1] + s1[i]
            elif legacy:
                m[i][j] = max(m[i - 1][j], m[i][j - 1], key=len)
            else:
                m[i][j] = m[i - 1][j] if len(m[i - 1][j]) > len(m[i][j - 1]) else m[i][j - 1]
    return len(m[-1][-1]), m[-1][-1]


@settings(max_examples=200, deadline=None)
@given(st.text("ABC", max_size=9), st.text("ABC", max_size=12), st.booleans())
def test_lcs_matches_official_string_dp(s1: str, s2: str, legacy: bool) -> None:
    assert lcs(s1, s2, legacy) == _official_lcs(s1, s2, legacy)


def _pnpoly_scalar(x: float, y: float, v: list[tuple[float, float]]) -> bool:
    inside = False
    for i in range(len(v)):
        j = i - 1 if i > 0 else len(v) - 1
        (xi, yi), (xj, yj) = v[i], v[j]
        if ((yi <= y < yj) or (yj <= y < yi)) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            inside = not inside
    return inside


coord = st.integers(-5, 25)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(coord, coord), min_size=4, max_size=4),
    st.lists(
        st.tuples(
            st.integers(-10, 60).map(lambda v: v / 2), st.integers(-10, 60).map(lambda v: v / 2)
        ),
        min_size=1,
        max_size=20,
    ),
)
def test_pnpoly_matches_scalar_half_open_rule(
    quad_pts: list[tuple[int, int]], points: list[tuple[float, float]]
) -> None:
    q = np.array(quad_pts, dtype=float)
    p = np.array(points, dtype=float)
    got = pnpoly(p[:, 0], p[:, 1], np.repeat(q[None], len(p), axis=0))
    want = [_pnpoly_scalar(x, y, [tuple(v) for v in q.tolist()]) for x, y in points]
    assert got.tolist() == want


def test_q11_dc_pccs_computed_before_the_cut() -> None:
    """A dc GT overlapping a care GT keeps PCCs there; its cut polygon has no area there."""
    s = sample(
        gts(("0,0,100,0,100,20,0,20", "ABCDE"), ("0,0,200,0,200,20,0,20", "###")),
        dets("0,0,100,0,100,20,0,20"),
    )
    r = evaluate_sample(s, V011)
    np.testing.assert_array_equal(r.evidence["pcc"][1][:, 0], np.arange(10, 200, 20))
    assert r.det[0].verdict is Verdict.MATCHED  # ap vs the cut dc GT = 0: not absorbed
    assert r.evidence["dc_det_rule"] == {}
    assert (r.recall, r.precision) == approx(1.0, 1.0)


def test_one_to_one_uniqueness_counts_dont_care_dets() -> None:
    """Det 1 is absorbed by the cut dc GT (1000/3000 >= 0.3) but still blocks GT 0's OO."""
    s = sample(
        gts(("0,0,100,0,100,20,0,20", "ABCDE"), ("0,0,200,0,200,20,0,20", "###")),
        dets("0,0,100,0,100,20,0,20", "0,0,150,0,150,20,0,20"),
    )
    r = evaluate_sample(s, V011)
    assert (r.det[1].verdict, r.det[1].absorbed_by) == (Verdict.DONT_CARE, 1)
    assert r.gt[0].verdict is Verdict.MISSED
    assert r.det[0].verdict is Verdict.FALSE_POSITIVE
    assert r.matches == ()
    assert (r.recall, r.precision) == approx(0.0, 0.0)


def test_ltrb_boxes_are_quads() -> None:
    g = Instance(
        points=np.array([[0, 0], [100, 0], [100, 20], [0, 20]], float),
        box_type=BoxType.LTRB,
        text="ABCDE",
        line=1,
    )
    d = Instance(
        points=np.array([[0, 0], [60, 0], [60, 20], [0, 20]], float), box_type=BoxType.LTRB, line=1
    )
    assert evaluate_sample(sample([g], [d]), V011).recall == pytest.approx(0.6)


def test_confidence_order_reported_in_file_indices() -> None:
    """Dets are evaluated by descending confidence; every index in the result is a file index."""
    s = sample(
        gts(G0),
        [
            quad("300,0,400,0,400,20,300,20", None, 1, 0.2),
            quad("0,0,60,0,60,20,0,20", None, 2, 0.9),
        ],
    )
    r = evaluate_sample(s, V011)
    assert [d.index for d in r.det] == [0, 1]
    assert r.det[1].verdict is Verdict.MATCHED and r.det[0].verdict is Verdict.FALSE_POSITIVE
    assert r.matches[0].det == (1,)
    assert r.gt[0].partners == (1,)
    assert r.evidence["pcc_hit_by"][0][:3] == ((1,), (1,), (1,))


def test_split_three_ways_e2e_drops_extra_det() -> None:
    """Three dets share the only PCC of a 1-char GT: only two are ordered (spec 5.6 a)."""
    box = "0,0,20,0,20,20,0,20"
    s = sample(gts((box, "A")), [quad(box, "A", 1), quad(box, "A", 2), quad(box, "A", 3)])
    e = evaluate_sample_e2e(s, V011)
    assert e.evidence["e2e"][0]["dets"] == (0, 1)
    assert e.evidence["e2e"][0]["text"] == "AA"
    assert e.evidence["consumed"] == {0: "A", 1: "", 2: ""}
    assert e.tally["gran_r"] == 2


# --------------------------------------------------------------------------- POLY (5.9)


def poly(coords: str, text: str | None, line: int = 1) -> Instance:
    return quad(coords, text, line)


def test_poly_pcc_resampling() -> None:
    pts = np.array([[0, 0], [50, 0], [100, 0], [100, 20], [50, 20], [0, 20]], float)
    np.testing.assert_array_equal(poly_pcc(pts, 2), [[25, 10], [75, 10]])
    assert poly_pcc(pts, 0).shape == (0, 2)


def test_poly_padding_of_short_inputs() -> None:
    ring, box = poly_points(np.array([[0, 0], [10, 0], [10, 5]], float))
    np.testing.assert_array_equal(ring, [[0, 0], [10, 0], [10, 5], [0, 5]])
    ring, box = poly_points(np.array([[3, 7]], float))
    np.testing.assert_array_equal(box, [[3, 7], [3, 3], [3, 3], [3, 3]])


def test_poly_boundary_pcc_not_inside_and_dc_gets_ten_chars() -> None:
    g = poly("0,0,50,0,100,0,100,20,50,20,0,20", "AB", 1)
    dc = poly("200,0,300,0,300,20,200,20", "###", 2)
    d = poly("0,0,25,0,50,0,50,20,25,20,0,20", None, 1)  # PCC (25,10) inside, (75,10) out
    fp = poly("400,0,450,0,500,0,500,20,450,20,400,20", None, 2)
    r = evaluate_sample(sample([g, dc], [d, fp]), V011)
    assert len(r.evidence["pcc"][1]) == 10
    assert r.det[1].values["fp_chars"] == 1
    assert (r.recall, r.precision) == approx(0.5, 0.5)
    edge = poly("0,0,12,0,25,0,25,20,12,20,0,20", None, 1)  # PCC (25,10) on the boundary
    assert evaluate_sample(sample([g], [edge]), V011).recall == 0.0


# --------------------------------------------------------------------------- validation


def test_validate_e2e_needs_transcriptions() -> None:
    s = sample(gts(G0), dets(D60))
    assert validate(s, V011) == []
    problems = validate_e2e(s, V011)
    assert [(p.severity, p.source, p.line, p.sample_id) for p in problems] == [
        (Severity.ERROR, "det:res_img_1.txt", 1, "img_1")
    ]


def test_validate_poly_short_and_legacy_orientation() -> None:
    s = sample([poly("0,0,10,0,10,5", "###", 3)], [poly("0,0,5,0,10,0,10,5,5,5,0,5", None)])
    assert [(p.severity, p.line) for p in validate(s, V011)] == [(Severity.WARNING, 3)]
    ccw = sample(gts(("0,0,0,20,100,20,100,0", "ABCDE")), [])
    assert [p.severity for p in validate(ccw, LEGACY)] == [Severity.ERROR]
    assert validate(ccw, V011) == []
    assert validate(ccw, ClevalLegacyParams(check_orientation=False)) == []


def test_params_reject_unknown_switch_values() -> None:
    with pytest.raises(ValueError):
        ClevalParams(fp_chars="estimate")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        ClevalLegacyParams(rs="other")  # type: ignore[arg-type]


def test_rs_paper_denominator() -> None:
    """RS paper: max(PCCs in the det, len(text)); official: len(text)."""
    s = sample(gts(G0), [quad("0,0,100,0,100,20,0,20", "ABC", 1)])
    official = evaluate_sample_legacy_e2e(s, LEGACY)
    paper = evaluate_sample_legacy_e2e(s, ClevalLegacyParams(rs="paper"))
    assert official.extra["recognition_score"] == 1.0
    assert paper.extra["recognition_score"] == pytest.approx(3 / 5)
    assert global_extras([paper])["recognition_score"] == pytest.approx(3 / 5)


# --------------------------------------------------------------------------- properties


def _box(x: int, y: int, w: int, h: int) -> str:
    return f"{x},{y},{x + w},{y},{x + w},{y + h},{x},{y + h}"


boxes = st.tuples(st.integers(0, 200), st.integers(0, 100), st.integers(1, 120), st.integers(1, 60))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.tuples(boxes, st.text("AB#", min_size=0, max_size=6)), max_size=6),
    st.lists(st.tuples(boxes, st.text("AB", max_size=6)), max_size=8),
)
def test_scores_are_between_zero_and_one(
    g: list[tuple[tuple[int, int, int, int], str]], d: list[tuple[tuple[int, int, int, int], str]]
) -> None:
    gl = [quad(_box(*b), "###" if "#" in t else t, k + 1) for k, (b, t) in enumerate(g)]
    dl = [quad(_box(*b), t, k + 1) for k, (b, t) in enumerate(d)]
    s = sample(gl, dl)
    for r in (
        evaluate_sample(s, V011),
        evaluate_sample_legacy(s, LEGACY),
        evaluate_sample_e2e(s, V011),
        evaluate_sample_legacy_e2e(s, LEGACY),
    ):
        assert 0.0 <= r.recall <= 1.0 and 0.0 <= r.precision <= 1.0
        assert len(r.gt) == len(gl) and len(r.det) == len(dl)
    batch = evaluate_batch([s, s], V011)
    assert rph(batch[1]) == rph(evaluate_sample(s, V011))


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 10), st.data())
def test_split_into_k_equal_pieces_costs_k_minus_one(length: int, data: st.DataObject) -> None:
    k = data.draw(st.integers(2, length))
    width = 20 * length * k
    text = "X" * length
    pieces = [_box(m * width // k, 0, width // k, 20) for m in range(k)]
    s = sample(gts((_box(0, 0, width, 20), text)), dets(*pieces))
    for r in (evaluate_sample(s, V011), evaluate_sample_legacy(s, LEGACY)):
        assert r.tally["gran_r"] == k - 1
        assert r.gt[0].values["gran_r"] == k - 1
        assert counters(r)["split"] == 1
        assert r.recall == pytest.approx((length - (k - 1)) / length)
        assert r.precision == pytest.approx(1.0)


# --------------------------------------------------------------------------- references


def _reference_files() -> list[str]:
    ref = SHARED / "reference"
    if not ref.is_dir():
        return ["<missing>"]
    return sorted(f.name for f in ref.glob("*cleval*.json") if not f.name.endswith(".FAILED.json"))


EVALUATE: dict[str, tuple[Any, Any]] = {
    "cleval_det": (evaluate_batch, V011),
    "cleval_det_polyfix": (evaluate_batch, V011),  # POLY input, "minimal patch" semantics
    "cleval_e2e": (evaluate_batch_e2e, V011),
    "cleval_legacy_det": (evaluate_batch_legacy, LEGACY),
    "cleval_legacy_det_polyfix": (evaluate_batch_legacy, LEGACY),
    "cleval_legacy_e2e": (evaluate_batch_legacy_e2e, LEGACY),
}

GLOBAL_V011 = {
    "num_char_gt": "chars_gt",
    "num_char_det": "chars_det",
    "num_char_tp_recall": "tp",
    "gran_score_recall": "gran_r",
    "gran_score_precision": "gran_p",
    "num_char_fp": "fp_chars",
    "num_splitted": "split",
    "num_merged": "merge",
    "num_char_overlapped": "overlap",
}
GLOBAL_LEGACY = {
    "num_merge": "merge",
    "num_split": "split",
    "num_false_pos": "fp_boxes",
    "char_miss": "miss",
    "char_overlap": "overlap",
    "char_false_pos": "fp_chars",
}


def _evaluate(metric: str, samples: list[Sample]) -> list[SampleResult]:
    fn, params = EVALUATE[metric]
    out: list[SampleResult] = fn(samples, params)
    return out


def _check_counters(g: dict[str, Any], results: list[SampleResult]) -> None:
    """Global attribute counters and, for E2E, RS and the detection-level scores."""
    total = aggregate(results).tally
    if "metadata" in g:
        table = {k: v for k, v in GLOBAL_LEGACY.items() if k in g["metadata"]}
        assert {v: total[v] for v in table.values()} == {
            v: g["metadata"][k] for k, v in table.items()
        }
    else:
        assert {v: total[v] for v in GLOBAL_V011.values()} == {
            v: g[k] for k, v in GLOBAL_V011.items()
        }
    extras = global_extras(results)
    if "recognition_score" in g:
        assert extras["recognition_score"] == pytest.approx(g["recognition_score"], abs=TOL)
    for key in ("recall", "precision", "hmean") if "det" in g else ():
        assert extras[f"det_{key}"] == pytest.approx(g["det"][key], abs=TOL), key


@pytest.mark.conformance
@pytest.mark.parametrize("name", _reference_files())
def test_reference_reproduced(name: str) -> None:
    """Per-image and global R/P/H within 1e-6 and the global counters of every reference."""
    path: Path = shared_or_skip("reference", name)
    ref = json.loads(path.read_text())
    ds = load_dataset(SHARED.parent / ref["inputs"]["gt"], SHARED.parent / ref["inputs"]["det"])
    results = _evaluate(ref["metric"], list(ds.samples))
    by_id = {r.sample_id: r for r in results}
    assert set(ref["per_image"]) <= set(by_id)
    for sid, want in ref["per_image"].items():
        got = by_id[sid]
        for key in ("recall", "precision", "hmean"):
            assert getattr(got, key) == pytest.approx(want[key], abs=TOL), (sid, key)
    total = aggregate(results)
    for key in ("recall", "precision", "hmean"):
        assert getattr(total, key) == pytest.approx(ref["global"][key], abs=TOL), key
    _check_counters(ref["global"], results)


# --------------------------------------------------------------------------- fast paths

_POINT = st.tuples(st.integers(-6, 6), st.integers(-6, 6))


@settings(max_examples=300, deadline=None)
@given(convex_quads(), convex_quads())
def test_interiors_apart_agrees_with_geos(
    qa: list[tuple[int, int]], qb: list[tuple[int, int]]
) -> None:
    """The exact separating-axis test that lets the don't-care cut skip GEOS."""
    a, b = np.array([qa], dtype=np.float64), np.array([qb], dtype=np.float64)
    assert is_convex_quad(a)[0] and is_convex_quad(b)[0]
    area = shapely.area(shapely.intersection(shapely.polygons(a[0]), shapely.polygons(b[0])))
    assert bool(interiors_apart(a, b)[0]) == (area == 0)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.lists(_POINT, min_size=4, max_size=4), min_size=1, max_size=6), st.data())
def test_orientation_check_matches_rrc_helper(
    boxes: list[list[tuple[int, int]]], data: st.DataObject
) -> None:
    items = [quad(",".join(f"{x},{y}" for x, y in b), "ab", n) for n, b in enumerate(boxes, 1)]
    k = data.draw(st.integers(0, len(items)))
    s = sample(items[:k], items[k:])
    found = [(p.source, p.line) for p in validate(s, LEGACY) if "clockwise" in p.message]
    want = [(s.gt_source, items[i].line) for i in clockwise_violations(items[:k])]
    want += [(s.det_source, items[k + i].line) for i in clockwise_violations(items[k:])]
    assert found == want


def test_metrics_of_one_run_share_preparation_without_changing_results() -> None:
    """cleval_det and cleval_legacy_det reuse one memoized preparation within a run."""
    samples = []
    for n in range(3):
        g = gts(G0, ("0,30,100,30,100,50,0,50", "###"), (f"{n},28,60,28,60,52,{n},52", "XY"))
        d = dets(D60, "0,25,100,25,100,55,0,55", f"50,0,{110 + n},0,{110 + n},20,50,20")
        samples.append(Sample(f"img_{n}", tuple(g), tuple(d)))
    ds = Dataset(tuple(samples))
    specs = [METRICS["cleval_det"], METRICS["cleval_legacy_det"]]
    together = run(ds, specs)
    alone = [run(ds, [spec])[0] for spec in specs]
    for a, b in zip(together, alone, strict=True):
        for s in ds.samples:
            ra, rb = a.results[s.id], b.results[s.id]
            assert (ra.tally, ra.gt, ra.det, ra.matches) == (rb.tally, rb.gt, rb.det, rb.matches)
            assert ra.evidence["pcc_hit_by"] == rb.evidence["pcc_hit_by"]
