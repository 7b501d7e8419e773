"""TedEval properties: a detection equal to its (non-vertical) GT scores one, and the
exact strictly-apart test for quads agrees with GEOS distances."""

from __future__ import annotations

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.shapes.quads import convex_quad_inter, strictly_apart
from tests.support import convex_quad_arrays, geos_overlap_area, quad, scores
from tests.support import pcc_hits as hits_of
from tests.support import tedeval_records as records
from tests.support import tedeval_run as run


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


@settings(max_examples=300, deadline=None)
@given(convex_quad_arrays(), convex_quad_arrays())
def test_strictly_apart_quads_are_at_positive_distance(a: np.ndarray, b: np.ndarray) -> None:
    """The exact test that lets cut don't-care GTs skip GEOS intersections (area exactly 0)."""
    gap = shapely.distance(shapely.polygons(a[0]), shapely.polygons(b[0]))
    assert bool(strictly_apart(a, b)[0]) == (gap > 0)
    if gap == 0:
        area = geos_overlap_area(a, b)
        assert convex_quad_inter(a, b)[0] == pytest.approx(area, abs=1e-9)
