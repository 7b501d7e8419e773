"""DetEval geometry (spec 2.2-2.3 steps 1-2): inclusive-pixel overlaps of the (GT, det) pairs
that overlap, area recall and precision, don't-care detections.

Used by ``metrics.deteval.match`` and ``metrics.deteval.metric`` (which documents the official
behaviour reproduced here).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
import shapely

from metrics.core.arrays import first_of_each
from metrics.core.model import FloatArray, Instance, Sample
from metrics.core.records import dataclass
from metrics.shapes.geometry import GeomArray, same_sample_pairs

BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.intp]


def boxes(instances: tuple[Instance, ...]) -> FloatArray:
    """(n, 4) array of xmin, ymin, xmax, ymax."""
    return block_boxes([instances])[0]


def block_boxes(groups: Sequence[tuple[Instance, ...]]) -> list[FloatArray]:
    """``boxes`` of each group, the bounds of every instance of the block taken in two
    C-level reductions over their stacked vertices (the same values as ``Instance.ltrb``,
    which costs four numpy calls per instance: a tenth of an IC13 run)."""
    sizes = [len(g) for g in groups]
    rings = [i.points for g in groups for i in g]
    counts = np.fromiter((len(r) for r in rings), dtype=np.intp, count=len(rings))
    if not rings or not counts.all():  # an instance without a vertex raises, as ltrb does
        return [np.array([i.ltrb for i in g], dtype=np.float64).reshape(-1, 4) for g in groups]
    pts = np.concatenate(rings)
    starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    out = np.hstack((np.minimum.reduceat(pts, starts), np.maximum.reduceat(pts, starts)))
    return np.split(out.astype(np.float64, copy=False), np.cumsum(sizes)[:-1])


def box_areas(b: FloatArray) -> FloatArray:
    """Inclusive pixel areas (xmax - xmin + 1)(ymax - ymin + 1)."""
    return (b[:, 2] - b[:, 0] + 1) * (b[:, 3] - b[:, 1] + 1)


def _overlaps(g: FloatArray, d: FloatArray) -> FloatArray:
    """Inclusive pixel overlap of aligned (GT, det) box pairs; 0 when dx or dy is negative
    (the official formula, pair by pair)."""
    dx = np.minimum(g[:, 2], d[:, 2]) - np.maximum(g[:, 0], d[:, 0]) + 1
    dy = np.minimum(g[:, 3], d[:, 3]) - np.maximum(g[:, 1], d[:, 1]) + 1
    return np.where((dx >= 0) & (dy >= 0), dx * dy, 0.0)


def _ratio(num: FloatArray, den: FloatArray) -> FloatArray:
    safe = np.where(den == 0, 1.0, den)
    return np.where(den == 0, 0.0, num / safe)


def center_distance(g: Sequence[float] | FloatArray, d: Sequence[float] | FloatArray) -> float:
    """2·‖center(G) − center(D)‖ / (diag(G) + diag(D)), in the official operation order."""
    gw, gh = g[2] - g[0] + 1, g[3] - g[1] + 1
    dw, dh = d[2] - d[0] + 1, d[3] - d[1] + 1
    cx = math.fabs((g[0] + gw / 2.0) - (d[0] + dw / 2.0))
    cy = math.fabs((g[1] + gh / 2.0) - (d[1] + dh / 2.0))
    dist = math.sqrt(cx * cx + cy * cy)
    dist /= math.sqrt(gh * gh + gw * gw) + math.sqrt(dh * dh + dw * dw)
    return float(dist * 2.0)


@dataclass(frozen=True)
class Geometry:
    """One image: boxes, don't-care flags and the (GT, det) pairs that overlap, sorted by GT
    then det, with their area recall |G ∩ D| / |G| and precision |G ∩ D| / |D| (every other
    pair has 0 for both). ``row[i]:row[i + 1]`` are GT i's pairs; ``by_col[col[j]:col[j + 1]]``
    det j's, in GT order."""

    gt: FloatArray
    det: FloatArray
    pi: IntArray
    pj: IntArray
    recall: FloatArray
    precision: FloatArray
    gt_dc: BoolArray
    det_dc: BoolArray
    absorbed: IntArray  # dc GT that absorbed each det, -1 if none
    dc_precision: FloatArray  # |D ∩ G_dc| / |D| for the absorbing dc GT
    row: IntArray
    col: IntArray
    by_col: IntArray

    @property
    def gt_overlaps(self) -> IntArray:
        """Number of non-dc dets with R(i, ·) > 0, per GT."""
        hit = (self.recall > 0) & ~self.det_dc[self.pj]
        return np.bincount(self.pi[hit], minlength=len(self.gt_dc)).astype(np.intp)

    @property
    def det_overlaps(self) -> IntArray:
        """Number of non-dc GTs with R(·, j) > 0, per det."""
        hit = (self.recall > 0) & ~self.gt_dc[self.pi]
        return np.bincount(self.pj[hit], minlength=len(self.det_dc)).astype(np.intp)


