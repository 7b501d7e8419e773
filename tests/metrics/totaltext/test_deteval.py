"""Total-Text DetEval (spec D1-D6), hand-computed on axis-aligned rectangles: one-to-one,
split (OM), merge (MO), their one-member forms, the rounding of sigma / tau to 2 decimals,
strict ``>`` in one-to-one against ``>=`` in the other passes, and quirks 5, 8 and 9."""

from __future__ import annotations

from typing import Any

import pytest

from metrics.core.results import MatchKind, SampleResult, Verdict
from metrics.totaltext.deteval import evaluate_sample
from metrics.totaltext.evidence import TotalTextDetEvalEvidence
from metrics.totaltext.params import TotalTextDetEvalParams
from tests.support import Rect, approx_tuple, dets, gts, rect, rect_sample, sample, scores


def run(gt: list[Rect], det: list[Rect], **params: Any) -> SampleResult:
    return evaluate_sample(rect_sample(gt, det), TotalTextDetEvalParams(**params))


def records(r: SampleResult) -> list[tuple[str, tuple[int, ...], tuple[int, ...]]]:
    return [(m.label, m.gt, m.det) for m in r.matches]


def test_official_defaults() -> None:
    p = TotalTextDetEvalParams()
    assert (p.tr, p.tp, p.fsc_k, p.k, p.dc_threshold, p.decimals) == (0.7, 0.6, 0.8, 2, 0.5, 2)
    assert (p.oo_same_det, p.merge_gt_threshold) == (False, "tp")


def test_one_to_one() -> None:
    """sigma = 900 / 1000 = 0.9, tau = 900 / 900 = 1: OO, credit 1 each way."""
    r = run([(0, 0, 100, 10)], [(0, 0, 90, 10)])
    assert records(r) == [("OO", (0,), (0,))]
    assert r.matches[0].kind is MatchKind.ONE_TO_ONE
    assert r.matches[0].values["sigma[0,0]"] == 0.9
    assert r.matches[0].values["tau[0,0]"] == 1.0
    assert scores(r) == approx_tuple(1.0, 1.0, 1.0)
    assert [g.verdict for g in r.gt] == [Verdict.MATCHED]


def test_split_into_two_is_one_to_many() -> None:
    """Two halves: sigma 0.5 each (sum 1.0 >= 0.7), tau 1 each: OM, recall 0.8, precision
    2 x 0.8 over 2 dets."""
    r = run([(0, 0, 100, 10)], [(0, 0, 50, 10), (50, 0, 100, 10)])
    assert records(r) == [("OM", (0,), (0, 1))]
    assert r.matches[0].kind is MatchKind.SPLIT
    assert r.matches[0].values["sigma_sum"] == 1.0
    assert (r.extra["acc_recall"], r.extra["acc_precision"]) == (0.8, 1.6)
    assert scores(r)[:2] == approx_tuple(0.8, 0.8)
    assert [(d.verdict, d.credit) for d in r.det] == [(Verdict.PARTIAL, 0.8)] * 2


def test_merge_of_two_is_many_to_one() -> None:
    """One det over two GTs: tau 0.5 each (sum 1.0 >= 0.6), sigma 1 each: MO, recall
    2 x 0.8 over 2 GTs, precision 0.8."""
    r = run([(0, 0, 50, 10), (50, 0, 100, 10)], [(0, 0, 100, 10)])
    assert records(r) == [("MO", (0, 1), (0,))]
    assert r.matches[0].kind is MatchKind.MERGE
    assert (r.extra["acc_recall"], r.extra["acc_precision"]) == (1.6, 0.8)
    assert scores(r)[:2] == approx_tuple(0.8, 0.8)


def test_sigma_exactly_070_fails_one_to_one_but_is_om_single() -> None:
    """sigma = 700 / 1000 = 0.70 is not > 0.7 (one-to-one) but is >= 0.7: with a second det
    touching the GT (sigma 0.05) the one-to-many pass finds a single candidate and scores
    it as one-to-one (quirk 6)."""
    r = run([(0, 0, 100, 10)], [(0, 0, 70, 10), (95, 0, 200, 10)])
    assert records(r) == [("OM_single", (0,), (0,))]
    assert r.matches[0].kind is MatchKind.ONE_TO_ONE
    assert scores(r)[:2] == approx_tuple(1.0, 0.5)


def test_tau_rounded_to_060_fails_one_to_one_but_is_om_single() -> None:
    """tau = 1000 / 1665 = 0.6006 rounds to 0.60: not > 0.6, but >= 0.6 (quirks 6, 7)."""
    r = run([(0, 0, 100, 10)], [(0, 0, 111, 15), (90, 0, 300, 10)])
    assert r.matches[0].values["tau[0,0]"] == 0.6
    assert records(r) == [("OM_single", (0,), (0,))]
    alone = run([(0, 0, 100, 10)], [(0, 0, 111, 15)])  # k = 2 dets needed for OM
    assert records(alone) == []
    assert alone.gt[0].verdict is Verdict.MISSED
    assert alone.gt[0].near_miss is not None and alone.gt[0].near_miss.measure == "sigma"


@pytest.mark.parametrize(
    ("width", "sigma", "matched"),
    [
        (141, 0.70, False),  # 1410 / 2000 = 0.705 -> numpy rounds to 0.70 (not > 0.7)
        (142, 0.71, True),  # 0.71 > 0.7
        (139, 0.70, False),  # 0.695 -> 0.70 (half to even)
    ],
)
def test_rounding_boundary_of_one_to_one(width: int, sigma: float, matched: bool) -> None:
    r = run([(0, 0, 200, 10)], [(0, 0, width, 10)])
    assert isinstance(r.evidence, TotalTextDetEvalEvidence)
    assert r.evidence.sigma[0, 0] == sigma
    assert (records(r) == [("OO", (0,), (0,))]) is matched


