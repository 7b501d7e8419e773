"""PaddleOCR's detection metric (``paddleocr_det_iou``): ``DetMetric`` /
``DetectionIoUEvaluator``, the H-mean PaddleOCR prints when training a detector.

Official implementation matched: PaddlePaddle/PaddleOCR ``ppocr/metrics/eval_det_iou.py``
(commit 4ffb5b6) and ``ppocr/metrics/det_metric.py`` (commit b8a65d4), spec
``TOOLKITS.md`` sections 1-3, 5-8. It is the ICDAR15 IoU protocol (the shared don't-care test
and greedy matcher of ``metrics.shapes.matching``) with these departures, all from the code:

* don't care = transcription ``###`` or ``*`` (the label encoder's ignore tags);
* GT coordinates go through float32, and each GT polygon is padded to the image's largest
  point count by repeating its last point (``DetLabelEncode.expand_points_num``);
  detections are taken as given;
* a GT or detection polygon that is not ``is_valid`` or not ``is_simple`` is skipped
  entirely: it neither counts nor matches, and a skipped ``###`` GT absorbs nothing;
* an image without any GT line is dropped by the label encoder: never evaluated, its
  detections count nowhere (``evaluate`` gives None for it, ``validate`` says so);
* IoU = area(∩) / area(∪) of shapely polygons (the union from GEOS for values at the
  threshold); detection scores are ignored;
* per image: no care GT gives recall 1 and precision 0 if any care detection else 1;
  globally: sums of matches over sums of care GT / care detections (0 when empty).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import shapely

from metrics.core.arrays import stacked
from metrics.core.evidence import Skipped
from metrics.core.model import FloatArray, Instance, Sample
from metrics.core.records import dataclass
from metrics.core.results import (
    InstanceResult,
    MatchKind,
    MatchRecord,
    NearMiss,
    SampleResult,
    Verdict,
    credit_tally,
    per_image_rule,
)
from metrics.paddleocr.bounds import NEAR, decisive, open_near, pair_bounds, top_per
from metrics.paddleocr.evidence import SkippedEvidence
from metrics.paddleocr.geometry import paddle_geometry, skip_reasons
from metrics.paddleocr.params import PaddleParams
from metrics.shapes import robust
from metrics.shapes.geometry import (
    FlatGeometry,
    Quads,
    pair_intersection_areas,
)
from metrics.shapes.matching import (
    BoolArray,
    IntArray,
    best_partner,
    dont_care_dets,
    greedy_pairs,
    pair_iou,
)
from metrics.shapes.mode import Mode

ID = "paddleocr_det_iou"
IGNORE_TAGS = ("###", "*")


def is_dont_care(g: Instance) -> bool:
    """The label encoder's ignore tag: transcription ``###`` or ``*``."""
    return g.dont_care or g.text in IGNORE_TAGS


def padded_gt(gt: Sequence[Instance]) -> list[FloatArray]:
    """GT rings as PaddleOCR builds them: float32, padded to the largest point count of the
    image by repeating the last point."""
    if not gt:
        return []
    lengths = [len(g.points) for g in gt]
    n = max(lengths)
    if min(lengths) == n:  # nothing to pad: one conversion for the image
        return list(stacked([g.points for g in gt], n).astype(np.float32).astype(np.float64))
    out = []
    for g in gt:
        r = g.points.astype(np.float32).astype(np.float64)
        if len(r) < n:
            r = np.concatenate([r, np.repeat(r[-1:], n - len(r), axis=0)])
        out.append(r)
    return out


@dataclass(frozen=True)
class _Block:
    """A block's geometry, validity and don't-care flags, IoUs and matches."""

    f: FlatGeometry
    g_reason: list[str]
    d_reason: list[str]
    g_ok: BoolArray
    d_ok: BoolArray
    g_dc: BoolArray
    d_dc: BoolArray
    absorbed: IntArray
    iou: FloatArray
    matches: IntArray  # indices into the pair arrays


@dataclass(frozen=True)
class _Areas:
    """Intersection areas computed on demand (NaN = not computed): numpy clipping for convex
    quads, GEOS otherwise, and GEOS with PaddleOCR's own union for ratios at a threshold."""

    f: FlatGeometry
    g_quads: Quads
    d_quads: Quads
    g_area: FloatArray
    d_area: FloatArray
    inter: FloatArray
    iou: FloatArray  # -1 where not computed

    def compute(self, k: IntArray, params: PaddleParams) -> None:
        if not len(k):
            return
        f = self.f
        pi, pj = f.pi[k], f.pj[k]
        inter = pair_intersection_areas(self.g_quads, self.d_quads, f.g_geoms, f.d_geoms, pi, pj)
        iou = pair_iou(inter, self.g_area[pi], self.d_area[pj])
        prec = inter / np.where(self.d_area[pj] > 0, self.d_area[pj], np.inf)
        near = (np.abs(iou - params.iou_constraint) <= NEAR) | (
            np.abs(prec - params.area_precision_constraint) <= NEAR
        )
        if near.any():
            d, g = f.d_geoms[pj[near]], f.g_geoms[pi[near]]
            inter[near] = shapely.area(robust.intersection(d, g))
            iou[near] = inter[near] / shapely.area(robust.union(d, g))
        self.inter[k], self.iou[k] = inter, iou


