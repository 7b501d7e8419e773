"""The result model (``metrics.core.results``): results pickle (they cross ``--workers``
process boundaries) with their evidence, and tallies add up: the per-sample tallies of any
subset give ``Evaluation.subset`` scores, for the credit family and for CLEval."""

from __future__ import annotations

import dataclasses
import functools
import math
import operator
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.catalogue.registry import METRICS
from metrics.cleval.tally import ClevalLegacyTally, ClevalTally
from metrics.core.results import aggregate, hmean
from metrics.core.tally import (
    CreditTally,
    MatchedCreditTally,
    SweepTally,
    Tally,
    add_up,
)
from metrics.hiertext.tally import PqTally
from metrics.io.demo import demo_paths
from metrics.io.reader import load_dataset
from metrics.io.writers import evaluation_dict
from metrics.run.runner import run


def _demo(*metrics: str):
    demo = demo_paths()
    ds = load_dataset(demo.gt, demo.det_b)
    return ds, run(ds, [METRICS[m] for m in metrics], policy="skip_sample")


def test_evaluation_with_evidence_pickles() -> None:
    _, evals = _demo("ic15_iou", "tiou", "tedeval", "cleval_det", "cleval_e2e", "cleval_legacy_det")
    for ev in evals:
        back = pickle.loads(pickle.dumps(ev))
        assert evaluation_dict(back, evidence=True) == evaluation_dict(ev, evidence=True)
        assert back.metric == ev.metric and back.params == ev.params
        assert (back.recall, back.precision, back.hmean) == (ev.recall, ev.precision, ev.hmean)


def test_sample_result_pickles_with_regions_and_empty_mappings() -> None:
    _, (ev,) = _demo("tiou")
    r = ev.results["img_4"]
    assert any(m.regions for m in r.matches)  # evidence regions (coordinates) inside
    back = pickle.loads(pickle.dumps(r))
    assert (back.recall, back.precision, back.hmean, back.tally) == (
        r.recall,
        r.precision,
        r.hmean,
        r.tally,
    )
    assert back.gt == r.gt and back.det == r.det
    for a, b in zip(back.matches, r.matches, strict=True):
        assert (a.kind, a.gt, a.det, dict(a.values)) == (b.kind, b.gt, b.det, dict(b.values))
        assert dict(a.regions) == dict(b.regions)  # Region compares rings and area
    empty = next(g for g in r.gt if not g.values)
    assert pickle.loads(pickle.dumps(empty)).values is empty.values  # the shared empty map


@pytest.mark.parametrize("metric", ["ic15_iou", "tiou", "cleval_det", "cleval_legacy_det"])
def test_subset_scores_are_the_sum_of_their_tallies(metric: str) -> None:
    _, (ev,) = _demo(metric)
    ids = ["img_2", "img_4", "img_7"]
    tally = ev.results[ids[0]].tally
    for sid in ids[1:]:
        tally = tally + ev.results[sid].tally
    sub = ev.subset(ids)
    assert sub.tally == tally and sub.n_samples == 3
    assert (sub.recall, sub.precision, sub.hmean) == tally.scores()
    whole = ev.subset(list(ev.results))
    assert (whole.recall, whole.precision, whole.hmean) == (ev.recall, ev.precision, ev.hmean)


def test_credit_tally_by_hand() -> None:
    a = CreditTally(n_gt_care=2, n_det_care=1, recall_credit=1, precision_credit=1)
    b = CreditTally(n_gt_care=2, n_det_care=3, recall_credit=0.5)
    total = a + b
    assert total["precision_credit"] == 1 and total["recall_credit"] == 1.5
    assert total.scores() == (0.375, 0.25, hmean(0.375, 0.25))
    assert hmean(0.375, 0.25) == pytest.approx(0.3)


def test_cleval_tally_clamps_on_the_sums() -> None:
    """0.1.1 (spec 5.5): max(0, tp - gran) of the summed tallies, not per image."""
    a = ClevalTally(tp=0, gran_r=2, gran_p=0, chars_gt=4, chars_det=4)
    b = ClevalTally(tp=4, gran_r=0, gran_p=1, chars_gt=4, chars_det=4)
    assert a.scores()[:2] == (0.0, 0.0)
    assert (a + b).scores()[:2] == (2 / 8, 3 / 8)


def test_tallies_of_different_kinds_do_not_add() -> None:
    with pytest.raises(ValueError, match="cannot add"):
        CreditTally() + ClevalTally()  # type: ignore[operator]
    with pytest.raises(ValueError):
        aggregate([])


_KINDS = [CreditTally, MatchedCreditTally, ClevalTally, ClevalLegacyTally, PqTally]
_VALUES = st.floats(-1e6, 1e6, allow_nan=False, allow_subnormal=False)


@settings(max_examples=60, deadline=None)
@given(kind=st.sampled_from(_KINDS), rows=st.lists(st.lists(_VALUES, min_size=20, max_size=20)))
def test_add_up_is_the_left_to_right_sum_bit_for_bit(
    kind: type[Tally], rows: list[list[float]]
) -> None:
    """``add_up`` gives what ``+`` over the list gives, the same floats (same order)."""
    names = [f.name for f in dataclasses.fields(kind)]
    tallies = [kind(**dict(zip(names, row, strict=False))) for row in rows] or [kind()]
    folded = functools.reduce(operator.add, tallies)
    assert add_up(tallies) == folded
    assert [math.copysign(1, v) for v in add_up(tallies).values.values()] == [
        math.copysign(1, v) for v in folded.values.values()
    ]


def test_add_up_refuses_two_kinds_and_keeps_the_sweeps_own_rule() -> None:
    with pytest.raises(ValueError, match="cannot add a cleval tally to a credit tally"):
        add_up([CreditTally(1, 1, 1, 1), ClevalTally()])
    a = SweepTally(1, 2, (0.3, 0.5), (1, 1), (2, 1))
    assert add_up([a, a, a]) == a + a + a
    with pytest.raises(ValueError, match="different thresholds"):
        add_up([a, SweepTally(1, 2, (0.3,), (1,), (2,))])
    with pytest.raises(ValueError, match="different lengths"):
        add_up([a, SweepTally(1, 2, (0.3, 0.5), (1,), (2, 1))])
    assert add_up([a, a]).hits == (2, 2) and add_up([a, a]).kept == (4, 2)
