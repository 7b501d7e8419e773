"""``metrics.shapes.ringstack`` gives, ring by ring, exactly what the per-ring functions of
``metrics.shapes.geometry`` give: the converted vertices, polygons, shoelace areas, quad stacks."""

from __future__ import annotations

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.shapes import geometry
from metrics.shapes.ringstack import (
    ring_stack,
    stack_polygons,
    stack_quads,
    stack_signed_areas,
    surely_valid,
)

coords = st.floats(-500, 500, allow_nan=False, width=64)
ring = st.integers(0, 7).flatmap(
    lambda n: st.lists(st.tuples(coords, coords), min_size=n, max_size=n)
)


@settings(max_examples=80, deadline=None)
@given(
    st.lists(ring, max_size=12),
    st.sampled_from(["icdar", "curved", "exact", "totaltext"]),
)
def test_stacked_rings_equal_per_ring_functions(items: list, mode: str) -> None:
    points = [np.asarray(r, dtype=np.float64).reshape(-1, 2) for r in items]
    rings = geometry.mode_rings(points, mode)
    rs = ring_stack(points, mode)
    repair = "buffer0" if mode in geometry.BUFFER0_MODES else "make_valid"
    got, got_bad = stack_polygons(rs, repair)
    want, want_bad = geometry.polygons(rings, repair=repair)
    assert np.array_equal(got_bad, want_bad)
    assert all(
        shapely.equals_exact(a, b, 0) or (a.is_empty and b.is_empty)
        for a, b in zip(got, want, strict=True)
    )
    assert np.array_equal(stack_signed_areas(rs), geometry.signed_areas(rings))
    q, c = stack_quads(rs)
    wq, wc = geometry._quad_stack(rings)
    assert np.array_equal(q, wq) and np.array_equal(c, wc)


def test_hand_made_rings() -> None:
    square = np.array([[0.7, 0.2], [10.9, 0.0], [10.0, 10.5], [0.0, 10.0]])
    rs = ring_stack([square, np.zeros((0, 2)), square[:2]], "icdar")
    assert sorted(rs.groups) == [0, 2, 4]
    # as given (--floats decides before what non-integer coordinates become)
    want = float(geometry.signed_areas([square])[0])
    assert want == pytest.approx(102.635)
    assert stack_signed_areas(rs).tolist() == [want, 0.0, 0.0]
    geoms, bad = stack_polygons(rs)
    assert [g.area for g in geoms] == pytest.approx([abs(want), 0.0, 0.0]) and not bad.any()


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.lists(st.tuples(st.integers(-3, 3), st.integers(-3, 3)), min_size=4, max_size=4))
)
def test_quads_taken_as_valid_are_valid_for_geos(quads: list) -> None:
    """Bow-ties, repeated and collinear vertices, convex quads in either order: a quad that
    is not asked of GEOS is one GEOS finds valid, and the invalid flags are GEOS's."""
    points = [np.asarray(q, dtype=np.float64) for q in quads]
    rs = ring_stack(points, "icdar")
    polys = shapely.polygons(np.asarray(quads, dtype=np.float64).reshape(-1, 4, 2))
    valid = shapely.is_valid(polys)
    if quads:
        assert not (surely_valid(rs.groups[4][1]) & ~valid).any()
    assert np.array_equal(stack_polygons(rs)[1], ~valid)
