"""ICDAR 2013 DetEval (``deteval``): one-to-one, split and merge matching of axis-aligned boxes.

Paper: Wolf & Jolion, "Object count/area graphs for the evaluation of object detection and
segmentation algorithms", IJDAR 8(4), 2006.
Official implementation matched: the RRC "TL2p_deteval" ``script.py`` (Python-3 RRC helper
``rrc_evaluation_funcs_1_1``, the version with ``is_single_overlap`` / ``num_overlaps_*`` /
``round(sum, 4)``), which produced ``shared/reference/ic13__*__deteval.json``; spec section 2.

A GT is matched one-to-one (OO), then split over several detections (OM), then merged with
other GTs into one detection (MO); each instance is used once. Credits: 1 for OO, 0.8 for the
GT of a split and for *each* of its detections, 1 for each GT of a merge and for its detection.

Where this follows the code rather than the paper:

- inclusive pixel areas (width = xmax - xmin + 1), so boxes sharing an edge coordinate overlap
  by a one-pixel line (Q1);
- order OO -> OM -> MO (the paper's tool resolves splits/merges first, Q7);
- OO needs, besides the area thresholds and the center test, that GT and det each overlap
  exactly one non-dc instance ("single overlap"); the uniqueness test before it counts
  don't-care and already-matched instances (Q2, Q5);
- OM/MO need >= 2 overlapping non-dc partners, and a group with a single member is credited
  and labelled like OO (Q3);
- split/merge sums are compared after Python ``round(S, 4)`` (half-even), OO uses raw values
  (Q4);
- the 0.8 split penalty is given to every detection of a split (spec 2.1);
- per image, an image without detections scores R = P = 0 even when every GT is don't-care;
  a GT file without any line next to an existing, empty det file scores R = P = 1 but keeps
  H = 0, because the official script computes H only for images with detections (Q6).
  ``per_image_empty_rule="ic15"`` applies the ICDAR15 rule instead. Global numbers are not
  affected.

``variant="legacy"`` reproduces the older RRC copies (spec 2.7): no single-overlap test in OO,
no ">= 2 overlaps" test in OM/MO, no rounding, and one-member OM/MO keep their weights and labels.
Departure from the code for degenerate thresholds only: a split or merge needs at least one
collected member (with ``area_recall <= 0`` the official code would credit an empty group).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from metrics.model import BoxType, FloatArray, Instance, Problem, Sample, Severity
from metrics.results import (
    InstanceResult,
    MatchKind,
    MatchRecord,
    NearMiss,
    SampleResult,
    Verdict,
    credit_tally,
    hmean,
    per_image_rule,
)

ID = "deteval"

BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.intp]

VARIANTS = ("rrc", "legacy")
EMPTY_RULES = ("official", "ic15")


@dataclass(frozen=True)
class DetEvalParams:
    """Official defaults (spec 2.1); ``variant`` (2.7) and ``per_image_empty_rule`` (2.5 Q6)."""

    area_recall: float = 0.8
    area_precision: float = 0.4
    center_diff: float = 1.0
    w_oo: float = 1.0
    w_om: float = 0.8
    w_mo: float = 1.0
    variant: str = "rrc"
    per_image_empty_rule: str = "official"

    def __post_init__(self) -> None:
        if self.variant not in VARIANTS:
            raise ValueError(f"variant must be one of {VARIANTS}, not {self.variant!r}")
        if self.per_image_empty_rule not in EMPTY_RULES:
            raise ValueError(
                f"per_image_empty_rule must be one of {EMPTY_RULES}, "
                f"not {self.per_image_empty_rule!r}"
            )

    @property
    def legacy(self) -> bool:
        return self.variant == "legacy"


def validate(sample: Sample, params: DetEvalParams) -> list[Problem]:
    """DetEval takes integer axis-aligned boxes (LTRB) only, for GT and detections."""
    del params
    out = []
    for side, source, items in (
        ("GT", sample.gt_source, sample.gt),
        ("det", sample.det_source, sample.det),
    ):
        for inst in items:
            if inst.box_type is not BoxType.LTRB:
                out.append(
                    Problem(
                        Severity.ERROR,
                        source or side,
                        inst.line,
                        f"DetEval takes axis-aligned boxes (xmin,ymin,xmax,ymax) "
                        f"only, got a {inst.box_type.value} {side} box",
                        sample.id,
                    )
                )
            if not inst.integer:
                out.append(
                    Problem(
                        Severity.ERROR,
                        source or side,
                        inst.line,
                        "coordinates must be integers for DetEval",
                        sample.id,
                    )
                )
    return out


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
    discarded: list[dict[str, Any]] = field(default_factory=list)
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
            self._discard("om_not_single", gt=(i,), det=dets, S=s, gt_overlaps=n)
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
            self._discard("mo_not_single", gt=gts, det=(j,), S=s, det_overlaps=n)
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

    def _discard(self, reason: str, **info: Any) -> None:
        self.discarded.append({"reason": reason, **info})


def _sequential_sum(values: FloatArray) -> float:
    """Left-to-right float sum, as the official loop (``numpy.sum`` is pairwise)."""
    total = 0.0
    for v in values.tolist():
        total += v
    return total


# --------------------------------------------------------------------------- results (2.4)


def evaluate_sample(sample: Sample, params: DetEvalParams) -> SampleResult:
    """DetEval of one image (spec 2.3), with the per-image rules of spec 0.9 / 2.5 Q6."""
    geo = geometry(sample, params.area_precision)
    m = Matcher(geo, params)
    if len(sample.det):
        m.run()
    n_gt = int(np.count_nonzero(~geo.gt_dc))
    n_det = int(np.count_nonzero(~geo.det_dc))
    recall, precision, h = per_image_scores(
        sample, params, n_gt, n_det, m.recall_sum, m.precision_sum
    )
    return SampleResult(
        metric=ID,
        sample_id=sample.id,
        recall=recall,
        precision=precision,
        hmean=h,
        tally=credit_tally(n_gt, n_det, m.recall_sum, m.precision_sum),
        gt=gt_results(geo, m),
        det=det_results(geo, m),
        matches=tuple(m.matches),
        evidence={
            "discarded": tuple(m.discarded),
            "match_types": tuple(m.match_types),
            "dc_dets": _dc_dets(geo),
            "area_recall": _frozen(geo.recall),
            "area_precision": _frozen(geo.precision),
        },
        extra={
            "num_gt_care": n_gt,
            "num_det_care": n_det,
            "num_gt": len(sample.gt),
            "num_det": len(sample.det),
        },
    )


def per_image_scores(
    sample: Sample,
    params: DetEvalParams,
    n_gt: int,
    n_det: int,
    recall_credit: float,
    precision_credit: float,
) -> tuple[float, float, float]:
    """Per-image (R, P, H) of the official script (spec 0.9), or the ICDAR15 rule."""
    if params.per_image_empty_rule == "ic15":
        return per_image_rule(n_gt, n_det, recall_credit, precision_credit)
    if not sample.det:
        if not sample.gt and sample.det_source is not None:
            return 1.0, 1.0, 0.0  # official: H is only computed for images with dets
        return 0.0, 0.0, 0.0
    if n_gt == 0:
        return 1.0, 0.0, 0.0
    recall = recall_credit / n_gt
    precision = 0.0 if n_det == 0 else precision_credit / n_det
    return recall, precision, hmean(recall, precision)


def _verdict(credit: float) -> Verdict:
    return Verdict.MATCHED if credit >= 1.0 else Verdict.PARTIAL


def _best(values: FloatArray, allowed: BoolArray) -> tuple[int, float]:
    masked = np.where(allowed, values, -1.0)
    if masked.size == 0:
        return 0, 0.0
    k = int(np.argmax(masked))
    return k, float(masked[k])


def gt_results(geo: Geometry, m: Matcher) -> tuple[InstanceResult, ...]:
    out = []
    for i in range(len(geo.gt_dc)):
        overlaps = {"overlaps": float(m.gt_overlaps[i])}
        if geo.gt_dc[i]:
            out.append(InstanceResult(i, Verdict.DONT_CARE))
        elif i in m.gt_partners:
            c = m.gt_credit[i]
            out.append(
                InstanceResult(i, _verdict(c), c, partners=m.gt_partners[i], values=overlaps)
            )
        else:
            k, v = _best(geo.recall[i], ~geo.det_dc)
            near = NearMiss(k, v, "area_recall") if v > 0 else None
            out.append(InstanceResult(i, Verdict.MISSED, near_miss=near, values=overlaps))
    return tuple(out)


def det_results(geo: Geometry, m: Matcher) -> tuple[InstanceResult, ...]:
    out = []
    for j in range(len(geo.det_dc)):
        overlaps = {"overlaps": float(m.det_overlaps[j])}
        if geo.det_dc[j]:
            out.append(
                InstanceResult(
                    j,
                    Verdict.DONT_CARE,
                    absorbed_by=int(geo.absorbed[j]),
                    values={"dc_precision": float(geo.dc_precision[j])},
                )
            )
        elif j in m.det_partners:
            c = m.det_credit[j]
            out.append(
                InstanceResult(j, _verdict(c), c, partners=m.det_partners[j], values=overlaps)
            )
        else:
            k, v = _best(geo.precision[:, j], ~geo.gt_dc)
            near = NearMiss(k, v, "area_precision") if v > 0 else None
            out.append(InstanceResult(j, Verdict.FALSE_POSITIVE, near_miss=near, values=overlaps))
    return tuple(out)


def _dc_dets(geo: Geometry) -> tuple[dict[str, Any], ...]:
    return tuple(
        {"det": int(j), "gt": int(geo.absorbed[j]), "precision": float(geo.dc_precision[j])}
        for j in np.flatnonzero(geo.det_dc)
    )


def _frozen(a: FloatArray) -> FloatArray:
    a = a.copy()
    a.flags.writeable = False
    return a
