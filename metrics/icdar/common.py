"""Machinery shared by the IoU-greedy family: ic15_iou, siou, tiou, curved_*, wordline_*.

Spec sections 1.2 (polygons, don't-care detections, greedy GT-major matching), 3.2 (SIoU and
TIoU credits of a matched pair, with cut and outlier regions) and 0.7 (confidence order).
The metric modules call these pieces; none of them holds a formula of its own twice.
"""

from __future__ import annotations

import bisect
import functools
from collections.abc import Mapping, Sequence

import numpy as np
import numpy.typing as npt
import shapely

import metrics.shapes.matching as matching
from metrics.core.floats import REFUSED
from metrics.core.model import FloatArray, Instance, Problem, Sample, Severity
from metrics.core.records import dataclass
from metrics.core.results import (
    InstanceResult,
    MatchKind,
    MatchRecord,
    NearMiss,
    Verdict,
)
from metrics.icdar.params import TiouOptions
from metrics.shapes import robust
from metrics.shapes.boxes import boxes_meet
from metrics.shapes.cache import GeometryCache
from metrics.shapes.geometry import GeomArray, polygons, regions_of, signed_areas
from metrics.shapes.matching import iou_matrix
from metrics.shapes.order import clockwise_violations, confidence_order

BoolArray = npt.NDArray[np.bool_]
EMPTY = shapely.Polygon()


@dataclass(frozen=True)
class Shapes:
    """Polygons of one side (GT or det) of a sample, as the official code builds them."""

    geoms: GeomArray
    area: FloatArray  # |shoelace| (Polygon2 semantics)
    dont_care: BoolArray


def rings(instances: Sequence[Instance], *, curved: bool = False) -> list[FloatArray]:
    """Vertices as the official code sees them: as given (its int() is a no-op on the
    integers it accepts; non-integers are evaluated as given), or float32 for curved."""
    if curved:
        return [i.points.astype(np.float32).astype(np.float64) for i in instances]
    return [np.asarray(i.points, dtype=np.float64) for i in instances]


def shapes(instances: Sequence[Instance], *, curved: bool = False) -> Shapes:
    r = rings(instances, curved=curved)
    geoms, _ = polygons(r)
    area = np.abs(signed_areas(r)) if r else np.zeros(0)
    dc = np.fromiter((i.dont_care for i in instances), dtype=bool, count=len(instances))
    return Shapes(geoms, area, dc)


def _all_pairs(shape: tuple[int, ...]) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """Every (row, column) of a dense matrix as flat pair arrays, row-major."""
    rows, cols = np.indices(shape, dtype=np.intp)
    return rows.ravel(), cols.ravel()


def dont_care_dets(
    inter: FloatArray, gt: Shapes, det_area: FloatArray, threshold: float
) -> tuple[BoolArray, npt.NDArray[np.intp]]:
    """Dets with |D ∩ G_dc| / |D| > threshold for some dc GT (first such GT absorbs it)."""
    pi, pj = _all_pairs(inter.shape)
    return matching.dont_care_dets(pi, pj, inter.ravel(), det_area, gt.dont_care, threshold)


def penalty(x: float, tolerance: float) -> float:
    """TIoU penalty factor f(x) = 1 if x <= tolerance else 1 - x."""
    return 1.0 if x <= tolerance else 1.0 - x


def pair_values(
    i: int, j: int, inter: FloatArray, gt: Shapes, det: Shapes, ot: float, opts: TiouOptions
) -> dict[str, float]:
    """IoU, SIoU and TIoU numbers of the single pair (GT i, det j) — spec 3.2."""
    arrays = pair_value_arrays(
        inter[i : i + 1, j], gt.area[i : i + 1], det.area[j : j + 1], np.array([ot]), opts
    )
    return {k: float(v[0]) for k, v in arrays.items()}


def outliers(
    target: int, j: int, inter: FloatArray, gt: Shapes, skip: int | None, dc_as_outlier: bool
) -> list[int]:
    """Other GTs overlapping det j (dc GTs included unless dc_as_outlier is False)."""
    ks = np.flatnonzero(inter[:, j] != 0)
    return [int(k) for k in ks if k != skip and (dc_as_outlier or not gt.dont_care[k])]


def outlier_area(
    d_geom: shapely.Geometry,
    g_geom: shapely.Geometry,
    others: Sequence[shapely.Geometry],
    eps: float,
) -> tuple[float, shapely.Geometry]:
    """Ot = |D ∩ V| - |D ∩ G ∩ V| with V = union of the outlier GTs; and (D ∩ V) minus G."""
    if not others:
        return 0.0, shapely.Polygon()
    v = others[0] if len(others) == 1 else robust.union_all(list(others))
    dv = robust.intersection(d_geom, v)
    ot = float(
        shapely.area(dv) - shapely.area(robust.intersection(robust.intersection(d_geom, g_geom), v))
    )
    if ot <= eps:
        ot = 0.0
    return ot, robust.difference(dv, g_geom)


