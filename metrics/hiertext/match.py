"""Don't-care filter, mutual-best matching and per-image results (HIERTEXT.md sections 4-6),
as ``HierTextEvaluator.evaluate_one_image`` computes them, for any level.

1. Illegible GT are set aside; a detection is removed when, for one illegible GT,
   ``inter / (area(det) + 1e-5) >= filter_invalid_thr`` (float32 for masks).
2. IoU of the kept GT x kept detections: polygons ``inter / (a + b - inter + 1e-5)``
   (float64), masks ``inter / max(a + b - inter, 1e-7)`` (float32).
3. GT row i in order: j = argmax of row i, matched when ``IoU >= iou_threshold`` and
   i = argmax of column j (first index on ties). Not greedy, not Hungarian.
4. Counts per image in a ``PqTally``; the float32 IoUs are summed in float64, as the
   official accumulators are under numpy 1.x.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from metrics.core.records import dataclass
from metrics.core.results import (
    InstanceResult,
    MatchKind,
    MatchRecord,
    NearMiss,
    SampleResult,
    Verdict,
)
from metrics.core.sparse import SparsePairs
from metrics.hiertext.evidence import HierTextEvidence
from metrics.hiertext.params import HierTextParams
from metrics.hiertext.tally import PqTally

AnyArray = npt.NDArray[np.floating]
IntArray = npt.NDArray[np.intp]
BoolArray = npt.NDArray[np.bool_]
EPSILON = 1e-5
MASK_EPSILON = 1e-7


@dataclass(frozen=True, slots=True, eq=False)
class Overlaps:
    """GT x det intersections and areas of one level of one sample.

    ``inter`` is computed GT first (the IoU matrix), ``dc_inter`` detection first (the
    don't-care test, ``intersection_and_area(pred, illegible GT)``); for masks they are the
    same array. Float64 for polygons, float32 for masks.
    """

    inter: AnyArray
    dc_inter: AnyArray
    gt_area: AnyArray
    det_area: AnyArray
    masks: bool


def dont_care_dets(
    ov: Overlaps, gt_dc: BoolArray, threshold: float
) -> tuple[BoolArray, IntArray, AnyArray]:
    """Removed detections, the illegible GT that removed each (-1) and the max precision."""
    m = len(ov.det_area)
    rows = np.flatnonzero(gt_dc)
    if len(rows) == 0 or m == 0:
        return np.zeros(m, dtype=bool), np.full(m, -1, dtype=np.intp), np.zeros(m)
    prec = ov.dc_inter[rows] / (ov.det_area[None, :] + EPSILON)  # dtype kept (float32 masks)
    best = prec.max(axis=0)
    removed = np.asarray(best >= threshold, dtype=bool)
    by = np.where(removed, rows[np.argmax(prec, axis=0)], -1).astype(np.intp)
    return removed, by, best


def iou_matrix(ov: Overlaps, gi: IntArray, dj: IntArray) -> AnyArray:
    """IoU of the GT ``gi`` x detections ``dj`` with the official formula of the level."""
    inter = ov.inter[np.ix_(gi, dj)]
    union = ov.gt_area[gi][:, None] + ov.det_area[dj][None, :] - inter
    if ov.masks:
        return np.asarray(inter / np.maximum(union, np.float32(MASK_EPSILON)), dtype=np.float32)
    return np.asarray(inter / (union + EPSILON), dtype=np.float64)


def mutual_best(iou: AnyArray, threshold: float) -> list[tuple[int, int]]:
    """Pairs (row, column) that are each other's first argmax with ``IoU >= threshold``."""
    if iou.size == 0:
        return []
    best_j = np.argmax(iou, axis=1)
    best_i = np.argmax(iou, axis=0)
    rows = np.arange(iou.shape[0])
    ok = (iou[rows, best_j] >= threshold) & (best_i[best_j] == rows)
    return [(int(i), int(best_j[i])) for i in np.flatnonzero(ok)]


def _near(iou: AnyArray, axis: int, k: int, ids: IntArray) -> NearMiss | None:
    row = iou[k] if axis == 1 else iou[:, k]
    if row.size == 0 or row.max() <= 0:
        return None
    best = int(np.argmax(row))
    return NearMiss(int(ids[best]), float(row[best]), "iou")


def _instances(
    n: int,
    dc: BoolArray,
    kept: IntArray,
    partner: dict[int, tuple[int, float]],
    iou: AnyArray,
    other: IntArray,
    axis: int,
    miss: Verdict,
) -> tuple[InstanceResult, ...]:
    pos = {int(k): p for p, k in enumerate(kept)}
    out = []
    for k in range(n):
        if dc[k]:
            out.append(InstanceResult(k, Verdict.DONT_CARE))
        elif k in partner:
            j, value = partner[k]
            out.append(InstanceResult(k, Verdict.MATCHED, 1.0, (j,), values={"iou": value}))
        else:
            near = _near(iou, axis, pos[k], other) if k in pos else None
            out.append(InstanceResult(k, miss, near_miss=near))
    return tuple(out)


def sample_result(
    metric: str, sample_id: str, ov: Overlaps, gt_dc: BoolArray, params: HierTextParams
) -> SampleResult:
    """Everything one level says about one sample."""
    removed, by, best = dont_care_dets(ov, gt_dc, params.filter_invalid_thr)
    gi = np.flatnonzero(~gt_dc)
    dj = np.flatnonzero(~removed)
    iou = iou_matrix(ov, gi, dj)
    pairs = [(int(gi[a]), int(dj[b]), iou[a, b]) for a, b in mutual_best(iou, params.iou_threshold)]
    total = 0.0
    for *_, value in pairs:
        total = total + np.float64(value)  # float32 IoUs summed in float64 (numpy 1.x)
    tally = PqTally(float(len(gi)), float(len(dj)), float(len(pairs)), float(total))
    recall, precision, hmean = tally.scores()
    gt = _instances(
        len(gt_dc),
        gt_dc,
        gi,
        {i: (j, float(v)) for i, j, v in pairs},
        iou,
        dj,
        1,
        Verdict.MISSED,
    )
    det = _instances(
        len(removed),
        removed,
        dj,
        {j: (i, float(v)) for i, j, v in pairs},
        iou,
        gi,
        0,
        Verdict.FALSE_POSITIVE,
    )
    det = tuple(
        InstanceResult(
            d.index,
            d.verdict,
            absorbed_by=int(by[d.index]),
            values={"precision": float(best[d.index])},
        )
        if removed[d.index]
        else d
        for d in det
    )
    matches = tuple(
        MatchRecord(MatchKind.ONE_TO_ONE, (i,), (j,), {"iou": float(v)}, label="TP")
        for i, j, v in pairs
    )
    extra = {
        "tp": tally.tp,
        "num_gt": tally.n_gt_care,
        "num_pred": tally.n_det_care,
        "tightness_sum": tally.tightness_sum,
        "tightness": tally.tightness,
        "pq": tally.pq,
    }
    return SampleResult(
        metric,
        sample_id,
        recall,
        precision,
        hmean,
        tally,
        gt,
        det,
        matches,
        extra=extra,
        evidence=_evidence(ov, gi, dj, iou, params.iou_threshold),
    )


def _evidence(
    ov: Overlaps, gi: IntArray, dj: IntArray, iou: AnyArray, threshold: float
) -> HierTextEvidence:
    """The overlapping pairs of the IoU table the matching read, in file indices."""
    a, b = np.nonzero(iou > 0)
    shape = (len(ov.gt_area), len(ov.det_area))
    values = iou[a, b].astype(np.float64)
    return HierTextEvidence(SparsePairs.of(shape, gi[a], dj[b], values), threshold, ov.masks)
