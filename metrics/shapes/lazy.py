"""Candidate pairs of a block whose intersection areas are clipped only when asked.

``flat_geometry`` clips every candidate pair (bounding boxes meeting) of a block. A metric
that reads only some of them (those that can pass a threshold, those of matched
detections) asks for just these: the areas come from ``metrics.shapes.geometry.pair_areas``,
pair by pair, so each is the number ``flat_geometry`` gives. ``bounds`` is an upper bound of
every pair's area (no clipping) to decide which pairs can matter.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
import shapely

from metrics.core.model import FloatArray
from metrics.shapes.geometry import (
    FlatGeometry,
    Quads,
    RingMode,
    flat_parts,
    intersection_bounds,
    pair_areas,
)

IntArray = npt.NDArray[np.intp]


class LazyPairs:
    """A block's ``FlatGeometry`` (its ``inter`` unused) and the pair areas clipped so far."""

    __slots__ = ("_bounds", "_done", "_inter", "_mode", "_quads", "f")

    def __init__(self, f: FlatGeometry, quads: tuple[Quads, Quads] | None, mode: RingMode) -> None:
        self.f, self._quads, self._mode = f, quads, mode
        self._inter = np.zeros(len(f.pi))
        self._done = np.zeros(len(f.pi), dtype=bool)
        self._bounds: FloatArray | None = None

    def need(self, k: IntArray) -> None:
        """Clip the pairs ``k`` (indices into the candidate pairs) not clipped yet."""
        k = k[~self._done[k]]
        if len(k):
            self._inter[k] = pair_areas(self.f, self._quads, self._mode, k)
            self._done[k] = True

    def clipped(self) -> npt.NDArray[np.bool_]:
        """Which pairs have been clipped (a copy)."""
        return self._done.copy()

    def inter(self) -> FloatArray:
        """The area of every pair clipped so far; 0 for the others (a copy)."""
        return self._inter.copy()

    def bounds(self) -> FloatArray:
        """An upper bound of every pair's intersection area: the smaller of the polygons'
        areas (as built, repaired) and of their bounding boxes' overlap."""
        if self._bounds is None:
            f = self.f
            self._bounds = intersection_bounds(f, shapely.area(f.g_geoms), shapely.area(f.d_geoms))
        return self._bounds


def lazy_pairs(
    gt_points: Sequence[Sequence[FloatArray]],
    det_points: Sequence[Sequence[FloatArray]],
    mode: RingMode,
) -> LazyPairs:
    """The candidate pairs of many samples (``flat_geometry``'s), none clipped yet."""
    f, quads = flat_parts(gt_points, det_points, mode)
    return LazyPairs(f, quads, mode)