def _block(samples: Sequence[Sample], params: PaddleParams, every: bool = False) -> _Block:
    """The block's matching; ``every`` computes the IoU of every usable pair (the pair
    table), not only those that can decide a match or a near miss."""
    g_rings = [padded_gt(s.gt) for s in samples]
    d_rings = [[d.points for d in s.det] for s in samples]
    f, quads, plain = paddle_geometry(g_rings, d_rings)
    flat_g = [r for rs in g_rings for r in rs]
    flat_d = [r for rs in d_rings for r in rs]
    g_reason = skip_reasons(flat_g, f.g_geoms, f.g_invalid, params.check_simple, plain[0])
    d_reason = skip_reasons(flat_d, f.d_geoms, f.d_invalid, params.check_simple, plain[1])
    g_ok = np.array([not r for r in g_reason], dtype=bool)
    d_ok = np.array([not r for r in d_reason], dtype=bool)
    tags = np.array([is_dont_care(g) for s in samples for g in s.gt], dtype=bool)
    g_dc = tags & g_ok if len(tags) else np.zeros(0, dtype=bool)
    g_area = np.where(g_ok, shapely.area(f.g_geoms), 0.0) if len(g_ok) else np.zeros(0)
    d_area = np.where(d_ok, shapely.area(f.d_geoms), 0.0) if len(d_ok) else np.zeros(0)
    use = g_ok[f.pi] & d_ok[f.pj]
    n = len(f.pi)
    a = _Areas(f, *quads, g_area, d_area, np.full(n, np.nan), np.full(n, -1.0))
    bounds = pair_bounds(f, g_area, d_area)
    k = decisive(f, use, g_dc, params, bounds)
    a.compute(k, params)
    d_dc, absorbed = dont_care_dets(
        f.pi[k], f.pj[k], a.inter[k], d_area, g_dc, params.area_precision_constraint
    )
    d_dc &= d_ok
    rank = np.arange(len(d_ok), dtype=np.intp)
    m = greedy_pairs(f.pi, f.pj, a.iou, rank, g_ok & ~g_dc, d_ok & ~d_dc, params.iou_constraint)
    # near misses of unmatched care GT / care detections: each one's pair of highest bound
    # first, then the pairs that can still reach the best IoU
    care = (g_ok & ~g_dc, d_ok & ~d_dc)
    g_free, d_free = care[0].copy(), care[1].copy()
    g_free[f.pi[m]] = False
    d_free[f.pj[m]] = False
    free = (g_free, d_free)
    open_g, open_d = open_near(f, a.iou, ~np.isnan(a.inter), bounds[0], care, free)
    a.compute(
        np.union1d(top_per(f.pi, bounds[0], open_g), top_per(f.pj, bounds[0], open_d)), params
    )
    rest = np.logical_or(*open_near(f, a.iou, ~np.isnan(a.inter), bounds[0], care, free))
    a.compute(np.flatnonzero(use & (rest | (every & np.isnan(a.inter)))), params)
    return _Block(f, g_reason, d_reason, g_ok, d_ok, g_dc, d_dc, absorbed, a.iou, m)


@dataclass(frozen=True)
class _Side:
    """One side (GT or det) of a block as Python lists, for the per-sample results."""

    off: list[int]
    skipped: list[bool]
    dc: list[bool]
    absorbed: list[int] | None
    near_other: list[int]
    near_iou: list[float]
    reasons: list[str]
    miss: Verdict
    care_before: list[int]  # care instances before each flat index (len + 1 entries)


def _care_before(ok: BoolArray, dc: BoolArray) -> list[int]:
    out = np.zeros(len(ok) + 1, dtype=np.intp)
    np.cumsum(ok & ~dc, out=out[1:])
    return out.tolist()  # type: ignore[no-any-return]


