"""Properties of both Total-Text metrics on random rectangles: scores in [0, 1], detections
equal to well-separated GT score 1, and a set of images scored by adding their tallies."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.catalogue.registry import resolve
from metrics.core.model import Dataset, Sample
from metrics.core.results import aggregate
from metrics.run.runner import run
from tests.support import dets, gts, rect, sample

METRICS = ("totaltext_deteval", "totaltext_voc")

rects = st.tuples(
    st.integers(0, 60), st.integers(0, 60), st.integers(1, 40), st.integers(1, 40)
).map(lambda r: (r[0], r[1], r[0] + r[2], r[1] + r[3]))


@st.composite
def images(draw: st.DrawFn) -> Sample:
    """GT words (some don't care) and detections, overlapping at random."""
    words = draw(st.lists(st.tuples(rects, st.sampled_from(["A", "A", "###"])), max_size=5))
    found = draw(st.lists(rects, max_size=6))
    sid = f"img{draw(st.integers(0, 10**6))}"
    return sample(
        gts(*((rect(*r), t) for r, t in words)), dets(*(rect(*r) for r in found)), sid=sid
    )


@st.composite
def separated(draw: st.DrawFn) -> list[tuple[int, int, int, int]]:
    """Rectangles in distinct cells of a 100-px grid (they never overlap)."""
    cells = draw(st.lists(st.integers(0, 24), min_size=1, max_size=8, unique=True))
    out = []
    for c in cells:
        w, h = draw(st.integers(1, 90)), draw(st.integers(1, 90))
        x, y = 100 * (c % 5), 100 * (c // 5)
        out.append((x, y, x + w, y + h))
    return out


@pytest.mark.parametrize("metric", METRICS)
@settings(max_examples=60, deadline=None)
@given(batch=st.lists(images(), min_size=1, max_size=4, unique_by=lambda s: s.id))
def test_scores_lie_in_unit_interval_and_tallies_add_up(metric: str, batch: list[Sample]) -> None:
    ev = run(Dataset(tuple(batch)), [resolve(metric)])[0]
    for r in ev.results.values():
        assert all(0.0 <= v <= 1.0 for v in (r.recall, r.precision, r.hmean))
        assert (r.recall, r.precision, r.hmean) == r.tally.scores()
    total = aggregate(ev.results.values())
    assert (ev.recall, ev.precision) == (total.recall, total.precision)
    assert 0.0 <= ev.hmean <= 1.0


@pytest.mark.parametrize("metric", METRICS)
@settings(max_examples=40, deadline=None)
@given(boxes=separated())
def test_detections_equal_to_the_gt_score_one(metric: str, boxes: list[Any]) -> None:
    s = sample(gts(*((rect(*b), "A") for b in boxes)), dets(*(rect(*b) for b in boxes)))
    r = resolve(metric).evaluate([s], resolve(metric).params_type())[0]
    assert (r.recall, r.precision, r.hmean) == (1.0, 1.0, 1.0)
    assert {m.label for m in r.matches} <= {"OO", "TP"}
