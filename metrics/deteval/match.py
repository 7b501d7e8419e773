"""DetEval geometry and matching (spec 2.2-2.3): inclusive-pixel overlaps, don't-care
detections, and the one-to-one / split / merge steps with their discarded candidates.

Used by ``metrics.deteval.metric`` only (which documents the official behaviour reproduced here).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from metrics.deteval.params import DetEvalParams
from metrics.evidence import Discarded
from metrics.model import FloatArray, Instance, Sample
from metrics.results import MatchKind, MatchRecord

BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.intp]


# --------------------------------------------------------------------------- geometry (2.2)


def boxes(instances: tuple[Instance, ...]) -> FloatArray:
    """(n, 4) array of xmin, ymin, xmax, ymax."""
    if not instances:
        return np.zeros((0, 4), dtype=np.float64)
    return np.array([i.ltrb for i in instances], dtype=np.float64)


def box_areas(b: FloatArray) -> FloatArray:
    """Inclusive pixel areas (xmax - xmin + 1)(ymax - ymin + 1)."""
    return (b[:, 2] - b[:, 0] + 1) * (b[:, 3] - b[:, 1] + 1)


def overlap_matrix(g: FloatArray, d: FloatArray) -> FloatArray:
    """Inclusive pixel overlap of every (GT, det) pair; 0 when dx or dy is negative."""
    dx = np.minimum(g[:, None, 2], d[None, :, 2]) - np.maximum(g[:, None, 0], d[None, :, 0]) + 1
    dy = np.minimum(g[:, None, 3], d[None, :, 3]) - np.maximum(g[:, None, 1], d[None, :, 1]) + 1
    return np.where((dx >= 0) & (dy >= 0), dx * dy, 0.0)


def _ratio(num: FloatArray, den: FloatArray) -> FloatArray:
    safe = np.where(den == 0, 1.0, den)
    return np.where(den == 0, 0.0, num / safe)


def center_distance(g: FloatArray, d: FloatArray) -> float:
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
    """Matrices of one image (all GTs x all dets, dc included) and the don't-care flags."""

    gt: FloatArray
    det: FloatArray
    recall: FloatArray
    precision: FloatArray
    gt_dc: BoolArray
    det_dc: BoolArray
    absorbed: IntArray  # dc GT that absorbed each det, -1 if none
    dc_precision: FloatArray  # |D ∩ G_dc| / |D| for the absorbing dc GT

    @property
    def gt_overlaps(self) -> IntArray:
        """Number of non-dc dets with R(i, ·) > 0, per GT."""
        return np.asarray(
            np.count_nonzero((self.recall > 0) & ~self.det_dc[None, :], axis=1), dtype=np.intp
        )

    @property
    def det_overlaps(self) -> IntArray:
        """Number of non-dc GTs with R(·, j) > 0, per det."""
        return np.asarray(
            np.count_nonzero((self.recall > 0) & ~self.gt_dc[:, None], axis=0), dtype=np.intp
        )


def geometry(sample: Sample, dc_threshold: float) -> Geometry:
    """Steps 1-2 of spec 2.3: dc GTs and dets, recall and precision matrices."""
    g, d = boxes(sample.gt), boxes(sample.det)
    inter = overlap_matrix(g, d)
    ga, da = box_areas(g), box_areas(d)
    gt_dc = np.fromiter((i.dont_care for i in sample.gt), dtype=bool, count=len(sample.gt))
    det_dc, absorbed, dc_prec = _dont_care_dets(inter, gt_dc, da, dc_threshold)
    return Geometry(
        g,
        d,
        _ratio(inter, ga[:, None]),
        _ratio(inter, da[None, :]),
        gt_dc,
        det_dc,
        absorbed,
        dc_prec,
    )


def _dont_care_dets(
    inter: FloatArray, gt_dc: BoolArray, det_area: FloatArray, threshold: float
) -> tuple[BoolArray, IntArray, FloatArray]:
    """A det is dc when |D ∩ G_dc| / |D| > threshold for a dc GT (the first one absorbs it)."""
    n_det = inter.shape[1]
    absorbed = np.full(n_det, -1, dtype=np.intp)
    prec_out = np.zeros(n_det)
    rows = np.flatnonzero(gt_dc)
    if len(rows) == 0 or n_det == 0:
        return np.zeros(n_det, dtype=bool), absorbed, prec_out
    prec = _ratio(inter[rows], det_area[None, :])
    hit = prec > threshold
    dc = np.asarray(hit.any(axis=0), dtype=bool)
    first = np.argmax(hit, axis=0)
    absorbed[dc] = rows[first[dc]]
    prec_out[dc] = prec[first[dc], np.flatnonzero(dc)]
    return dc, absorbed, prec_out


