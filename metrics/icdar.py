"""Machinery shared by the IoU-greedy family: ic15_iou, siou, tiou, curved_*, wordline_*.

Spec sections 1.2 (polygons, don't-care detections, greedy GT-major matching), 3.2 (SIoU and
TIoU credits of a matched pair, with cut and outlier regions) and 0.7 (confidence order).
The metric modules call these pieces; none of them holds a formula of its own twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import shapely

from metrics.geometry import GeomArray, intersection_areas, polygons, rings_of, signed_areas
from metrics.model import BoxType, FloatArray, Instance, Problem, Sample, Severity
from metrics.results import (
    InstanceResult,
    MatchKind,
    MatchRecord,
    NearMiss,
    Verdict,
)

BoolArray = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class Shapes:
    """Polygons of one side (GT or det) of a sample, as the official code builds them."""

    geoms: GeomArray
    area: FloatArray  # |shoelace| (Polygon2 semantics)
    dont_care: BoolArray


def rings(instances: Sequence[Instance], *, curved: bool = False) -> list[FloatArray]:
    """Vertices as the official code sees them: int()-truncated, or float32 for curved."""
    if curved:
        return [i.points.astype(np.float32).astype(np.float64) for i in instances]
    return [np.trunc(i.points) for i in instances]


def shapes(instances: Sequence[Instance], *, curved: bool = False) -> Shapes:
    r = rings(instances, curved=curved)
    geoms, _ = polygons(r)
    area = np.abs(signed_areas(r)) if r else np.zeros(0)
    dc = np.fromiter((i.dont_care for i in instances), dtype=bool, count=len(instances))
    return Shapes(geoms, area, dc)


def confidence_order(dets: Sequence[Instance], enabled: bool | None) -> list[int]:
    """Evaluation order of detections: file order, or stable descending confidence (0.7)."""
    use = enabled if enabled is not None else bool(dets) and all(
        d.confidence is not None for d in dets)
    if not use:
        return list(range(len(dets)))
    return sorted(range(len(dets)), key=lambda j: -(dets[j].confidence or 0.0))


def dont_care_dets(inter: FloatArray, gt: Shapes, det_area: FloatArray,
                   threshold: float) -> tuple[BoolArray, npt.NDArray[np.intp]]:
    """Dets with |D ∩ G_dc| / |D| > threshold for some dc GT (first such GT absorbs it)."""
    n_det = inter.shape[1]
    absorbed = np.full(n_det, -1, dtype=np.intp)
    dc_rows = np.flatnonzero(gt.dont_care)
    if len(dc_rows) == 0 or n_det == 0:
        return np.zeros(n_det, dtype=bool), absorbed
    with np.errstate(divide="ignore", invalid="ignore"):
        prec = np.where(det_area > 0, inter[dc_rows] / np.where(det_area > 0, det_area, 1), 0)
    hit = prec > threshold
    any_hit = hit.any(axis=0)
    absorbed[any_hit] = dc_rows[np.argmax(hit[:, any_hit], axis=0)]
    return any_hit, absorbed


def iou_matrix(inter: FloatArray, gt_area: FloatArray, det_area: FloatArray) -> FloatArray:
    union = gt_area[:, None] + det_area[None, :] - inter
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(union > 0, inter / np.where(union > 0, union, 1), 0.0)


def greedy_match(iou: FloatArray, gt_ok: BoolArray, det_ok: BoolArray,
                 threshold: float) -> list[tuple[int, int]]:
    """GT-major, det-minor first-found matching with IoU > threshold (spec 1.2 step 4)."""
    cand = (iou > threshold) & gt_ok[:, None] & det_ok[None, :]
    taken = np.zeros(iou.shape[1], dtype=bool)
    pairs = []
    for i in np.flatnonzero(cand.any(axis=1)):
        free = np.flatnonzero(cand[i] & ~taken)
        if len(free):
            j = int(free[0])
            taken[j] = True
            pairs.append((int(i), j))
    return pairs


def penalty(x: float, tolerance: float) -> float:
    """TIoU penalty factor f(x) = 1 if x <= tolerance else 1 - x."""
    return 1.0 if x <= tolerance else 1.0 - x


@dataclass(frozen=True)
class TiouOptions:
    tolerance: float = 0.01
    ot_zero_eps: float = 1e-10
    dc_as_outlier: bool = True
    ot_slack: float = 0.001  # curved script: 0.0


def pair_values(i: int, j: int, inter: FloatArray, gt: Shapes, det: Shapes,
                ot: float, opts: TiouOptions) -> dict[str, float]:
    """IoU, SIoU and TIoU numbers of the matched pair (GT i, det j) — spec 3.2."""
    g, d, inter_ij = float(gt.area[i]), float(det.area[j]), float(inter[i, j])
    union = g + d - inter_ij
    iou = inter_ij / union if union > 0 else 0.0
    ct = g - inter_ij
    if -1e-9 < ct < 0:
        ct = 0.0
    ct_ratio = ct / g if g > 0 else 0.0
    f_ct = penalty(ct_ratio, opts.tolerance)
    ok_r = union > 0 and g > 0 and 0 <= ct <= g
    ot_ratio = ot / d if d > 0 else 0.0
    f_ot = penalty(ot_ratio, opts.tolerance)
    ok_p = union > 0 and d > 0 and 0 <= ot <= d + opts.ot_slack
    return {
        "iou": iou, "intersection": inter_ij, "gt_area": g, "det_area": d, "union": union,
        "ct": ct, "ct_ratio": ct_ratio, "f_ct": f_ct,
        "tiou_recall": inter_ij * f_ct / union if ok_r else 0.0,
        "ot": ot, "ot_ratio": ot_ratio, "f_ot": f_ot,
        "tiou_precision": inter_ij * f_ot / union if ok_p else 0.0,
        "cut_tolerated": float(0 < ct_ratio <= opts.tolerance),
        "outlier_tolerated": float(0 < ot_ratio <= opts.tolerance),
    }


def outliers(target: int, j: int, inter: FloatArray, gt: Shapes, skip: int | None,
             dc_as_outlier: bool) -> list[int]:
    """Other GTs overlapping det j (dc GTs included unless dc_as_outlier is False)."""
    ks = np.flatnonzero(inter[:, j] != 0)
    return [int(k) for k in ks if k != skip and (dc_as_outlier or not gt.dont_care[k])]


def outlier_area(d_geom: shapely.Geometry, g_geom: shapely.Geometry,
                 others: Sequence[shapely.Geometry], eps: float
                 ) -> tuple[float, shapely.Geometry]:
    """Ot = |D ∩ V| - |D ∩ G ∩ V| with V = union of the outlier GTs; and (D ∩ V) minus G."""
    if not others:
        return 0.0, shapely.Polygon()
    v = others[0] if len(others) == 1 else shapely.union_all(list(others))
    dv = shapely.intersection(d_geom, v)
    ot = float(shapely.area(dv) - shapely.area(shapely.intersection(shapely.intersection(
        d_geom, g_geom), v)))
    if ot <= eps:
        ot = 0.0
    return ot, shapely.difference(dv, g_geom)


def tiou_record(i: int, j: int, values: dict[str, float], gt: Shapes, det: Shapes,
                outlier_geom: shapely.Geometry, outlier_gts: Sequence[int],
                det_index: int) -> MatchRecord:
    """Match record with the TIoU evidence regions (cut G minus D, outlier region)."""
    cut = shapely.difference(gt.geoms[i], det.geoms[j])
    return MatchRecord(
        kind=MatchKind.ONE_TO_ONE, gt=(i,), det=(det_index,), values=values, label="OO",
        regions={"cut": rings_of(cut), "outlier": rings_of(outlier_geom)},
        related={"outlier_gts": tuple(outlier_gts),
                 "outlier_dont_care": tuple(k for k in outlier_gts if gt.dont_care[k])},
    )


def instance_results(n: int, credit: dict[int, float], partners: dict[int, int],
                     dc: BoolArray, best: tuple[npt.NDArray[np.intp], FloatArray] | None,
                     absorbed: npt.NDArray[np.intp] | None, miss: Verdict
                     ) -> tuple[InstanceResult, ...]:
    """Per-instance verdicts: dc, matched/partial (by credit), or missed / false positive."""
    out = []
    for k in range(n):
        if dc[k]:
            out.append(InstanceResult(k, Verdict.DONT_CARE, 0.0,
                                      absorbed_by=None if absorbed is None or absorbed[k] < 0
                                      else int(absorbed[k])))
        elif k in partners:
            c = credit.get(k, 1.0)
            v = Verdict.MATCHED if c >= 1.0 - 1e-12 else Verdict.PARTIAL
            out.append(InstanceResult(k, v, c, partners=(partners[k],)))
        else:
            near = None
            if best is not None and best[1][k] > 0:
                near = NearMiss(int(best[0][k]), float(best[1][k]), "iou")
            out.append(InstanceResult(k, miss, 0.0, near_miss=near))
    return tuple(out)


def best_partner(iou: FloatArray, other_ok: BoolArray, axis: int
                 ) -> tuple[npt.NDArray[np.intp], FloatArray]:
    """For each row (axis=1) or column (axis=0): best IoU among allowed partners."""
    if iou.size == 0:
        n = iou.shape[0] if axis == 1 else iou.shape[1]
        return np.zeros(n, dtype=np.intp), np.zeros(n)
    masked = np.where(other_ok[None, :] if axis == 1 else other_ok[:, None], iou, -1.0)
    idx = np.argmax(masked, axis=axis)
    val = np.max(masked, axis=axis)
    return idx.astype(np.intp), np.maximum(val, 0.0)


def icdar_problems(sample: Sample, *, allow_float: bool, check_orientation: bool
                   ) -> list[Problem]:
    """Input rules of the ICDAR tools: integer coordinates, clockwise QUADs (spec 0.3-0.4)."""
    out = []
    for side, source, items in (("GT", sample.gt_source, sample.gt),
                                ("det", sample.det_source, sample.det)):
        for inst in items:
            if not inst.integer and not allow_float:
                out.append(Problem(Severity.ERROR, source or side, inst.line,
                                   "coordinates must be integers for this metric "
                                   "(set allow_float=true to truncate them)", sample.id))
            if check_orientation and inst.box_type is BoxType.QUAD:
                r = np.trunc(inst.points)
                s = float(np.sum((np.roll(r[:, 0], -1) - r[:, 0]) *
                                 (np.roll(r[:, 1], -1) + r[:, 1])))
                if s > 0:
                    out.append(Problem(Severity.ERROR, source or side, inst.line,
                                       "points are not clockwise (image coordinates, y down); "
                                       "set check_orientation=false to accept them",
                                       sample.id))
    return out


@dataclass(frozen=True)
class Prepared:
    """Geometry and matrices of one sample, det side in evaluation order."""

    gt: Shapes
    det: Shapes
    order: list[int]  # evaluation position -> file index of the det
    inter: FloatArray
    iou: FloatArray
    det_dc: BoolArray
    absorbed: npt.NDArray[np.intp]


def prepare(sample: Sample, *, curved: bool, dc_threshold: float,
            confidences: bool | None, gt_items: Sequence[Instance] | None = None) -> Prepared:
    """Polygons, intersection and IoU matrices, don't-care dets (spec 1.2 steps 1-3)."""
    order = confidence_order(sample.det, confidences)
    gt = shapes(sample.gt if gt_items is None else gt_items, curved=curved)
    det = shapes([sample.det[j] for j in order], curved=curved)
    inter = intersection_areas(gt.geoms, det.geoms)
    det_dc, absorbed = dont_care_dets(inter, gt, det.area, dc_threshold)
    return Prepared(gt, det, order, inter, iou_matrix(inter, gt.area, det.area), det_dc,
                    absorbed)


def match_values(p: Prepared, pairs: Sequence[tuple[int, int]], opts: TiouOptions,
                 with_outliers: bool, skip: dict[int, int | None] | None = None
                 ) -> list[tuple[dict[str, float], MatchRecord]]:
    """Per matched pair: the numbers of spec 3.2 and a record with cut/outlier regions."""
    out = []
    for i, j in pairs:
        ot, region, others = 0.0, shapely.Polygon(), []
        if with_outliers and not p.gt.dont_care[i]:
            others = outliers(i, j, p.inter, p.gt, i if skip is None else skip.get(i, i),
                              opts.dc_as_outlier)
            ot, region = outlier_area(p.det.geoms[j], p.gt.geoms[i],
                                      [p.gt.geoms[k] for k in others], opts.ot_zero_eps)
        values = pair_values(i, j, p.inter, p.gt, p.det, ot, opts)
        out.append((values, tiou_record(i, j, values, p.gt, p.det, region, others,
                                        p.order[j])))
    return out