def evaluate_batch(
    samples: Sequence[Sample], params: PaddleParams, mode: Mode | None = None
) -> list[SampleResult | None]:
    """Evaluate a block of samples; None for an image without GT lines (dropped). With
    ``mode.instances`` False the results have no GT list and no match records
    (``complete=False``)."""
    lists = mode is None or mode.instances
    kept = [s for s in samples if s.gt]
    if not kept:
        return [None] * len(samples)
    b = _block(kept, params)
    f = b.f
    g_care = b.g_ok & ~b.g_dc
    d_care = b.d_ok & ~b.d_dc
    near_g = best_partner(f.pi, f.pj, np.where(d_care[f.pj], b.iou, -1.0), len(b.g_ok))
    near_d = best_partner(f.pj, f.pi, np.where(g_care[f.pi], b.iou, -1.0), len(b.d_ok))
    gts = _Side(
        f.g_off.tolist(),
        (~b.g_ok).tolist(),
        b.g_dc.tolist(),
        None,
        near_g[0].tolist(),
        near_g[1].tolist(),
        b.g_reason,
        Verdict.MISSED,
        _care_before(b.g_ok, b.g_dc),
    )
    dets = _Side(
        f.d_off.tolist(),
        (~b.d_ok).tolist(),
        b.d_dc.tolist(),
        b.absorbed.tolist(),
        near_d[0].tolist(),
        near_d[1].tolist(),
        b.d_reason,
        Verdict.FALSE_POSITIVE,
        _care_before(b.d_ok, b.d_dc),
    )
    pairs = _pairs_by_sample(b, len(kept))
    out = iter([_sample_result(gts, dets, k, s, pairs[k], lists) for k, s in enumerate(kept)])
    return [next(out) if s.gt else None for s in samples]


def iou_table(sample: Sample, params: PaddleParams) -> FloatArray:
    """The IoU of every GT x detection pair of one image as the matching computes it (0 for
    a pair that does not overlap or has a skipped polygon)."""
    b = _block([sample], params, every=True)
    out = np.zeros((len(sample.gt), len(sample.det)))
    out[b.f.pi, b.f.pj] = np.maximum(b.iou, 0.0)
    return out


def evaluate_sample(sample: Sample, params: PaddleParams) -> SampleResult | None:
    return evaluate_batch([sample], params)[0]


def _pairs_by_sample(b: _Block, n: int) -> list[list[tuple[int, int, float]]]:
    """The matches of each sample as (GT, det, IoU) with sample-local indices, GT order."""
    f = b.f
    owner = f.g_owner[f.pi[b.matches]].tolist()
    gi = (f.pi[b.matches] - f.g_off[f.g_owner[f.pi[b.matches]]]).tolist()
    dj = (f.pj[b.matches] - f.d_off[f.d_owner[f.pj[b.matches]]]).tolist()
    out: list[list[tuple[int, int, float]]] = [[] for _ in range(n)]
    for s, i, j, v in zip(owner, gi, dj, b.iou[b.matches].tolist(), strict=True):
        out[s].append((i, j, v))
    return out


def _instances(
    side: _Side, s: int, other_off: int, partner: dict[int, int]
) -> tuple[InstanceResult, ...]:
    a, z = side.off[s], side.off[s + 1]
    out = []
    for k in range(z - a):
        g = a + k
        if side.skipped[g]:
            out.append(InstanceResult(k, Verdict.DONT_CARE))
        elif side.dc[g]:
            by = None if side.absorbed is None or side.absorbed[g] < 0 else side.absorbed[g]
            out.append(
                InstanceResult(
                    k, Verdict.DONT_CARE, absorbed_by=None if by is None else by - other_off
                )
            )
        elif k in partner:
            out.append(InstanceResult(k, Verdict.MATCHED, 1.0, partners=(partner[k],)))
        else:
            value = side.near_iou[g]
            nm = NearMiss(side.near_other[g] - other_off, value, "iou") if value > 0 else None
            out.append(InstanceResult(k, side.miss, near_miss=nm))
    return tuple(out)


def _skipped(side: _Side, s: int) -> tuple[Skipped, ...]:
    lo, hi = side.off[s], side.off[s + 1]
    return tuple(Skipped(k - lo, side.reasons[k]) for k in range(lo, hi) if side.reasons[k])


def _care(side: _Side, s: int) -> int:
    return side.care_before[side.off[s + 1]] - side.care_before[side.off[s]]


def _sample_result(
    gts: _Side,
    dets: _Side,
    s: int,
    sample: Sample,
    pairs: list[tuple[int, int, float]],
    lists: bool = True,
) -> SampleResult:
    n_gt, n_det, n = _care(gts, s), _care(dets, s), len(pairs)
    recall, precision, h = per_image_rule(n_gt, n_det, n, n)
    return SampleResult(
        metric=ID,
        sample_id=sample.id,
        recall=recall,
        precision=precision,
        hmean=h,
        tally=credit_tally(n_gt, n_det, n, n, n_matched=n),
        gt=_instances(gts, s, dets.off[s], {i: j for i, j, _ in pairs}) if lists else (),
        det=_instances(dets, s, gts.off[s], {j: i for i, j, _ in pairs}),
        matches=tuple(
            MatchRecord(kind=MatchKind.ONE_TO_ONE, gt=(i,), det=(j,), values={"iou": v}, label="OO")
            for i, j, v in pairs
            if lists
        ),
        evidence=SkippedEvidence(_skipped(gts, s), _skipped(dets, s)),
        extra={"gt_care": n_gt, "det_care": n_det, "matched": n},
        complete=lists,
    )
