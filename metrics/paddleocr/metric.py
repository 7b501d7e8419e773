"""PaddleOCR's detection metric (``paddleocr_det_iou``): ``DetMetric`` /
``DetectionIoUEvaluator``, the H-mean PaddleOCR prints when training a detector.

Official implementation matched: PaddlePaddle/PaddleOCR ``ppocr/metrics/eval_det_iou.py``
(commit 4ffb5b6) and ``ppocr/metrics/det_metric.py`` (commit b8a65d4), spec
``TOOLKITS.md`` sections 1-3, 5-8. It is the ICDAR15 IoU protocol (the shared don't-care test
and greedy matcher of ``metrics.matching``) with these departures, all from the code:

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
from dataclasses import dataclass

import numpy as np
import shapely

from metrics.evidence import Skipped, SkippedEvidence
from metrics.geometry import FlatGeometry, flat_geometry
from metrics.matching import (
    BoolArray,
    IntArray,
    best_partner,
    dont_care_dets,
    greedy_pairs,
    pair_iou,
)
from metrics.model import FloatArray, Instance, Sample
from metrics.paddleocr.params import PaddleParams
from metrics.results import (
    InstanceResult,
    MatchKind,
    MatchRecord,
    NearMiss,
    SampleResult,
    Verdict,
    credit_tally,
    per_image_rule,
)

ID = "paddleocr_det_iou"
IGNORE_TAGS = ("###", "*")
_NEAR = 1e-9  # ratios this close to a threshold are recomputed with GEOS as PaddleOCR does


def is_dont_care(g: Instance) -> bool:
    """The label encoder's ignore tag: transcription ``###`` or ``*``."""
    return g.dont_care or g.text in IGNORE_TAGS


def padded_gt(gt: Sequence[Instance]) -> list[FloatArray]:
    """GT rings as PaddleOCR builds them: float32, padded to the largest point count of the
    image by repeating the last point."""
    if not gt:
        return []
    n = max(len(g.points) for g in gt)
    out = []
    for g in gt:
        r = g.points.astype(np.float32).astype(np.float64)
        if len(r) < n:
            r = np.concatenate([r, np.repeat(r[-1:], n - len(r), axis=0)])
        out.append(r)
    return out


def skip_reasons(
    rings: Sequence[FloatArray], geoms: np.ndarray, invalid: BoolArray, check_simple: bool
) -> list[str]:
    """Why each polygon is skipped ("" when it is used): fewer than 3 points, not valid,
    not simple."""
    simple = shapely.is_simple(geoms) if len(geoms) else np.zeros(0, dtype=bool)
    out = []
    for k, r in enumerate(rings):
        if len(r) < 3:
            out.append(f"fewer than 3 points ({len(r)})")
        elif invalid[k]:
            out.append(f"not a valid polygon: {shapely.is_valid_reason(shapely.Polygon(r))}")
        elif check_simple and not simple[k]:
            out.append("not a simple polygon")
        else:
            out.append("")
    return out


@dataclass(frozen=True)
class _Block:
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


def _exact(f: FlatGeometry, k: IntArray) -> tuple[FloatArray, FloatArray]:
    """GEOS intersection and union areas of the pairs ``k`` (PaddleOCR's own formulas)."""
    d, g = f.d_geoms[f.pj[k]], f.g_geoms[f.pi[k]]
    return shapely.area(shapely.intersection(d, g)), shapely.area(shapely.union(d, g))


def _block(samples: Sequence[Sample], params: PaddleParams) -> _Block:
    g_rings = [padded_gt(s.gt) for s in samples]
    d_rings = [[d.points for d in s.det] for s in samples]
    f = flat_geometry(g_rings, d_rings, "exact")
    flat_g = [r for rs in g_rings for r in rs]
    flat_d = [r for rs in d_rings for r in rs]
    g_reason = skip_reasons(flat_g, f.g_geoms, f.g_invalid, params.check_simple)
    d_reason = skip_reasons(flat_d, f.d_geoms, f.d_invalid, params.check_simple)
    g_ok = np.array([not r for r in g_reason], dtype=bool)
    d_ok = np.array([not r for r in d_reason], dtype=bool)
    tags = np.array([is_dont_care(g) for s in samples for g in s.gt], dtype=bool)
    g_dc = tags & g_ok if len(tags) else np.zeros(0, dtype=bool)
    g_area = np.where(g_ok, shapely.area(f.g_geoms), 0.0) if len(g_ok) else np.zeros(0)
    d_area = np.where(d_ok, shapely.area(f.d_geoms), 0.0) if len(d_ok) else np.zeros(0)
    use = g_ok[f.pi] & d_ok[f.pj]
    inter = np.where(use, f.inter, 0.0)
    iou = pair_iou(inter, g_area[f.pi], d_area[f.pj])
    with np.errstate(divide="ignore", invalid="ignore"):
        prec = np.where(d_area[f.pj] > 0, inter / np.where(d_area[f.pj] > 0, d_area[f.pj], 1), 0)
    near = np.flatnonzero(
        use
        & (
            (np.abs(iou - params.iou_constraint) <= _NEAR)
            | (g_dc[f.pi] & (np.abs(prec - params.area_precision_constraint) <= _NEAR))
        )
    )
    if len(near):
        exact_inter, exact_union = _exact(f, near)
        inter[near] = exact_inter
        iou[near] = exact_inter / exact_union
    d_dc, absorbed = dont_care_dets(
        f.pi, f.pj, inter, d_area, g_dc, params.area_precision_constraint
    )
    d_dc &= d_ok
    rank = np.arange(len(d_ok), dtype=np.intp)
    m = greedy_pairs(f.pi, f.pj, iou, rank, g_ok & ~g_dc, d_ok & ~d_dc, params.iou_constraint)
    return _Block(f, g_reason, d_reason, g_ok, d_ok, g_dc, d_dc, absorbed, iou, m)


