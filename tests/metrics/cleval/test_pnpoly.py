"""CLEval point-in-polygon: the vectorized PNPOLY equals the scalar half-open rule."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.cleval.geometry import pnpoly


def _pnpoly_scalar(x: float, y: float, v: list[tuple[float, float]]) -> bool:
    inside = False
    for i in range(len(v)):
        j = i - 1 if i > 0 else len(v) - 1
        (xi, yi), (xj, yj) = v[i], v[j]
        if ((yi <= y < yj) or (yj <= y < yi)) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            inside = not inside
    return inside


coord = st.integers(-5, 25)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(coord, coord), min_size=4, max_size=4),
    st.lists(
        st.tuples(
            st.integers(-10, 60).map(lambda v: v / 2), st.integers(-10, 60).map(lambda v: v / 2)
        ),
        min_size=1,
        max_size=20,
    ),
)
def test_pnpoly_matches_scalar_half_open_rule(
    quad_pts: list[tuple[int, int]], points: list[tuple[float, float]]
) -> None:
    q = np.array(quad_pts, dtype=float)
    p = np.array(points, dtype=float)
    got = pnpoly(p[:, 0], p[:, 1], np.repeat(q[None], len(p), axis=0))
    want = [_pnpoly_scalar(x, y, [tuple(v) for v in q.tolist()]) for x, y in points]
    assert got.tolist() == want