def geometry(sample: Sample, dc_threshold: float, every_pair: bool = False) -> Geometry:
    """Steps 1-2 of spec 2.3 for one image (``geometries`` for many)."""
    return geometries([sample], dc_threshold, every_pair)[0]


def geometries(
    samples: Sequence[Sample], dc_threshold: float, every_pair: bool = False
) -> list[Geometry]:
    """Steps 1-2 of spec 2.3: dc GTs and dets, the overlapping pairs' recall and precision.

    Candidate pairs come from one STRtree over the block's boxes (each grown by one pixel,
    as areas are inclusive); only pairs that overlap are kept, so memory and time are linear
    in the words per image. ``every_pair`` keeps every (GT, det) pair instead, for
    thresholds <= 0, under which pairs that do not overlap can take part.
    """
    g = block_boxes([s.gt for s in samples])
    d = block_boxes([s.det for s in samples])
    pairs = _every_pair(g, d) if every_pair else _overlapping(g, d)
    return [
        _image(s, gb, db, pi, pj, dc_threshold)
        for s, gb, db, (pi, pj) in zip(samples, g, d, pairs, strict=True)
    ]


def _every_pair(g: list[FloatArray], d: list[FloatArray]) -> list[tuple[IntArray, IntArray]]:
    out = []
    for gb, db in zip(g, d, strict=True):
        pi = np.repeat(np.arange(len(gb), dtype=np.intp), len(db))
        out.append((pi, np.tile(np.arange(len(db), dtype=np.intp), len(gb))))
    return out


def _overlapping(g: list[FloatArray], d: list[FloatArray]) -> list[tuple[IntArray, IntArray]]:
    """Per image, the (GT, det) pairs whose grown boxes meet, sorted by GT then det."""
    gn = np.array([len(b) for b in g], dtype=np.intp)
    dn = np.array([len(b) for b in d], dtype=np.intp)
    g_off = np.concatenate(([0], np.cumsum(gn)))
    d_off = np.concatenate(([0], np.cumsum(dn)))
    empty = np.zeros(0, np.intp)
    if not g_off[-1] or not d_off[-1]:
        return [(empty, empty) for _ in g]
    gall, dall = np.concatenate(g), np.concatenate(d)
    g_owner = np.repeat(np.arange(len(g)), gn)
    d_owner = np.repeat(np.arange(len(d)), dn)
    ia, jb = same_sample_pairs(_grown(gall), g_owner, _grown(dall), d_owner)
    owner = g_owner[ia]
    cut = np.searchsorted(owner, np.arange(len(g) + 1))
    return [
        (ia[a:b] - g_off[k], jb[a:b] - d_off[k])
        for k, (a, b) in enumerate(itertools.pairwise(cut.tolist()))
    ]


def _grown(b: FloatArray) -> GeomArray:
    """Boxes one pixel larger to the right and down: they meet when the inclusive-pixel
    boxes may overlap."""
    grown: GeomArray = shapely.box(b[:, 0], b[:, 1], b[:, 2] + 1, b[:, 3] + 1)
    return grown


def _image(
    sample: Sample, g: FloatArray, d: FloatArray, pi: IntArray, pj: IntArray, threshold: float
) -> Geometry:
    inter = _overlaps(g[pi], d[pj])
    if len(g) * len(d) != len(pi):  # candidates only: keep the pairs that overlap
        keep = inter > 0
        pi, pj, inter = pi[keep], pj[keep], inter[keep]
    ga, da = box_areas(g), box_areas(d)
    gt_dc = np.fromiter((i.dont_care for i in sample.gt), dtype=bool, count=len(sample.gt))
    det_dc, absorbed, dc_prec = _dont_care_dets(inter, pi, pj, gt_dc, da, threshold)
    by_col = np.lexsort((pi, pj)).astype(np.intp)
    return Geometry(
        g,
        d,
        pi,
        pj,
        _ratio(inter, ga[pi]),
        _ratio(inter, da[pj]),
        gt_dc,
        det_dc,
        absorbed,
        dc_prec,
        np.searchsorted(pi, np.arange(len(g) + 1)).astype(np.intp),
        np.searchsorted(pj[by_col], np.arange(len(d) + 1)).astype(np.intp),
        by_col,
    )


def _dont_care_dets(
    inter: FloatArray,
    pi: IntArray,
    pj: IntArray,
    gt_dc: BoolArray,
    det_area: FloatArray,
    threshold: float,
) -> tuple[BoolArray, IntArray, FloatArray]:
    """A det is dc when |D ∩ G_dc| / |D| > threshold for a dc GT (the first one absorbs it)."""
    n_det = len(det_area)
    absorbed = np.full(n_det, -1, dtype=np.intp)
    prec_out = np.zeros(n_det)
    dc = np.zeros(n_det, dtype=bool)
    prec = _ratio(inter, det_area[pj])
    hit = np.flatnonzero(gt_dc[pi] & (prec > threshold))  # sorted by GT: the first GT first
    if len(hit):
        dets, first, _ = first_of_each(pj[hit])
        dc[dets] = True
        absorbed[dets] = pi[hit[first]]
        prec_out[dets] = prec[hit[first]]
    return dc, absorbed, prec_out