# --------------------------------------------------------------------------- matching (2.3)


@dataclass
class Matcher:
    """Mutable state of the OO -> OM -> MO passes over one image."""

    geo: Geometry
    params: DetEvalParams
    gt_credit: dict[int, float] = field(default_factory=dict)
    det_credit: dict[int, float] = field(default_factory=dict)
    gt_partners: dict[int, tuple[int, ...]] = field(default_factory=dict)
    det_partners: dict[int, tuple[int, ...]] = field(default_factory=dict)
    matches: list[MatchRecord] = field(default_factory=list)
    match_types: list[str] = field(default_factory=list)
    discarded: list[Discarded] = field(default_factory=list)
    recall_sum: float = 0.0
    precision_sum: float = 0.0
    qualifies: BoolArray = field(init=False)
    row_count: IntArray = field(init=False)
    col_count: IntArray = field(init=False)
    gt_overlaps: IntArray = field(init=False)
    det_overlaps: IntArray = field(init=False)
    gt_used: BoolArray = field(init=False)
    det_used: BoolArray = field(init=False)

    def __post_init__(self) -> None:
        p, geo = self.params, self.geo
        self.qualifies = (geo.recall >= p.area_recall) & (geo.precision >= p.area_precision)
        self.row_count = np.count_nonzero(self.qualifies, axis=1)
        self.col_count = np.count_nonzero(self.qualifies, axis=0)
        self.gt_overlaps = geo.gt_overlaps
        self.det_overlaps = geo.det_overlaps
        self.gt_used = np.zeros(len(geo.gt_dc), dtype=bool)
        self.det_used = np.zeros(len(geo.det_dc), dtype=bool)

    def run(self) -> Matcher:
        for i in np.flatnonzero(~self.geo.gt_dc):
            self.one_to_one(int(i))
        for i in np.flatnonzero(~self.geo.gt_dc):
            self.one_to_many(int(i))
        for j in np.flatnonzero(~self.geo.det_dc):
            self.many_to_one(int(j))
        return self

    # ---- OO
    def one_to_one(self, i: int) -> None:
        """Step 3: only pairs meeting both area thresholds can pass the uniqueness test."""
        for j in np.flatnonzero(self.qualifies[i] & ~self.geo.det_dc):
            if self.gt_used[i]:
                return
            if not self.det_used[j]:
                self._try_pair(i, int(j))

    def _try_pair(self, i: int, j: int) -> None:
        if self.row_count[i] != 1 or self.col_count[j] != 1:
            self._discard(
                "not_unique",
                gt=i,
                det=j,
                row_count=int(self.row_count[i]),
                col_count=int(self.col_count[j]),
            )
            return
        n_gt, n_det = int(self.gt_overlaps[i]), int(self.det_overlaps[j])
        if not self.params.legacy and (n_gt != 1 or n_det != 1):
            self._discard("not_single_overlap", gt=i, det=j, gt_overlaps=n_gt, det_overlaps=n_det)
            return
        d = center_distance(self.geo.gt[i], self.geo.det[j])
        if d >= self.params.center_diff:
            self._discard("center_distance", gt=i, det=j, d=d)
            return
        w = self.params.w_oo
        self._accept(
            (i,),
            (j,),
            MatchKind.ONE_TO_ONE,
            "OO",
            "OO",
            w,
            w,
            {
                "area_recall": float(self.geo.recall[i, j]),
                "area_precision": float(self.geo.precision[i, j]),
                "d": d,
            },
        )

    # ---- OM
    def one_to_many(self, i: int) -> None:
        """Step 4: split of GT i over the unused dets with P(i, j) >= area_precision."""
        dets: tuple[int, ...] = ()
        if not self.gt_used[i]:
            ok = (
                ~self.det_used
                & ~self.geo.det_dc
                & (self.geo.precision[i] >= self.params.area_precision)
            )
            dets = tuple(int(j) for j in np.flatnonzero(ok))
        if not dets:
            return
        s = _sequential_sum(self.geo.recall[i, list(dets)])
        if self._rounded(s) < self.params.area_recall:
            self._discard("sum_below_threshold", stage="OM", gt=(i,), det=dets, S=s)
            return
        n = int(self.gt_overlaps[i])
        if not self.params.legacy and n < 2:
            self._discard("om_not_single", stage="OM", gt=(i,), det=dets, S=s, gt_overlaps=n)
            return
        self._accept_group("OM", (i,), dets, s, n)

    # ---- MO
    def many_to_one(self, j: int) -> None:
        """Step 5: merge into det j of the unused GTs with R(i, j) >= area_recall."""
        gts: tuple[int, ...] = ()
        if not self.det_used[j]:
            ok = (
                ~self.gt_used & ~self.geo.gt_dc & (self.geo.recall[:, j] >= self.params.area_recall)
            )
            gts = tuple(int(i) for i in np.flatnonzero(ok))
        if not gts:
            return
        s = _sequential_sum(self.geo.precision[list(gts), j])
        if self._rounded(s) < self.params.area_precision:
            self._discard("sum_below_threshold", stage="MO", gt=gts, det=(j,), S=s)
            return
        n = int(self.det_overlaps[j])
        if not self.params.legacy and n < 2:
            self._discard("mo_not_single", stage="MO", gt=gts, det=(j,), S=s, det_overlaps=n)
            return
        self._accept_group("MO", gts, (j,), s, n)

    def _accept_group(
        self, stage: str, gts: tuple[int, ...], dets: tuple[int, ...], s: float, n_overlaps: int
    ) -> None:
        """Credit a split (OM) or a merge (MO); one member counts as OO (Q3)."""
        p = self.params
        sum_key = "recall_sum" if stage == "OM" else "precision_sum"
        values = {sum_key: s, "rounded_sum": self._rounded(s), "overlaps": float(n_overlaps)}
        if len(gts) == len(dets) == 1 and not p.legacy:
            self._accept(
                gts, dets, MatchKind.ONE_TO_ONE, "OO", f"OO-via-{stage}", p.w_oo, p.w_oo, values
            )
        elif stage == "OM":
            self._accept(gts, dets, MatchKind.SPLIT, "OM", "OM", p.w_om, p.w_om, values)
        else:
            self._accept(gts, dets, MatchKind.MERGE, "MO", "MO", p.w_mo, p.w_mo, values)

    def _accept(
        self,
        gts: tuple[int, ...],
        dets: tuple[int, ...],
        kind: MatchKind,
        label: str,
        match_type: str,
        gt_w: float,
        det_w: float,
        values: dict[str, float],
    ) -> None:
        """Mark a group matched; accumulate credits as the official (w x group size)."""
        self.recall_sum += gt_w * len(gts)
        self.precision_sum += det_w * len(dets)
        for i in gts:
            self.gt_used[i] = True
            self.gt_credit[i] = gt_w
            self.gt_partners[i] = dets
        for j in dets:
            self.det_used[j] = True
            self.det_credit[j] = det_w
            self.det_partners[j] = gts
        values = {**values, "recall_credit": gt_w * len(gts), "precision_credit": det_w * len(dets)}
        self.matches.append(MatchRecord(kind, gts, dets, values, label))
        self.match_types.append(match_type)

    def _rounded(self, s: float) -> float:
        return s if self.params.legacy else round(s, 4)

    def _discard(
        self,
        reason: str,
        *,
        gt: int | tuple[int, ...],
        det: int | tuple[int, ...],
        stage: str = "OO",
        **values: float,
    ) -> None:
        self.discarded.append(
            Discarded(
                reason,
                gt if isinstance(gt, tuple) else (gt,),
                det if isinstance(det, tuple) else (det,),
                stage,
                {k: float(v) for k, v in values.items()},
            )
        )


def _sequential_sum(values: FloatArray) -> float:
    """Left-to-right float sum, as the official loop (``numpy.sum`` is pairwise)."""
    total = 0.0
    for v in values.tolist():
        total += v
    return total


# --------------------------------------------------------------------------- results (2.4)
