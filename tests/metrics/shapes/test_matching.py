"""Shared one-to-one matching (``metrics.shapes.matching``): the greedy rule and a maximum
bipartite matching, checked against brute force on small candidate matrices."""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from metrics.shapes.matching import greedy_cells, greedy_match, maximum_matching


def brute_force_size(cand: np.ndarray) -> int:
    rows, cols = cand.shape
    best = 0
    for perm in itertools.permutations(range(max(rows, cols)), rows):
        best = max(best, sum(1 for i, j in enumerate(perm) if j < cols and cand[i, j]))
    return best


matrices = st.tuples(st.integers(0, 5), st.integers(0, 5)).flatmap(
    lambda shape: arrays(np.bool_, shape)
)


@settings(max_examples=150, deadline=None)
@given(matrices)
def test_maximum_matching_is_maximum_and_valid(cand: np.ndarray) -> None:
    pairs = maximum_matching(cand)
    assert len({i for i, _ in pairs}) == len({j for _, j in pairs}) == len(pairs)
    assert all(cand[i, j] for i, j in pairs)
    assert len(pairs) == brute_force_size(cand)
    assert len(pairs) >= len(greedy_cells(cand))


def test_augmenting_path_reassigns_the_greedy_pair() -> None:
    cand = np.array([[True, True], [True, False]])
    assert greedy_cells(cand) == [(0, 0)]
    assert maximum_matching(cand) == [(0, 1), (1, 0)]


def test_greedy_match_is_row_major_first_come() -> None:
    iou = np.array([[0.6, 0.9], [0.7, 0.2]])
    ok_g, ok_d = np.ones(2, bool), np.ones(2, bool)
    assert greedy_match(iou, ok_g, ok_d, 0.5) == [(0, 0)]
    assert greedy_match(iou, ok_g, np.array([False, True]), 0.5) == [(0, 1)]
