"""DetEval worked examples of spec 2.6 (E1-E5, RRC variant) and their legacy
outcomes of spec 2.7: one-to-one, split, merge, and a sliver that turns one-to-one into split."""

from __future__ import annotations

import math

import pytest

from metrics.core.results import MatchKind, NearMiss, Verdict
from metrics.deteval.evidence import Discarded
from tests.support import DETEVAL_G0 as G0
from tests.support import DETEVAL_G1 as G1
from tests.support import DETEVAL_LEGACY as LEGACY
from tests.support import boxes, scores
from tests.support import deteval_reasons as reasons
from tests.support import deteval_run as run

# --------------------------------------------------------------------------- spec 2.6


def test_too_short_detection_is_missed() -> None:  # E1
    r = run((G0,), boxes((0, 0, 59, 19)))
    assert scores(r) == (0.0, 0.0, 0.0)
    assert r.matches == ()
    assert r.gt[0].verdict is Verdict.MISSED
    near = r.gt[0].near_miss
    assert near is not None
    assert (near.partner, near.measure) == (0, "area_recall")
    assert near.value == pytest.approx(0.6)
    assert r.det[0].verdict is Verdict.FALSE_POSITIVE
    assert r.det[0].near_miss == NearMiss(0, 1.0, "area_precision")
    (discard,) = r.evidence.discarded
    assert discard.reason == "sum_below_threshold"
    assert discard.stage == "OM"
    assert discard.values["S"] == pytest.approx(0.6)


def test_one_to_one_at_eighty_percent_recall() -> None:  # E2
    r = run((G0,), boxes((0, 0, 79, 19)))
    assert scores(r) == (1.0, 1.0, 1.0)
    (m,) = r.matches
    assert (m.kind, m.label, m.gt, m.det) == (MatchKind.ONE_TO_ONE, "OO", (0,), (0,))
    assert m.values["area_recall"] == pytest.approx(0.8)
    expected_d = 2 * 10 / (math.hypot(100, 20) + math.hypot(80, 20))
    assert m.values["d"] == pytest.approx(expected_d)
    assert m.values["d"] == pytest.approx(0.108, abs=1e-3)
    assert r.gt[0].verdict is Verdict.MATCHED and r.gt[0].partners == (0,)
    assert r.det[0].verdict is Verdict.MATCHED and r.det[0].credit == 1.0


def test_split_into_two() -> None:  # E3
    r = run((G0,), boxes((0, 0, 49, 19), (50, 0, 99, 19)))
    assert scores(r) == pytest.approx((0.8, 0.8, 0.8))
    (m,) = r.matches
    assert (m.kind, m.label, m.gt, m.det) == (MatchKind.SPLIT, "OM", (0,), (0, 1))
    assert m.values["recall_sum"] == pytest.approx(1.0)
    assert r.gt[0].verdict is Verdict.PARTIAL
    assert r.gt[0].credit == pytest.approx(0.8) and r.gt[0].partners == (0, 1)
    assert [d.credit for d in r.det] == pytest.approx([0.8, 0.8])
    assert all(d.verdict is Verdict.PARTIAL and d.partners == (0,) for d in r.det)
    assert r.tally["recall_credit"] == pytest.approx(0.8)
    assert r.tally["precision_credit"] == pytest.approx(1.6)
    assert reasons(r) == []


def test_merge_of_two_words() -> None:  # E4
    r = run((G0, G1), boxes((0, 0, 209, 19)))
    assert scores(r) == (1.0, 1.0, 1.0)
    (m,) = r.matches
    assert (m.kind, m.label, m.gt, m.det) == (MatchKind.MERGE, "MO", (0, 1), (0,))
    assert m.values["precision_sum"] == pytest.approx(4000 / 4200)
    assert reasons(r) == ["not_unique", "not_unique", "om_not_single", "om_not_single"]
    assert r.evidence.discarded[0].values["col_count"] == 2
    assert r.evidence.discarded[2].values["gt_overlaps"] == 1
    assert [g.credit for g in r.gt] == [1.0, 1.0]
    assert r.det[0].credit == 1.0 and r.det[0].partners == (0, 1)
    assert r.tally["recall_credit"] == 2.0 and r.tally["precision_credit"] == 1.0


def test_extra_sliver_turns_one_to_one_into_split() -> None:  # E5
    r = run((G0,), boxes((0, 0, 84, 19), (80, 0, 99, 19)))
    assert scores(r) == pytest.approx((0.8, 0.8, 0.8))
    (discard,) = r.evidence.discarded
    assert discard == Discarded(
        "not_single_overlap", gt=(0,), det=(0,), values={"gt_overlaps": 2, "det_overlaps": 1}
    )
    (m,) = r.matches
    assert (m.label, m.det) == ("OM", (0, 1))


# --------------------------------------------------------------------------- spec 2.7 legacy


def test_legacy_merge_becomes_single_member_split() -> None:  # E4 legacy
    r = run((G0, G1), boxes((0, 0, 209, 19)), LEGACY)
    assert scores(r)[:2] == pytest.approx((0.4, 0.8))
    (m,) = r.matches
    assert (m.kind, m.label, m.gt, m.det) == (MatchKind.SPLIT, "OM", (0,), (0,))
    assert r.gt[0].credit == pytest.approx(0.8)
    assert r.gt[1].verdict is Verdict.MISSED
    assert r.det[0].verdict is Verdict.PARTIAL


def test_legacy_sliver_keeps_one_to_one() -> None:  # E5 legacy
    r = run((G0,), boxes((0, 0, 84, 19), (80, 0, 99, 19)), LEGACY)
    assert scores(r)[:2] == (1.0, 0.5)
    (m,) = r.matches
    assert (m.label, m.gt, m.det) == ("OO", (0,), (0,))
    assert r.det[1].verdict is Verdict.FALSE_POSITIVE
    assert r.det[1].near_miss == NearMiss(0, 1.0, "area_precision")


def test_legacy_split_into_two_is_unchanged() -> None:  # E3 legacy
    r = run((G0,), boxes((0, 0, 49, 19), (50, 0, 99, 19)), LEGACY)
    assert scores(r) == pytest.approx((0.8, 0.8, 0.8))
