"""Property tests of ``ctw1500_eval``: scores in [0, 1], detections equal to the GT score 1
(AP 1 too), and totals that do not depend on the order of disjoint detections."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.core.model import BoxType, Instance, Sample
from metrics.core.results import aggregate
from metrics.ctw1500.metric import evaluate_sample
from metrics.ctw1500.params import Ctw1500Params

P = Ctw1500Params()


def _poly(x: int, y: int, w: int, h: int, line: int) -> Instance:
    """A 14-point text polygon (7 points along the top, 7 back along the bottom)."""
    import numpy as np

    xs = np.linspace(x, x + w, 7)
    pts = np.concatenate([np.c_[xs, np.full(7, y)], np.c_[xs[::-1], np.full(7, y + h)]])
    return Instance(points=pts, box_type=BoxType.POLY, text="CARE", line=line)


boxes = st.lists(
    st.tuples(st.integers(0, 300), st.integers(0, 300), st.integers(2, 120), st.integers(2, 60)),
    max_size=6,
)


def _sample(gt: list, det: list) -> Sample:
    return Sample(
        "1001",
        tuple(_poly(*b, k + 1) for k, b in enumerate(gt)),
        tuple(_poly(*b, k + 1) for k, b in enumerate(det)),
        "gt:1001.txt",
        "det:1001.txt",
    )


@settings(max_examples=60, deadline=None)
@given(gt=boxes, det=boxes)
def test_scores_are_between_zero_and_one(gt: list, det: list) -> None:
    r = evaluate_sample(_sample(gt, det), P)
    for v in (r.recall, r.precision, r.hmean):
        assert 0.0 <= v <= 1.0
    ap = r.extra["ap_file_order"]  # the official AP: detections in file order
    assert ap != ap or 0.0 <= ap <= 1.0
    s = aggregate([r])
    assert 0.0 <= s.recall <= 1.0 and 0.0 <= s.precision <= 1.0


@st.composite
def disjoint(draw: st.DrawFn) -> list[tuple[int, int, int, int]]:
    n = draw(st.integers(1, 6))
    return [(k * 200, 10, draw(st.integers(20, 150)), draw(st.integers(10, 50))) for k in range(n)]


@settings(max_examples=40, deadline=None)
@given(gt=disjoint(), perm=st.randoms())
def test_detections_equal_to_gt_score_one_in_any_order(gt: list, perm) -> None:  # type: ignore[no-untyped-def]
    det = list(gt)
    perm.shuffle(det)
    r = evaluate_sample(_sample(gt, det), P)
    assert (r.recall, r.precision, r.hmean, r.extra["ap_file_order"]) == (1.0, 1.0, 1.0, 1.0)
