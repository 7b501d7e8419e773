"""CLEval worked examples of spec 5.13 (E1-E10), for 0.1.1 and the paper-era code:
character centres, splits, overlaps, merges, false-positive characters, don't-care,
case, vertical words."""

from __future__ import annotations

import numpy as np
import pytest

from metrics.cleval.evidence import ClevalEvidence, RecognitionStep
from metrics.cleval.metric import (
    ClevalLegacyParams,
    ClevalParams,
    evaluate_sample,
)
from metrics.core.results import MatchKind, Verdict
from tests.support import CLEVAL_LEGACY as LEGACY
from tests.support import CLEVAL_V011 as V011
from tests.support import WORD_D60 as D60
from tests.support import WORD_G0 as G0
from tests.support import approx_tuple as approx
from tests.support import cleval_counters as counters
from tests.support import dets, gts, quad, run_one, sample
from tests.support import pcc_hits as hits
from tests.support import scores as rph


def test_e1_one_to_one_partial_cover() -> None:
    s = sample(gts(G0), dets(D60))
    for r in (evaluate_sample(s, V011), run_one("cleval_legacy_det", s, LEGACY)):
        assert rph(r) == approx(0.6, 1.0, 0.75)
        assert isinstance(r.evidence, ClevalEvidence) and r.evidence.e2e is None
        np.testing.assert_array_equal(
            r.evidence.pcc.points[0], [[10, 10], [30, 10], [50, 10], [70, 10], [90, 10]]
        )
        assert r.evidence.pcc.vertical == (False,)
        assert hits(r) == [1, 1, 1, 0, 0]
        assert r.evidence.pcc.hit_by[0] == ((0,), (0,), (0,), (), ())
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
    assert r.evidence.pcc.hit_by[0] == ((0,), (0,), (1,), (1,), (1,))
    assert counters(r)["split"] == 1
    assert (r.tally["tp"], r.tally["gran_r"], r.tally["gran_p"]) == (5, 1, 0)
    g = r.gt[0]
    assert (g.verdict, g.credit, g.values["split"], g.values["gran_r"]) == (
        Verdict.MATCHED,
        1.0,
        1.0,
        1.0,
    )
    e = run_one("cleval_e2e", s, V011)
    assert isinstance(e.evidence, ClevalEvidence) and e.evidence.e2e is not None
    assert (e.recall, e.precision) == approx(0.8, 1.0)
    assert e.evidence.e2e == (RecognitionStep(0, (0, 1), "ABCDE", "ABCDE", 5),)
    assert e.evidence.consumed == {0: "AB", 1: "CDE"}
    assert e.evidence.remaining == {0: "", 1: ""}
    assert e.extra["recognition_score"] == 1.0
    assert (e.extra["det_recall"], e.extra["det_precision"]) == approx(0.8, 1.0)


def test_e4_overlapped_pcc_counts_twice_in_chars_det() -> None:
    s = sample(
        gts(G0), [quad("0,0,60,0,60,20,0,20", "ABC", 1), quad("40,0,100,0,100,20,40,20", "CDE", 2)]
    )
    r = evaluate_sample(s, V011)
    assert (r.recall, r.precision) == approx(0.8, 5 / 6)
    assert hits(r) == [1, 1, 2, 1, 1]
    assert r.evidence.pcc.hit_by[0][2] == (0, 1)
    assert counters(r)["overlap"] == 1
    assert r.tally["chars_det"] == 6
    d0, d1 = r.det
    assert (d0.values["credited"], d0.values["total"], d0.verdict) == (3, 3, Verdict.MATCHED)
    assert (d1.values["credited"], d1.values["total"], d1.verdict) == (2, 3, Verdict.PARTIAL)
    e = run_one("cleval_e2e", s, V011)
    assert (e.recall, e.precision) == approx(0.8, 5 / 6)
    step = e.evidence.e2e[0]
    assert (step.text, step.lcs, step.lcs_len) == ("ABCCDE", "ABCDE", 5)
    assert e.evidence.consumed == {0: "ABC", 1: "DE"}
    assert e.evidence.remaining == {0: "", 1: "C"}
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
    e = run_one("cleval_e2e", s, V011)
    assert (e.recall, e.precision) == approx(1.0, 0.875)
    assert [(x.gt, x.lcs) for x in e.evidence.e2e] == [(0, "ABCDE"), (1, "FGH")]
    assert e.evidence.remaining == {0: ""}


