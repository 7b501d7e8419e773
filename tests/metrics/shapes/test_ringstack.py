"""``metrics.shapes.ringstack`` gives, ring by ring, exactly what the per-ring functions of
``metrics.shapes.geometry`` give: the converted vertices, polygons, shoelace areas, quad stacks."""

from __future__ import annotations

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.shapes import geometry
from metrics.shapes.ringstack import ring_stack, stack_polygons, stack_quads, stack_signed_areas

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
