"""``metrics.core.arrays``: the ``np.unique`` stand-ins and ``stacked`` give numpy's answers;
``segment_sums`` numpy's sums."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from metrics.core.arrays import first_of_each, segment_sums, stacked, unique_values

INTS = hnp.arrays(np.intp, st.integers(0, 60), elements=st.integers(-5, 20))


@given(INTS)
def test_unique_values_is_np_unique(a: np.ndarray) -> None:
    got, want = unique_values(a), np.unique(a)
    assert got.dtype == want.dtype
    assert np.array_equal(got, want)


@given(INTS)
def test_first_of_each_is_np_unique_with_index_and_counts(a: np.ndarray) -> None:
    values, first, counts = first_of_each(a)
    want = np.unique(a, return_index=True, return_counts=True)
    for got, exp in zip((values, first, counts), want, strict=True):
        assert np.array_equal(got, exp)


@given(st.integers(0, 30), st.integers(3, 6))
def test_stacked_is_np_stack(n: int, k: int) -> None:
    rings = [np.arange(k * 2, dtype=float).reshape(k, 2) + i for i in range(n)]
    got = stacked(rings, k)
    assert got.shape == (n, k, 2)
    if n:
        assert np.array_equal(got, np.stack(rings))


@pytest.mark.parametrize("seed", range(4))
def test_segment_sums_are_numpy_sums_bit_for_bit(seed: int) -> None:
    rng = np.random.default_rng(seed)
    lengths = rng.integers(0, 20, 300)  # empty, short (added in order) and pairwise runs
    values = rng.random(int(lengths.sum())) * rng.choice([1e-3, 1.0, 1e5], int(lengths.sum()))
    values[rng.random(len(values)) < 0.2] *= -1
    at = np.concatenate([[0], np.cumsum(lengths)]).tolist()
    sums = segment_sums(values, at)
    expected = [float(np.sum(values[a:b])) for a, b in itertools.pairwise(at)]
    assert [s.hex() for s in sums] == [e.hex() for e in expected]
    assert segment_sums(values, [0]) == []
