"""Same-sample pairs whose bounding boxes meet, by comparing the boxes in numpy.

A block of samples has few pairs per sample (IC15: 190 on average); every GT is paired with
every detection of its sample and the pairs whose boxes do not meet are dropped, which is
a third of the time of building box geometries for an STRtree
(``metrics.shapes.geometry.same_sample_pairs``, still used above ``DENSE_PAIRS`` pairs).
A pair whose boxes only touch has an empty intersection either way; both give every pair
whose polygons overlap.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import shapely

from metrics.core.model import FloatArray
from metrics.shapes.geometry import GeomArray, same_sample_pairs

IntArray = npt.NDArray[np.intp]
DENSE_PAIRS = 2_000_000  # above this many same-sample pairs, the STRtree finds the pairs


def box_pairs(
    a: GeomArray, a_off: IntArray, b: GeomArray, b_off: IntArray
) -> tuple[IntArray, IntArray, FloatArray]:
    """Pairs (i of ``a``, j of ``b``) of the same sample (``*_off``: each sample's first
    index, and the count at the end) whose bounding boxes meet, sorted by i then j, and
    the area of their boxes' overlap. Empty geometries meet nothing."""
    a_n, b_n = np.diff(a_off), np.diff(b_off)
    total = int((a_n * b_n).sum())
    ab, bb = _bounds(a), _bounds(b)
    if total > DENSE_PAIRS:
        owner_a = np.repeat(np.arange(len(a_n)), a_n)
        owner_b = np.repeat(np.arange(len(b_n)), b_n)
        pi, pj = same_sample_pairs(a, owner_a, b, owner_b)
    else:  # each instance of a with every instance of b of its sample, in order
        owner = np.repeat(np.arange(len(a_n)), a_n)
        runs = b_n[owner]
        pi = np.repeat(np.arange(len(owner)), runs)
        pj = np.arange(total, dtype=np.intp) - np.repeat(
            np.cumsum(runs) - runs - b_off[owner], runs
        )
    w = np.minimum(ab[2][pi], bb[2][pj]) - np.maximum(ab[0][pi], bb[0][pj])
    keep = w >= 0  # False for an empty geometry (NaN bounds)
    pi, pj, w = pi[keep], pj[keep], w[keep]
    h = np.minimum(ab[3][pi], bb[3][pj]) - np.maximum(ab[1][pi], bb[1][pj])
    keep = h >= 0
    return pi[keep].astype(np.intp), pj[keep].astype(np.intp), w[keep] * h[keep]


def _bounds(g: GeomArray) -> FloatArray:
    """(4, n): xmin, ymin, xmax, ymax of each geometry (NaN when empty), rows contiguous."""
    out = shapely.bounds(g) if len(g) else np.zeros((0, 4))
    return np.ascontiguousarray(np.asarray(out, dtype=np.float64).T)
