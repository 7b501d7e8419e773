"""CLEval properties: scores in [0, 1] for every variant, a split into k equal pieces
costs k - 1 characters, the exact interiors-apart test agrees with GEOS, and metrics of one run
share their preparation without changing results."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from metrics.catalogue.registry import METRICS
from metrics.cleval.geometry import interiors_apart, quads_apart_or_meeting
from metrics.cleval.metric import (
    evaluate_batch,
    evaluate_sample,
)
from metrics.core.model import Dataset, Sample
from metrics.run.runner import run
from metrics.shapes.quads import is_convex_quad
from tests.support import CLEVAL_LEGACY as LEGACY
from tests.support import CLEVAL_V011 as V011
from tests.support import WORD_D60 as D60
from tests.support import WORD_G0 as G0
from tests.support import cleval_counters as counters
from tests.support import convex_quad_arrays, dets, geos_overlap_area, gts, quad, run_one, sample
from tests.support import scores as rph


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
        run_one("cleval_legacy_det", s, LEGACY),
        run_one("cleval_e2e", s, V011),
        run_one("cleval_legacy_e2e", s, LEGACY),
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
    for r in (evaluate_sample(s, V011), run_one("cleval_legacy_det", s, LEGACY)):
        assert r.tally["gran_r"] == k - 1
        assert r.gt[0].values["gran_r"] == k - 1
        assert counters(r)["split"] == 1
        assert r.recall == pytest.approx((length - (k - 1)) / length)
        assert r.precision == pytest.approx(1.0)


@settings(max_examples=300, deadline=None)
@given(convex_quad_arrays(), convex_quad_arrays())
def test_interiors_apart_agrees_with_geos(a: np.ndarray, b: np.ndarray) -> None:
    """The exact separating-axis test that lets the don't-care cut skip GEOS."""
    assert is_convex_quad(a)[0] and is_convex_quad(b)[0]
    area = geos_overlap_area(a, b)
    assert bool(interiors_apart(a, b)[0]) == (area == 0)
    apart, meet = quads_apart_or_meeting(a, b)
    assert (bool(apart[0]), bool(meet[0])) == (area == 0, area > 0)
    undecided = quads_apart_or_meeting(a + 0.5, b)
    assert not undecided[1][0] and bool(undecided[0][0]) <= (geos_overlap_area(a + 0.5, b) == 0)


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
            assert ra.evidence.pcc.hit_by == rb.evidence.pcc.hit_by
