"""Pairs clipped on demand: the numbers of ``flat_geometry``, bounds above them."""

from __future__ import annotations

import numpy as np

from metrics.shapes.geometry import flat_geometry
from metrics.shapes.lazy import lazy_pairs


def _ring(cx: float, cy: float, w: float, h: float, bend: float) -> np.ndarray:
    """A curved 8-point band, clockwise as drawn (image y down)."""
    xs = cx + w * np.array([-1.0, -0.33, 0.33, 1.0])
    top = cy - h + bend * np.array([0.0, 1.0, 1.0, 0.0])
    bottom = top + 2 * h
    return np.stack([np.r_[xs, xs[::-1]], np.r_[top, bottom[::-1]]], axis=1)


def _block() -> tuple[list[list[np.ndarray]], list[list[np.ndarray]]]:
    rng = np.random.default_rng(7)
    gt, det = [], []
    for _ in range(6):
        g = [_ring(*rng.uniform([0, 0, 10, 5, -4], [200, 200, 40, 12, 4])) for _ in range(5)]
        d = [r + rng.normal(0, 3, size=r.shape) for r in g[:4]]
        d.append(np.array([[0.0, 0.0], [50.0, 50.0], [50.0, 0.0], [0.0, 50.0]]))  # bow-tie
        gt.append(g)
        det.append(d)
    return gt, det


def test_needed_pairs_get_the_numbers_of_flat_geometry() -> None:
    gt, det = _block()
    full = flat_geometry(gt, det, "curved")
    lz = lazy_pairs(gt, det, "curved")
    assert np.array_equal(lz.f.pi, full.pi) and np.array_equal(lz.f.pj, full.pj)
    k = np.arange(0, len(full.pi), 2)
    lz.need(k)
    inter = lz.inter()
    assert np.array_equal(inter[k], full.inter[k])  # bit for bit
    rest = np.setdiff1d(np.arange(len(full.pi)), k)
    assert not inter[rest].any() and not lz.clipped()[rest].any()
    lz.need(np.arange(len(full.pi)))
    assert np.array_equal(lz.inter(), full.inter)


def test_bounds_are_above_every_intersection() -> None:
    gt, det = _block()
    full = flat_geometry(gt, det, "curved")
    lz = lazy_pairs(gt, det, "curved")
    assert np.all(lz.bounds() >= full.inter * (1 - 1e-12))
