"""Pairs of overlapping polygons of a block of samples, with areas exact where they decide.

For the text-line stage of ``wordline_batch``: the official code clips every (line, word) and
(line, detection) pair with GEOS. Most of those areas only decide a threshold (IoU > 0.5,
|W ∩ L| / |W| >= 0.5), so they are first clipped in numpy as convex quads (equal to GEOS to
~1e-12 relative) and clipped by GEOS only where the quad clip cannot be used, where the ratio
is within ``NEAR`` of its threshold, and where the area itself is reported (matched pairs):
every decision and every reported number is the one GEOS gives.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
import shapely

from metrics.core.model import FloatArray, Sample
from metrics.core.records import dataclass
from metrics.shapes import robust
from metrics.shapes.geometry import GeomArray, mode_rings, polygons, same_sample_pairs, signed_areas
from metrics.shapes.quads import is_convex_quad, quad_intersection_areas

IntArray = npt.NDArray[np.intp]
BoolArray = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class Side:
    """Polygons of the block (lines, GT words or detections) and their convex-quad form."""

    geoms: GeomArray
    owner: IntArray  # sample of each polygon (sorted)
    quads: FloatArray  # (N, 4, 2), zeros where not a convex quad
    convex: BoolArray
    bounds: FloatArray  # (N, 4) xmin, ymin, xmax, ymax (NaN for empty polygons)

    @staticmethod
    def of(geoms: GeomArray, owner: IntArray) -> Side:
        n = shapely.get_num_coordinates(geoms)
        four = (n == 5) & (shapely.get_type_id(geoms) == 3)  # one closed ring of 4 vertices
        quads = np.zeros((len(geoms), 4, 2))
        if four.any():
            quads[four] = shapely.get_coordinates(geoms[four]).reshape(-1, 5, 2)[:, :4]
        bounds = shapely.bounds(geoms) if len(geoms) else np.zeros((0, 4))
        return Side(geoms, owner, quads, four & is_convex_quad(quads), bounds)


@dataclass(frozen=True)
class Lines:
    """The text-line GT of a block (``off``: first line of each sample)."""

    side: Side
    area: FloatArray
    off: IntArray


def lines_of(samples: Sequence[Sample]) -> Lines:
    per = [s.gt_lines or () for s in samples]
    counts = np.fromiter((len(x) for x in per), dtype=np.intp, count=len(per))
    rings = mode_rings([i.points for x in per for i in x], "icdar")
    geoms, _ = polygons(rings)
    area = np.abs(signed_areas(rings)) if rings else np.zeros(0)
    off = np.concatenate([[0], np.cumsum(counts)]).astype(np.intp)
    return Lines(Side.of(geoms, np.repeat(np.arange(len(counts)), counts)), area, off)


NEAR = 1e-6  # a ratio this close to its threshold is decided on the exact (GEOS) area


@dataclass
class Overlaps:
    """(line, other) pairs of the same sample whose boxes meet, sorted, with |line ∩ other|:
    exact (GEOS on the pairs that intersect, as the reference computes it) where ``exact``,
    else clipped in numpy as two convex quads (equal to ~1e-12 relative: good for deciding
    a threshold that is not within ``NEAR``, see ``settle``)."""

    a: Side
    b: Side
    ia: IntArray
    ib: IntArray
    inter: FloatArray
    exact: BoolArray

    @staticmethod
    def of(a: Side, b: Side) -> Overlaps:
        ia, ib = _pairs(a, b)
        fast = a.convex[ia] & b.convex[ib]
        inter = np.empty(len(ia))
        inter[fast] = quad_intersection_areas(a.quads[ia[fast]], b.quads[ib[fast]])
        o = Overlaps(a, b, ia, ib, inter, ~fast)
        o.refine(np.flatnonzero(~fast))
        return o

    def refine(self, k: IntArray) -> None:
        """The exact areas of pairs ``k``."""
        ia, ib = self.ia[k], self.ib[k]
        hit = shapely.intersects(self.a.geoms[ia], self.b.geoms[ib]) if len(k) else k > 0
        exact = np.zeros(len(k))
        if hit.any():
            pieces = robust.intersection(self.a.geoms[ia[hit]], self.b.geoms[ib[hit]])
            exact[hit] = shapely.area(pieces)
        self.inter[k], self.exact[k] = exact, True

    def settle(self, ratio: FloatArray, threshold: float) -> bool:
        """Exact areas where ``ratio`` (of ``inter``) is near ``threshold``; whether any."""
        near = np.flatnonzero(~self.exact & (np.abs(ratio - threshold) <= NEAR))
        self.refine(near)
        return bool(len(near))


_DENSE = 2_000_000  # more same-sample pairs than this: found by an STRtree instead


def _pairs(a: Side, b: Side) -> tuple[IntArray, IntArray]:
    """Pairs (i, j) of the same sample whose bounding boxes meet (closed), sorted by i then
    j: every pair whose intersection has an area. Each sample's pairs are enumerated when
    they are few (a few array operations), else ``same_sample_pairs`` finds them."""
    n = int(max(a.owner.max(initial=-1), b.owner.max(initial=-1))) + 1
    b_count = np.bincount(b.owner, minlength=n)
    per_a = b_count[a.owner] if len(a.owner) else np.zeros(0, np.intp)
    total = int(per_a.sum())
    if total > _DENSE:
        return same_sample_pairs(a.geoms, a.owner, b.geoms, b.owner)
    ia = np.repeat(np.arange(len(a.owner)), per_a)
    start = np.cumsum(per_a) - per_a
    b_first = np.cumsum(b_count) - b_count
    ib = b_first[a.owner[ia]] + np.arange(total) - start[ia]
    p, q = a.bounds[ia], b.bounds[ib]
    meet = (p[:, 0] <= q[:, 2]) & (q[:, 0] <= p[:, 2]) & (p[:, 1] <= q[:, 3]) & (q[:, 1] <= p[:, 3])
    return ia[meet].astype(np.intp), ib[meet].astype(np.intp)
