"""MMOCR ``HmeanIOUMetric`` (TOOLKITS.md): the worked example of section 3, the float32
score thresholds, the ``+1e-5`` ignore boundary, ties, empty GT, polygon repair, and the
properties of the two matching strategies."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.catalogue.registry import make_params, resolve
from metrics.core.model import Dataset, Instance, Sample
from metrics.core.results import Evaluation, SweepTally, Verdict
from metrics.mmocr.evidence import SweepEvidence
from metrics.run.runner import run
from tests.support import quad, sample

VANILLA, MAXMATCH = "mmocr_hmean_iou", "mmocr_hmean_iou_maxmatch"


def rect(x0: float, y0: float, x1: float, y1: float) -> str:
    return f"{x0},{y0},{x1},{y0},{x1},{y1},{x0},{y1}"


def gt(*items: str, text: str = "word") -> list[Instance]:
    return [quad(c, text, n) for n, c in enumerate(items, start=1)]


def det(*items: tuple[str, float]) -> list[Instance]:
    return [quad(c, None, n, conf=s) for n, (c, s) in enumerate(items, start=1)]


def evaluate(samples: Sequence[Sample], metric: str = VANILLA, **params: Any) -> Evaluation:
    return run(Dataset(tuple(samples)), [resolve(metric)], {metric: params})[0]


def kept(ev: Evaluation) -> list[float]:
    assert ev.sweep is not None
    return list(ev.sweep.kept)


# --------------------------------------------------------------------------- section 3


def two_by_two() -> Sample:
    """GT A, B; pred X (IoU 0.67 with A, 0.82 with B), pred Y (0.90 with A, 0.46 with B)."""
    return sample(
        gt(rect(0, 0, 10, 10), rect(3, 0, 13, 10)),
        det((rect(2, 0, 12, 10), 0.95), (rect(0, 0, 9, 10), 0.95)),
    )


def test_vanilla_takes_the_first_pair_and_loses_one() -> None:
    ev = evaluate([two_by_two()])
    assert (ev.recall, ev.precision) == (0.5, 0.5)
    assert [(m.gt, m.det) for m in ev.results["img_1"].matches] == [((0,), (0,))]


def test_max_matching_finds_both_pairs() -> None:
    ev = evaluate([two_by_two()], MAXMATCH)
    assert (ev.recall, ev.precision) == (1.0, 1.0)
    assert sorted((m.gt, m.det) for m in ev.results["img_1"].matches) == [
        ((0,), (1,)),
        ((1,), (0,)),
    ]


def test_strategy_is_a_parameter() -> None:
    ev = evaluate([two_by_two()], VANILLA, strategy="max_matching")
    assert ev.hmean == 1.0


@pytest.mark.parametrize(
    ("det_box", "matched"),
    [
        (rect(0, 0, 10, 5), False),  # convex quads (numpy clipper): IoU exactly 0.5 refused
        (rect(0, 0, 10, 5.0001), True),
        ("0,0,10,0,10,5,5,5,0,5", False),  # a 5-point polygon (GEOS): IoU exactly 0.5
        ("0,0,10,0,10,5.0001,5,5.0001,0,5.0001", True),
    ],
)
def test_iou_must_exceed_one_half_strictly(det_box: str, matched: bool) -> None:
    ev = evaluate([sample(gt(rect(0, 0, 10, 10)), det((det_box, 0.95)))])
    assert (ev.hmean == 1.0) is matched


# --------------------------------------------------------------------------- section 4


def one_pair(score: float) -> Sample:
    return sample(gt(rect(0, 0, 10, 10)), det((rect(0, 0, 10, 10), score)))


def test_seven_thresholds_the_stop_included_by_float_error() -> None:
    ev = evaluate([one_pair(0.95)])
    assert ev.sweep is not None
    assert ev.sweep.thresholds == (
        0.3,
        0.4,
        0.5,
        0.6000000000000001,
        0.7000000000000002,
        0.8000000000000003,
        0.9000000000000001,
    )


@pytest.mark.parametrize(
    ("score", "official", "decimal"),
    [
        (0.7, [1, 1, 1, 1, 0, 0, 0], [1, 1, 1, 1, 1, 0, 0]),  # float32 0.69999999 < 0.7
        (0.8, [1, 1, 1, 1, 1, 1, 0], [1, 1, 1, 1, 1, 1, 0]),  # float32 0.80000001 kept
        (0.9, [1, 1, 1, 1, 1, 1, 0], [1, 1, 1, 1, 1, 1, 1]),  # float32 0.89999998 < 0.9
        (0.3, [1, 0, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0, 0]),
    ],
)
def test_float32_score_against_float64_threshold(
    score: float, official: list[int], decimal: list[int]
) -> None:
    assert kept(evaluate([one_pair(score)])) == official
    assert kept(evaluate([one_pair(score)], decimal_scores=True)) == decimal


def test_thresholds_are_parameters() -> None:
    ev = evaluate([one_pair(0.95)], score_start=0.5, score_stop=1.0, score_step=0.25)
    assert ev.sweep is not None and ev.sweep.thresholds == (0.5, 0.75)


def test_tie_goes_to_the_lowest_threshold() -> None:
    """A false positive at 0.35 lowers only t = 0.3; 0.4 ... 0.9 tie at hmean 1 -> 0.4."""
    s = sample(
        gt(rect(0, 0, 10, 10)),
        det((rect(0, 0, 10, 10), 0.95), (rect(50, 50, 60, 60), 0.35)),
    )
    ev = evaluate([s])
    assert ev.sweep is not None
    assert ev.sweep.best_index == 1 and ev.sweep.best_threshold == 0.4
    assert ev.hmean == 1.0
    r = ev.results["img_1"]
    assert r.extra["score_threshold"] == 0.4
    assert r.det[1].verdict is Verdict.DONT_CARE  # not counted at the shown threshold


def test_all_equal_reports_the_first_threshold() -> None:
    ev = evaluate([one_pair(0.95)])
    assert ev.sweep is not None and ev.sweep.best_threshold == 0.3


def test_below_the_lowest_threshold_is_listed() -> None:
    ev = evaluate([sample(gt(rect(0, 0, 10, 10)), det((rect(0, 0, 10, 10), 0.29)))])
    r = ev.results["img_1"]
    assert isinstance(r.evidence, SweepEvidence)
    assert r.evidence.below_min_threshold == (0,)
    assert (ev.recall, ev.precision) == (0.0, 0.0)


# --------------------------------------------------------------------------- section 2


@pytest.mark.parametrize(
    ("x0", "dropped"),
    [
        (0.5, False),  # exactly half inside: kept (ICDAR15 keeps it too)
        (0.5 - 2**-18, False),  # ratio 0.5 + 3.8e-6 over area 1: +1e-5 keeps it
        (0.5 - 2**-16, True),  # ratio 0.5 + 1.5e-5: dropped
    ],
)
def test_ignore_rule_with_the_1e5_in_the_denominator(x0: float, dropped: bool) -> None:
    s = sample(
        [*gt(rect(x0, 0, 2, 1), text="###"), quad(rect(10, 10, 20, 20), "w", 2)],
        det((rect(0, 0, 1, 1), 0.95)),
    )
    r = evaluate([s]).results["img_1"]
    assert isinstance(r.evidence, SweepEvidence)
    assert [a.det for a in r.evidence.ignored_overlap] == ([0] if dropped else [])
    assert (r.det[0].verdict is Verdict.DONT_CARE) is dropped
    assert r.tally.n_det_care == (0 if dropped else 1)


def test_ignore_test_skips_dets_below_the_lowest_threshold() -> None:
    s = sample(gt(rect(0, 0, 10, 10), text="###"), det((rect(0, 0, 10, 10), 0.1)))
    r = evaluate([s]).results["img_1"]
    assert isinstance(r.evidence, SweepEvidence)
    assert r.evidence.ignored_overlap == () and r.evidence.below_min_threshold == (0,)


def test_gt_with_fewer_than_3_points_is_removed_with_a_warning() -> None:
    s = sample(gt(rect(0, 0, 10, 10), "39,292"), det((rect(0, 0, 10, 10), 0.95)))
    ev = evaluate([s])
    assert ev.recall == 1.0 and ev.extras["gt_removed_lt3pts"] == 1
    r = ev.results["img_1"]
    assert r.gt[1].verdict is Verdict.DONT_CARE and r.gt[1].values["removed_lt3pts"] == 1
    assert [p.line for p in r.warnings] == [2]
    assert any("fewer than 3 points" in p.message for p in ev.problems)


# --------------------------------------------------------------------------- sections 5, 6


def test_bow_tie_prediction_keeps_the_lobe_buffer0_keeps() -> None:
    """A crossed bow-tie: buffer(0) keeps one triangle (a quarter of the square)."""
    s = sample(gt(rect(0, 0, 10, 10)), det(("0,0,10,10,10,0,0,10", 0.95)))
    ev = evaluate([s])
    assert ev.hmean == 0.0
    assert ev.results["img_1"].det[0].near_miss is not None
    assert ev.results["img_1"].det[0].near_miss.value == pytest.approx(0.25)


def test_pieces_after_buffer0_are_replaced_by_their_convex_hull() -> None:
    """Two triangles touching at (5, 5): buffer(0) gives two pieces, their hull the square."""
    s = sample(gt(rect(0, 0, 10, 10)), det(("0,0,10,0,5,5,10,10,0,10,5,5", 0.95)))
    ev = evaluate([s])
    assert ev.hmean == 1.0
    assert ev.results["img_1"].matches[0].values["iou"] == pytest.approx(1.0)


def test_ignore_ratio_uses_the_area_as_given() -> None:
    """The crossed bow-tie has area 0 as given: its overlap with a ### GT over 0 + 1e-5."""
    s = sample(gt(rect(0, 0, 10, 10), text="###"), det(("0,0,10,10,10,0,0,10", 0.95)))
    r = evaluate([s]).results["img_1"]
    assert isinstance(r.evidence, SweepEvidence)
    assert r.evidence.ignored_overlap[0].precision == pytest.approx(25 / 1e-5)