def instance_results(
    n: int,
    credit: dict[int, float],
    partners: dict[int, int],
    dc: BoolArray,
    best: tuple[npt.NDArray[np.intp], FloatArray] | None,
    absorbed: npt.NDArray[np.intp] | None,
    miss: Verdict,
) -> tuple[InstanceResult, ...]:
    """Per-instance verdicts: dc, matched/partial (by credit), or missed / false positive."""
    out = []
    for k in range(n):
        if dc[k]:
            out.append(
                InstanceResult(
                    k,
                    Verdict.DONT_CARE,
                    0.0,
                    absorbed_by=None if absorbed is None or absorbed[k] < 0 else int(absorbed[k]),
                )
            )
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


def icdar_problems(sample: Sample, *, allow_float: bool, check_orientation: bool) -> list[Problem]:
    """Input rules of the ICDAR tools: integer coordinates, clockwise QUADs (spec 0.3-0.4)."""
    return icdar_problems_batch(
        [sample], allow_float=allow_float, check_orientation=check_orientation
    )


def icdar_problems_batch(
    samples: Sequence[Sample], *, allow_float: bool, check_orientation: bool
) -> list[Problem]:
    """``icdar_problems`` of many samples, the orientation test in one array operation."""
    flat: list[Instance] = []  # every instance of the block, GT then det of each sample
    starts: list[int] = []  # where each (sample, file) group starts in ``flat``
    groups: list[tuple[Sample, str]] = []
    for s in samples:
        for where, insts in ((s.gt_source or "GT", s.gt), (s.det_source or "det", s.det)):
            if insts:
                starts.append(len(flat))
                groups.append((s, where))
                flat.extend(insts)
    out: list[Problem] = []
    if not allow_float:
        for k in [k for k, inst in enumerate(flat) if not inst.integer]:
            s, where = groups[bisect.bisect_right(starts, k) - 1]
            out.append(Problem(Severity.ERROR, where, flat[k].line, REFUSED, s.id))
    if check_orientation:
        for k in clockwise_violations(flat):
            s, where = groups[bisect.bisect_right(starts, k) - 1]
            out.append(Problem(Severity.ERROR, where, flat[k].line, _CLOCKWISE, s.id))
    return out


_CLOCKWISE = (
    "points are not clockwise (image coordinates, y down); set check_orientation=false to "
    "accept them"
)


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


def prepare(
    sample: Sample,
    *,
    curved: bool,
    dc_threshold: float,
    confidences: bool | None,
    geometry: GeometryCache,
) -> Prepared:
    """Polygons, intersection and IoU matrices, don't-care dets (spec 1.2 steps 1-3).

    Memoized in ``geometry`` (the run's cache), so ic15_iou, siou and tiou of one sample
    share the work.
    """
    return geometry.memo(
        ("prepare", curved, dc_threshold, confidences),
        sample,
        lambda: _prepare(sample, curved, dc_threshold, confidences, geometry),
    )


def _prepare(
    sample: Sample,
    curved: bool,
    dc_threshold: float,
    confidences: bool | None,
    geometry: GeometryCache,
) -> Prepared:
    order = confidence_order(sample.det, confidences)
    g = geometry.get(sample, "curved" if curved else "icdar")
    gt_dc = np.fromiter((i.dont_care for i in sample.gt), dtype=bool, count=len(sample.gt))
    gt = Shapes(g.gt_geoms, g.gt_area, gt_dc)
    no_dc = np.zeros(len(order), dtype=bool)
    if order == list(range(len(order))):
        det, inter = Shapes(g.det_geoms, g.det_area, no_dc), g.inter
    else:
        idx = np.asarray(order, dtype=np.intp)
        det, inter = Shapes(g.det_geoms[idx], g.det_area[idx], no_dc), g.inter[:, idx]
    det_dc, absorbed = dont_care_dets(inter, gt, det.area, dc_threshold)
    return Prepared(gt, det, order, inter, iou_matrix(inter, gt.area, det.area), det_dc, absorbed)


def _outlier_sets(
    p: Prepared,
    pairs: Sequence[tuple[int, int]],
    opts: TiouOptions,
    skip: Mapping[int, int | None] | None,
) -> list[list[int]]:
    out: list[list[int]] = []
    for i, j in pairs:
        if p.gt.dont_care[i]:
            out.append([])
            continue
        out.append(
            outliers(i, j, p.inter, p.gt, i if skip is None else skip.get(i, i), opts.dc_as_outlier)
        )
    return out


