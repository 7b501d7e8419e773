"""``metrics.shapes.validity``: GEOS's answer for every ring, remembered per process."""

from __future__ import annotations

import numpy as np
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

import metrics.shapes.validity as validity
from metrics.shapes.validity import valid_of, valid_rings


@settings(max_examples=60, deadline=None)
@given(st.integers(3, 9), st.integers(1, 40), st.integers(0, 2**32 - 1), st.integers(2, 50))
def test_valid_rings_is_geos_validity(n: int, k: int, seed: int, scale: int) -> None:
    rng = np.random.default_rng(seed)
    rings = rng.integers(0, scale, (k, n, 2)).astype(np.float64)  # bow-ties, spikes, repeats
    expected = shapely.is_valid(shapely.polygons(rings))
    assert valid_rings(rings).tolist() == expected.tolist()
    assert valid_rings(rings).tolist() == expected.tolist()  # remembered: the same answers


def test_the_memo_is_keyed_by_the_coordinates_and_bounded(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    square = np.array([[[0, 0], [4, 0], [4, 4], [0, 4]]], dtype=np.float64)
    bowtie = np.array([[[0, 0], [4, 4], [4, 0], [0, 4]]], dtype=np.float64)
    assert valid_rings(square).tolist() == [True]
    assert valid_rings(bowtie).tolist() == [False]
    assert valid_rings(np.concatenate([bowtie, square])).tolist() == [False, True]
    monkeypatch.setattr(validity, "LIMIT", 1)
    valid_rings(square + 1)
    assert len(validity._memo) <= 2


def test_valid_of_mixed_counts() -> None:
    rings = [
        np.array([[0, 0], [1, 1]], dtype=np.float64),  # < 3 points: the empty polygon, valid
        np.array([[0, 0], [4, 4], [4, 0], [0, 4]], dtype=np.float64),
        np.array([[0, 0], [4, 0], [2, 3]], dtype=np.float64),
        np.array([[0, 0], [2, 0], [4, 0], [2, 0], [2, 3]], dtype=np.float64),  # a spike
    ]
    expected = [True, *shapely.is_valid([shapely.Polygon(r) for r in rings[1:]]).tolist()]
    assert valid_of(rings).tolist() == expected