def test_e6_false_positive_character_estimate() -> None:
    s = sample(gts(G0), dets(D60, "300,0,400,0,400,20,300,20"))
    r = evaluate_sample(s, V011)
    assert rph(r) == pytest.approx((0.6, 0.75, 2 / 3), abs=1e-12)
    assert r.det[1].verdict is Verdict.FALSE_POSITIVE
    assert r.det[1].values["fp_chars"] == 1
    assert counters(r)["fp_boxes"] == 1 and counters(r)["fp_chars"] == 1
    legacy = run_one("cleval_legacy_det", s, LEGACY)
    assert rph(legacy) == pytest.approx((0.6, 0.375, 0.6 * 0.75 / 0.975), abs=1e-12)
    assert legacy.det[1].values["fp_chars"] == 5
    paper = evaluate_sample(s, ClevalParams(fp_chars="paper"))
    assert paper.precision == pytest.approx(3 / 8)
    tall = evaluate_sample(sample(gts(G0), dets(D60, "300,0,320,0,320,100,300,100")), V011)
    assert tall.det[1].values["fp_chars"] == 5


def test_e7_area_precision_threshold_differs_by_version() -> None:
    s = sample(gts(G0), dets("0,0,100,0,100,50,0,50"))
    assert (evaluate_sample(s, V011).recall, evaluate_sample(s, V011).precision) == approx(1, 1)
    legacy = run_one("cleval_legacy_det", s, LEGACY)
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
        (run_one("cleval_legacy_det", s, LEGACY), "sum"),
    ):
        assert (r.recall, r.precision) == approx(1.0, 1.0)
        np.testing.assert_array_equal(r.evidence.pcc.points[1][:, 0], [210, 230, 250, 270, 290])
        assert r.evidence.dc_det_rule == {1: rule}
        assert r.gt[1].verdict is Verdict.DONT_CARE
        assert (r.det[1].verdict, r.det[1].absorbed_by) == (Verdict.DONT_CARE, 1)
        assert hits(r, 1) == [0, 0, 0, 0, 0]  # cleared: the dc GT is never matched


def test_e9_case_sensitivity() -> None:
    s = sample(gts(G0), [quad("0,0,100,0,100,20,0,20", "abcde", 1)])
    e = run_one("cleval_e2e", s, V011)
    assert (e.recall, e.precision) == approx(0.0, 0.0)
    assert (e.extra["det_recall"], e.extra["det_precision"]) == approx(1.0, 1.0)
    assert e.evidence.e2e[0].lcs_len == 0
    insensitive = run_one("cleval_e2e", s, ClevalParams(case_sensitive=False))
    assert (insensitive.recall, insensitive.precision) == approx(1.0, 1.0)
    assert insensitive.evidence.consumed == {0: "ABCDE"}
    legacy = run_one("cleval_legacy_e2e", s, ClevalLegacyParams(case_sensitive=False))
    assert (legacy.recall, legacy.precision, legacy.extra["recognition_score"]) == approx(1, 1, 1)


def test_e10_vertical_gt() -> None:
    s = sample(gts(("0,0,20,0,20,100,0,100", "ABCDE")), dets("0,0,20,0,20,60,0,60"))
    for r in (evaluate_sample(s, V011), run_one("cleval_legacy_det", s, LEGACY)):
        assert (r.recall, r.precision) == approx(0.6, 1.0)
        assert r.evidence.pcc.vertical == (True,)
        np.testing.assert_array_equal(
            r.evidence.pcc.points[0], [[10, 90], [10, 70], [10, 50], [10, 30], [10, 10]]
        )
        assert hits(r) == [0, 0, 1, 1, 1]