def evaluate_batch(samples: Sequence[Sample], params: PaddleParams) -> list[SampleResult | None]:
    """Evaluate a block of samples; None for an image without GT lines (dropped)."""
    kept = [s for s in samples if s.gt]
    if not kept:
        return [None] * len(samples)
    b = _block(kept, params)
    f = b.f
    g_care = b.g_ok & ~b.g_dc
    d_care = b.d_ok & ~b.d_dc
    near_g = best_partner(f.pi, f.pj, np.where(d_care[f.pj], b.iou, -1.0), len(b.g_ok))
    near_d = best_partner(f.pj, f.pi, np.where(g_care[f.pi], b.iou, -1.0), len(b.d_ok))
    out = iter([_sample_result(b, k, s, near_g, near_d) for k, s in enumerate(kept)])
    return [next(out) if s.gt else None for s in samples]


def evaluate_sample(sample: Sample, params: PaddleParams) -> SampleResult | None:
    return evaluate_batch([sample], params)[0]


def _instances(
    span: tuple[int, int],
    other_off: int,
    partner: dict[int, int],
    skipped: BoolArray,
    dc: BoolArray,
    absorbed: IntArray | None,
    near: tuple[IntArray, FloatArray],
    miss: Verdict,
) -> tuple[InstanceResult, ...]:
    a, b = span
    out = []
    for k in range(b - a):
        g = a + k
        if skipped[g]:
            out.append(InstanceResult(k, Verdict.DONT_CARE))
        elif dc[g]:
            by = None if absorbed is None or absorbed[g] < 0 else int(absorbed[g]) - other_off
            out.append(InstanceResult(k, Verdict.DONT_CARE, absorbed_by=by))
        elif k in partner:
            out.append(InstanceResult(k, Verdict.MATCHED, 1.0, partners=(partner[k],)))
        else:
            nm = None
            if near[1][g] > 0:
                nm = NearMiss(int(near[0][g]) - other_off, float(near[1][g]), "iou")
            out.append(InstanceResult(k, miss, near_miss=nm))
    return tuple(out)


def _skipped(reasons: list[str], lo: int, hi: int) -> tuple[Skipped, ...]:
    return tuple(Skipped(k - lo, reasons[k]) for k in range(lo, hi) if reasons[k])


def _sample_result(
    b: _Block,
    s: int,
    sample: Sample,
    near_g: tuple[IntArray, FloatArray],
    near_d: tuple[IntArray, FloatArray],
) -> SampleResult:
    f = b.f
    g0, g1, d0, d1 = (int(v) for v in (f.g_off[s], f.g_off[s + 1], f.d_off[s], f.d_off[s + 1]))
    lo, hi = np.searchsorted(f.pi[b.matches], [g0, g1])
    ms = b.matches[lo:hi].tolist()
    pairs = [(int(f.pi[k]) - g0, int(f.pj[k]) - d0, float(b.iou[k])) for k in ms]
    n_gt = int(np.count_nonzero(b.g_ok[g0:g1] & ~b.g_dc[g0:g1]))
    n_det = int(np.count_nonzero(b.d_ok[d0:d1] & ~b.d_dc[d0:d1]))
    recall, precision, h = per_image_rule(n_gt, n_det, len(pairs), len(pairs))
    g_partner = {i: j for i, j, _ in pairs}
    d_partner = {j: i for i, j, _ in pairs}
    return SampleResult(
        metric=ID,
        sample_id=sample.id,
        recall=recall,
        precision=precision,
        hmean=h,
        tally=credit_tally(n_gt, n_det, len(pairs), len(pairs), n_matched=len(pairs)),
        gt=_instances((g0, g1), d0, g_partner, ~b.g_ok, b.g_dc, None, near_g, Verdict.MISSED),
        det=_instances(
            (d0, d1), g0, d_partner, ~b.d_ok, b.d_dc, b.absorbed, near_d, Verdict.FALSE_POSITIVE
        ),
        matches=tuple(
            MatchRecord(kind=MatchKind.ONE_TO_ONE, gt=(i,), det=(j,), values={"iou": v}, label="OO")
            for i, j, v in pairs
        ),
        evidence=SkippedEvidence(_skipped(b.g_reason, g0, g1), _skipped(b.d_reason, d0, d1)),
        extra={"gt_care": n_gt, "det_care": n_det, "matched": len(pairs)},
    )