@pytest.mark.parametrize(("with_det", "precision"), [(True, 0.0), (False, 1.0)])
def test_no_care_gt_in_the_whole_data_set_gives_recall_1(with_det: bool, precision: float) -> None:
    dets = det((rect(0, 0, 10, 10), 0.95)) if with_det else []
    ev = evaluate([sample([], dets), sample(gt(rect(0, 0, 5, 5), text="###"), [], sid="img_2")])
    assert (ev.recall, ev.precision) == (1.0, precision)


def test_subset_is_scored_at_its_own_best_threshold() -> None:
    """Per image values show the global best threshold; a subset's tally picks its own."""
    low = sample(gt(rect(0, 0, 10, 10)), det((rect(0, 0, 10, 10), 0.35)), sid="a")
    high = sample(gt(rect(0, 0, 10, 10)), det((rect(0, 0, 10, 10), 0.95)), sid="b")
    noise = sample([], det((rect(50, 50, 60, 60), 0.45)), sid="c")
    ev = evaluate([low, high, noise])
    assert ev.sweep is not None and ev.sweep.best_threshold == 0.3  # H 0.8 / 0.5 / 0.67 ...
    assert ev.hmean == pytest.approx(0.8)
    assert (ev.results["c"].recall, ev.results["c"].precision) == (1.0, 0.0)
    sub = ev.subset(["b", "c"])
    assert isinstance(sub.tally, SweepTally) and sub.tally.best_threshold == 0.5
    assert sub.hmean == 1.0


