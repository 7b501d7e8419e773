"""DetEval geometry (spec 2.2-2.3 steps 1-2): inclusive-pixel overlaps of the (GT, det) pairs
that overlap, area recall and precision, don't-care detections.

Used by ``metrics.deteval.match`` and ``metrics.deteval.metric`` (which documents the official
behaviour reproduced here).
"""

from __future__ import annotations

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
    thresholds <= 0, under which pairs that do not overlap can take part. Every number is
    computed for the block at once (block-wide indices), then each image takes its part.
    """
    g = block_boxes([s.gt for s in samples])
    d = block_boxes([s.det for s in samples])
    gn = np.array([len(b) for b in g], dtype=np.intp)
    dn = np.array([len(b) for b in d], dtype=np.intp)
    g_off = np.concatenate(([0], np.cumsum(gn))).astype(np.intp)
    d_off = np.concatenate(([0], np.cumsum(dn))).astype(np.intp)
    gall = np.concatenate(g) if g else np.zeros((0, 4))
    dall = np.concatenate(d) if d else np.zeros((0, 4))
    pi, pj = (_every_pair if every_pair else _overlapping)(gn, dn, g_off, d_off, gall, dall)
    inter = _overlaps(gall[pi], dall[pj])
    # an image whose candidates are all its pairs keeps them all (as one image alone would)
    owner = np.repeat(np.arange(len(samples)), gn)[pi]
    full = np.bincount(owner, minlength=len(samples)) == gn * dn
    keep = full[owner] | (inter > 0)
    pi, pj, inter = pi[keep], pj[keep], inter[keep]
    ga, da = box_areas(gall), box_areas(dall)
    gt_dc = np.fromiter((i.dont_care for s in samples for i in s.gt), dtype=bool, count=len(ga))
    det_dc, absorbed, dc_prec = _dont_care_dets(inter, pi, pj, gt_dc, da, dc_threshold)
    recall, precision = _ratio(inter, ga[pi]), _ratio(inter, da[pj])
    by_col = np.lexsort((pi, pj)).astype(np.intp)
    row = np.searchsorted(pi, np.arange(len(ga) + 1)).astype(np.intp)
    col = np.searchsorted(pj[by_col], np.arange(len(da) + 1)).astype(np.intp)
    p_off = row[g_off].tolist()
    out = []
    for k, (g0, g1, d0, d1) in enumerate(
        zip(g_off.tolist(), g_off[1:].tolist(), d_off.tolist(), d_off[1:].tolist(), strict=False)
    ):
        p0, p1 = p_off[k], p_off[k + 1]
        ab = absorbed[d0:d1]
        out.append(
            Geometry(
                g[k],
                d[k],
                pi[p0:p1] - g0,
                pj[p0:p1] - d0,
                recall[p0:p1],
                precision[p0:p1],
                gt_dc[g0:g1],
                det_dc[d0:d1],
                np.where(ab >= 0, ab - g0, ab),
                dc_prec[d0:d1],
                row[g0 : g1 + 1] - p0,
                col[d0 : d1 + 1] - p0,
                by_col[p0:p1] - p0,
            )
        )
    return out


def _every_pair(
    gn: IntArray, dn: IntArray, g_off: IntArray, d_off: IntArray, *_: FloatArray
) -> tuple[IntArray, IntArray]:
    """Every (GT, det) pair of each image (block-wide indices), by image, GT, then det."""
    n = gn * dn
    img = np.repeat(np.arange(len(gn)), n)
    at = np.arange(int(n.sum())) - np.repeat(np.cumsum(n) - n, n)  # pair within its image
    dn_i = dn[img]
    return (g_off[img] + at // np.maximum(dn_i, 1)).astype(np.intp), (
        d_off[img] + at % np.maximum(dn_i, 1)
    ).astype(np.intp)


def _overlapping(
    gn: IntArray, dn: IntArray, g_off: IntArray, d_off: IntArray, gall: FloatArray, dall: FloatArray
) -> tuple[IntArray, IntArray]:
    """The (GT, det) pairs of the same image whose grown boxes meet (block-wide indices),
    sorted by GT then det."""
    empty = np.zeros(0, np.intp)
    if not g_off[-1] or not d_off[-1]:
        return empty, empty
    g_owner = np.repeat(np.arange(len(gn)), gn)
    d_owner = np.repeat(np.arange(len(dn)), dn)
    return same_sample_pairs(_grown(gall), g_owner, _grown(dall), d_owner)


def _grown(b: FloatArray) -> GeomArray:
    """Boxes one pixel larger to the right and down: they meet when the inclusive-pixel
    boxes may overlap."""
    grown: GeomArray = shapely.box(b[:, 0], b[:, 1], b[:, 2] + 1, b[:, 3] + 1)
    return grown


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
