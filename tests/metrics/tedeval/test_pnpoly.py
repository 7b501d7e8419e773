"""TedEval point-in-polygon (spec 0.6, Polygon3 semantics): the smallest containing
contour decides, and rectangles are half open whatever their vertex order."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import shapely
from hypothesis import given
from hypothesis import strategies as st

from metrics.tedeval.metric import (
    _Contours,
    _inside,
)


def _contours(rings: Sequence[tuple[Sequence[tuple[float, float]], bool]]) -> _Contours:
    """One detection made of the given contours (vertices, is_hole), smallest area first."""
    rings = sorted(rings, key=lambda r: abs(shapely.Polygon(r[0]).area))
    xy = np.array([p for r, _ in rings for p in r], dtype=np.float64)
    length = np.array([len(r) for r, _ in rings], dtype=np.intp)
    return _Contours(
        x=xy[:, 0],
        y=xy[:, 1],
        start=(np.cumsum(length) - length).astype(np.intp),
        length=length,
        hole=np.array([h for _, h in rings], dtype=bool),
        first=np.zeros(1, dtype=np.intp),
        count=np.array([len(rings)], dtype=np.intp),
    )


def test_point_in_polygon_smallest_containing_contour_decides() -> None:
    """Solid [0,100]², hole [20,80]², island [40,60]² inside the hole (Polygon3 semantics)."""
    c = _contours(
        [
            ([(0, 0), (100, 0), (100, 100), (0, 100)], False),
            ([(20, 20), (80, 20), (80, 80), (20, 80)], True),
            ([(40, 40), (60, 40), (60, 60), (40, 60)], False),
        ]
    )
    pts = np.array([[10, 10], [30, 30], [50, 50], [20, 50], [80, 50], [40, 50], [60, 50]], float)
    got = _inside(pts[:, 0], pts[:, 1], np.zeros(len(pts), dtype=np.intp), c)
    # island point inside; hole's left edge belongs to the hole, its right edge to the solid
    assert got.tolist() == [True, False, True, False, True, True, False]


@given(
    st.integers(-50, 50),
    st.integers(-50, 50),
    st.integers(1, 40),
    st.integers(1, 40),
    st.integers(-60, 60),
    st.integers(-60, 60),
)
def test_point_in_rectangle_is_half_open(
    x0: int, y0: int, w: int, h: int, px: int, py: int
) -> None:
    """Inside ⇔ x0 <= x < x1 and y0 <= y < y1, whatever the vertex order."""
    for ring in (
        [(x0, y0), (x0 + w, y0), (x0 + w, y0 + h), (x0, y0 + h)],
        [(x0, y0), (x0, y0 + h), (x0 + w, y0 + h), (x0 + w, y0)],
    ):
        c = _contours([(ring, False)])
        got = _inside(np.array([px], float), np.array([py], float), np.zeros(1, np.intp), c)
        assert bool(got[0]) == (x0 <= px < x0 + w and y0 <= py < y0 + h)
