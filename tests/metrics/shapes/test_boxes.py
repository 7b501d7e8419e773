"""Bounding-box pairs: the dense test of every same-sample pair finds what the STRtree finds."""

from __future__ import annotations

import numpy as np
import pytest
import shapely

import metrics.shapes.boxes as boxes
from metrics.shapes.geometry import same_sample_pairs


def _polygons(rng: np.random.Generator, n: int, integer: bool) -> np.ndarray:
    x0 = rng.integers(0, 60, n) if integer else rng.random(n) * 60
    y0 = rng.integers(0, 60, n) if integer else rng.random(n) * 60
    w = rng.integers(0, 15, n) if integer else rng.random(n) * 15
    h = rng.integers(0, 15, n) if integer else rng.random(n) * 15
    out = shapely.box(x0, y0, x0 + w, y0 + h)  # zero width: lines and points, touching edges
    out[rng.random(n) < 0.05] = shapely.Polygon()
    return np.asarray(out, dtype=object)


@pytest.mark.parametrize("integer", [True, False])
@pytest.mark.parametrize("seed", range(6))
def test_dense_pairs_are_the_strtree_pairs(
    monkeypatch: pytest.MonkeyPatch, seed: int, integer: bool
) -> None:
    rng = np.random.default_rng(seed)
    n_a, n_b = int(rng.integers(1, 300)), int(rng.integers(1, 300))
    a, b = _polygons(rng, n_a, integer), _polygons(rng, n_b, integer)
    a_owner = rng.integers(0, 12, n_a)  # not sorted: only b needs to be
    b_owner = np.sort(rng.integers(0, 12, n_b))
    dense = same_sample_pairs(a, a_owner, b, b_owner)
    monkeypatch.setattr(boxes, "_DENSE", -1)  # every pair through the STRtree
    tree = same_sample_pairs(a, a_owner, b, b_owner)
    assert len(dense[0]) > 0
    assert np.array_equal(dense[0], tree[0]) and np.array_equal(dense[1], tree[1])
    assert dense[0].dtype == tree[0].dtype == dense[1].dtype == np.intp


def test_unsorted_owners_take_the_strtree() -> None:
    sa = np.zeros((2, 4))
    assert boxes.dense_pairs(sa, np.array([0, 1]), sa, np.array([1, 0])) is None
    assert boxes.dense_pairs(sa, np.array([0, 1]), sa, np.array([0, 1])) is not None
