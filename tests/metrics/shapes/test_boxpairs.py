"""``metrics.shapes.boxpairs``: same-sample pairs whose bounding boxes meet, in GT then
detection order, with the boxes' overlap; the STRtree above ``DENSE_PAIRS`` gives the same."""

from __future__ import annotations

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

import metrics.shapes.boxpairs as boxpairs
from metrics.shapes.boxpairs import box_pairs

box = st.tuples(st.integers(0, 50), st.integers(0, 50), st.integers(1, 20), st.integers(1, 20))


def _geoms(items: list[tuple[int, int, int, int]]) -> np.ndarray:
    out = np.empty(len(items), dtype=object)
    out[:] = [shapely.box(x, y, x + w, y + h) for x, y, w, h in items]
    return out


def test_pairs_of_one_sample_whose_boxes_meet() -> None:
    a = _geoms([(0, 0, 10, 10), (30, 30, 5, 5), (0, 0, 10, 10)])
    b = _geoms([(5, 5, 10, 10), (5, 5, 10, 10)])
    pi, pj, overlap = box_pairs(a, np.array([0, 2, 3]), b, np.array([0, 1, 2]))
    assert list(zip(pi.tolist(), pj.tolist(), strict=True)) == [(0, 0), (2, 1)]
    assert overlap.tolist() == [25.0, 25.0]


def test_an_empty_geometry_meets_nothing() -> None:
    a = np.array([shapely.Polygon(), shapely.box(0, 0, 4, 4)], dtype=object)
    b = _geoms([(0, 0, 10, 10)])
    pi, pj, _ = box_pairs(a, np.array([0, 2]), b, np.array([0, 1]))
    assert pi.tolist() == [1] and pj.tolist() == [0]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.lists(box, max_size=5), st.lists(box, max_size=5)), max_size=4))
def test_dense_and_strtree_pairs_agree(samples: list) -> None:
    a = _geoms([b for g, _ in samples for b in g])
    b = _geoms([b for _, d in samples for b in d])
    a_off = np.cumsum([0] + [len(g) for g, _ in samples])
    b_off = np.cumsum([0] + [len(d) for _, d in samples])
    dense = box_pairs(a, a_off, b, b_off)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(boxpairs, "DENSE_PAIRS", -1)
        tree = box_pairs(a, a_off, b, b_off)
    for x, y in zip(dense, tree, strict=True):
        assert x.tolist() == y.tolist()
    for i, j, area in zip(*dense, strict=True):
        assert np.searchsorted(a_off, i, "right") == np.searchsorted(b_off, j, "right")
        assert area == pytest.approx(shapely.area(shapely.intersection(a[i], b[j])))