def test_sigma_and_tau_candidates_may_be_different_dets() -> None:
    """Quirk 5: det 0 covers the GT (sigma 1.0, tau 0.33), det 1 lies inside it (sigma 0.2,
    tau 1.0); each is the only candidate of its kind, so the GT matches det 0 one-to-one."""
    gt, det = [(0, 0, 100, 10)], [(0, 0, 100, 30), (40, 0, 60, 10)]
    r = run(gt, det)
    assert records(r) == [("OO", (0,), (0,))]
    assert r.matches[0].values["tau[0,0]"] == 0.33
    assert r.matches[0].related["tau_det"] == (1,)
    assert scores(r)[:2] == approx_tuple(1.0, 0.5)
    paper = run(gt, det, oo_same_det=True)
    assert records(paper) == []
    assert scores(paper)[:2] == approx_tuple(0.0, 0.0)


def test_one_to_many_counts_flagged_dets() -> None:
    """Quirk 9: det 0 is matched OO with GT 0 and also touches GT 1 (sigma 0.05); with det 1
    (sigma 0.70) that makes k = 2 dets with sigma > 0 for GT 1, so its single candidate is
    scored OM_single. Without det 0's touch GT 1 has one det and stays missed."""
    r = run([(0, 0, 100, 10), (100, 0, 200, 10)], [(0, 0, 105, 10), (130, 0, 200, 10)])
    assert records(r) == [("OO", (0,), (0,)), ("OM_single", (1,), (1,))]
    assert scores(r)[:2] == approx_tuple(1.0, 1.0)
    apart = run([(0, 0, 100, 10), (100, 0, 200, 10)], [(0, 0, 100, 10), (130, 0, 200, 10)])
    assert records(apart) == [("OO", (0,), (0,))]


def test_many_to_one_single_member_is_mo_single() -> None:
    """GT 0 has sigma 0.70 (no OO) and only one det (no OM); the det touches GT 1 too, so
    the many-to-one pass finds one candidate with tau 0.88 >= 0.6 and sigma 0.70 >= 0.7."""
    r = run([(0, 0, 100, 10), (100, 0, 200, 10)], [(30, 0, 110, 10)])
    assert records(r) == [("MO_single", (0,), (0,))]
    assert scores(r)[:2] == approx_tuple(0.5, 1.0)


def test_merge_qualifies_gts_with_tp() -> None:
    """Quirk 8: GT 1 has sigma 0.68, enough for tp = 0.6: MO of both GTs. With the paper's
    tr it does not qualify and GT 0 alone is an MO_single."""
    gt, det = [(0, 0, 100, 10), (100, 0, 200, 10)], [(0, 0, 168, 10)]
    r = run(gt, det)
    assert records(r) == [("MO", (0, 1), (0,))]
    assert r.matches[0].values["tau_sum"] == 1.0
    assert scores(r)[:2] == approx_tuple(0.8, 0.8)
    paper = run(gt, det, merge_gt_threshold="tr")
    assert records(paper) == [("MO_single", (0,), (0,))]
    assert scores(paper)[:2] == approx_tuple(0.5, 1.0)


def test_dont_care_filter_has_plus_one() -> None:
    """D1, quirk 4: a 1 px² det inside a don't-care GT has 1 / (1 + 1) = 0.5, not > 0.5, and
    stays (a false positive); a 2 px² one (2 / 3) is removed, absorbed by that GT."""
    words = [(rect(0, 0, 100, 10), "WORD"), (rect(200, 0, 210, 10), "###")]
    d = dets(rect(0, 0, 100, 10), rect(200, 0, 201, 1), rect(202, 0, 204, 1))
    r = evaluate_sample(sample(gts(*words), d), TotalTextDetEvalParams())
    assert [v.verdict for v in r.det] == [
        Verdict.MATCHED,
        Verdict.FALSE_POSITIVE,
        Verdict.DONT_CARE,
    ]
    assert r.det[2].absorbed_by == 1
    assert r.det[2].values["dc_iod"] == pytest.approx(2 / 3)
    assert r.gt[1].verdict is Verdict.DONT_CARE
    assert (r.tally.n_gt_care, r.tally.n_det_care) == (1, 2)
    assert isinstance(r.evidence, TotalTextDetEvalEvidence)
    assert [(a.det, a.gt) for a in r.evidence.dc_dets] == [(2, 1)]


def test_one_vertex_dont_care_filters_nothing_but_is_removed() -> None:
    """Quirk 3: a one-point don't-care GT (and a triangle one that does filter)."""
    words = [(rect(0, 0, 100, 10), "WORD"), ("5,5", "###"), ("300,0,400,0,300,100", "###")]
    d = dets(rect(0, 0, 10, 10), rect(300, 0, 320, 20))
    r = evaluate_sample(sample(gts(*words), d), TotalTextDetEvalParams())
    assert [g.verdict for g in r.gt][1:] == [Verdict.DONT_CARE] * 2
    assert r.det[0].verdict is Verdict.FALSE_POSITIVE
    assert (r.det[1].verdict, r.det[1].absorbed_by) == (Verdict.DONT_CARE, 2)
    assert r.extra["num_gt_care"] == 1