# --------------------------------------------------------------------------- properties

coord = st.integers(0, 40)


@st.composite
def boxes_with_scores(draw: st.DrawFn) -> tuple[list[str], list[tuple[str, float]]]:
    def one() -> str:
        x, y = draw(coord), draw(coord)
        return rect(x, y, x + draw(st.integers(1, 20)), y + draw(st.integers(1, 20)))

    gts = [one() for _ in range(draw(st.integers(0, 5)))]
    dets = [(one(), draw(st.floats(0, 1))) for _ in range(draw(st.integers(0, 6)))]
    return gts, dets


@settings(max_examples=60, deadline=None)
@given(boxes_with_scores())
def test_max_matching_never_counts_fewer_hits(data: tuple[list[str], list[Any]]) -> None:
    gts, dets = data
    s = sample(gt(*gts), det(*dets))
    a, b = evaluate([s]), evaluate([s], MAXMATCH)
    assert a.sweep is not None and b.sweep is not None
    assert all(x <= y for x, y in zip(a.sweep.hits, b.sweep.hits, strict=True))
    for ev in (a, b):
        assert 0.0 <= ev.recall <= 1.0 and 0.0 <= ev.precision <= 1.0
        assert 0.0 <= ev.hmean <= 1.0


@settings(max_examples=30, deadline=None)
@given(boxes_with_scores())
def test_detections_equal_to_the_gt_score_1(data: tuple[list[str], list[Any]]) -> None:
    gts = list(dict.fromkeys(data[0]))
    for metric in (VANILLA, MAXMATCH):
        ev = evaluate([sample(gt(*gts), det(*[(g, 1.0) for g in gts]))], metric)
        assert (ev.recall, ev.precision, ev.hmean) == (1.0, 1.0, 1.0)


@pytest.mark.parametrize(("key", "value"), [("strategy", "best"), ("score_step", "0")])
def test_bad_parameters_are_refused(key: str, value: str) -> None:
    with pytest.raises(ValueError, match=key):
        make_params(resolve(VANILLA), {key: value})