def outlier_regions(
    det_geoms: GeomArray,
    target_geoms: GeomArray,
    gt_geoms: GeomArray,
    others: Sequence[Sequence[int]],
    eps: float,
    with_regions: bool = True,
) -> tuple[FloatArray, GeomArray]:
    """Ot and the outlier region (D ∩ V) minus G of each pair, vectorized over pairs.

    ``det_geoms[m]`` / ``target_geoms[m]`` are pair m's D and G; ``others[m]`` its outlier GTs.
    ``with_regions`` False: the regions (drawn as evidence, never counted) are left empty.
    """
    n = len(others)
    ot = np.zeros(n)
    regions = np.full(n, EMPTY, dtype=object)
    single = [m for m in range(n) if len(others[m]) == 1]
    if single:
        sm = np.asarray(single, dtype=np.intp)
        ks = np.asarray([others[m][0] for m in single], dtype=np.intp)
        pieces = robust.intersection(det_geoms[sm], gt_geoms[ks])
        ot[sm] = shapely.area(pieces) - inside_areas(pieces, target_geoms[sm])
        if with_regions:
            regions[sm] = robust.difference(pieces, target_geoms[sm])
    multi = [m for m in range(n) if len(others[m]) > 1]
    if multi:  # outlier_area of each, vectorized
        mm = np.asarray(multi, dtype=np.intp)
        v = robust.union_rows(gt_geoms, [others[m] for m in multi])
        dv = robust.intersection(det_geoms[mm], v)
        ot[mm] = shapely.area(dv) - inside_areas(det_geoms[mm], target_geoms[mm], v)
        if with_regions:
            regions[mm] = robust.difference(dv, target_geoms[mm])
    ot[ot <= eps] = 0.0
    return ot, regions


def inside_areas(*parts: GeomArray) -> FloatArray:
    """|((parts[0] ∩ parts[1]) ∩ parts[2]) ...| row by row, 0.0 without clipping where the
    bounding boxes do not meet (most outliers lie beside the matched GT)."""
    out = np.zeros(len(parts[0]))
    k = np.flatnonzero(boxes_meet(*parts))
    if len(k):
        out[k] = shapely.area(functools.reduce(robust.intersection, (p[k] for p in parts)))
    return out


def match_values(
    p: Prepared,
    pairs: Sequence[tuple[int, int]],
    opts: TiouOptions,
    with_outliers: bool,
    skip: Mapping[int, int | None] | None = None,
) -> list[tuple[dict[str, float], MatchRecord]]:
    """Per matched pair: the numbers of spec 3.2 and a record with cut/outlier regions."""
    if not pairs:
        return []
    gi = np.asarray([i for i, _ in pairs], dtype=np.intp)
    dj = np.asarray([j for _, j in pairs], dtype=np.intp)
    others = _outlier_sets(p, pairs, opts, skip) if with_outliers else [[] for _ in pairs]
    ot, regions = outlier_regions(
        p.det.geoms[dj], p.gt.geoms[gi], p.gt.geoms, others, opts.ot_zero_eps
    )
    values = pair_value_arrays(p.inter[gi, dj], p.gt.area[gi], p.det.area[dj], ot, opts)
    cuts = regions_of(robust.difference(p.gt.geoms[gi], p.det.geoms[dj]))
    outs = regions_of(regions)
    out = []
    for m, (i, j) in enumerate(pairs):
        v = {k: float(a[m]) for k, a in values.items()}
        out.append(
            (
                v,
                MatchRecord(
                    kind=MatchKind.ONE_TO_ONE,
                    gt=(i,),
                    det=(p.order[j],),
                    values=v,
                    label="OO",
                    regions={"cut": cuts[m], "outlier": outs[m]} if with_outliers else {},
                    related={
                        "outlier_gts": tuple(others[m]),
                        "outlier_dont_care": tuple(k for k in others[m] if p.gt.dont_care[k]),
                    },
                ),
            )
        )
    return out


def pair_value_arrays(
    inter: FloatArray, g: FloatArray, d: FloatArray, ot: FloatArray, opts: TiouOptions
) -> dict[str, FloatArray]:
    """Vectorized spec 3.2 over pairs: IoU, cut Ct, outlier Ot, penalties, TIoU credits."""
    union = g + d - inter
    safe_u = np.where(union > 0, union, 1.0)
    ct = g - inter
    ct = np.where((ct < 0) & (ct > -1e-9), 0.0, ct)
    ct_ratio = np.where(g > 0, ct / np.where(g > 0, g, 1.0), 0.0)
    ot_ratio = np.where(d > 0, ot / np.where(d > 0, d, 1.0), 0.0)
    f_ct = np.where(ct_ratio <= opts.tolerance, 1.0, 1.0 - ct_ratio)
    f_ot = np.where(ot_ratio <= opts.tolerance, 1.0, 1.0 - ot_ratio)
    ok_r = (union > 0) & (g > 0) & (ct >= 0) & (ct <= g)
    ok_p = (union > 0) & (d > 0) & (ot >= 0) & (ot <= d + opts.ot_slack)
    return {
        "iou": np.where(union > 0, inter / safe_u, 0.0),
        "intersection": inter,
        "gt_area": g,
        "det_area": d,
        "union": union,
        "ct": ct,
        "ct_ratio": ct_ratio,
        "f_ct": f_ct,
        "tiou_recall": np.where(ok_r, inter * f_ct / safe_u, 0.0),
        "ot": ot,
        "ot_ratio": ot_ratio,
        "f_ot": f_ot,
        "tiou_precision": np.where(ok_p, inter * f_ot / safe_u, 0.0),
        "cut_tolerated": ((ct_ratio > 0) & (ct_ratio <= opts.tolerance)).astype(float),
        "outlier_tolerated": ((ot_ratio > 0) & (ot_ratio <= opts.tolerance)).astype(float),
    }
