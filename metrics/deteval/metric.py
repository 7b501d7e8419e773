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

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from metrics.core.evidence import Absorbed, Limit
from metrics.core.floats import REFUSED
from metrics.core.model import BoxType, FloatArray, Problem, Sample, Severity
from metrics.core.results import (
    InstanceResult,
    NearMiss,
    SampleResult,
    Verdict,
    credit_tally,
    hmean,
    per_image_rule,
)
from metrics.core.sparse import SparsePairs
from metrics.deteval.evidence import DetEvalEvidence
from metrics.deteval.geometry import Geometry, geometries
from metrics.deteval.match import Matcher
from metrics.deteval.params import DetEvalParams
from metrics.shapes.mode import Mode

ID = "deteval"

BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.intp]


def validate(sample: Sample, params: DetEvalParams) -> list[Problem]:
    """DetEval takes axis-aligned boxes (LTRB) only, for GT and detections; integers only
    with ``allow_float=false`` (the official rule, ``--floats refuse``)."""
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
            if not inst.integer and not params.allow_float:
                out.append(Problem(Severity.ERROR, source or side, inst.line, REFUSED, sample.id))
    return out


def evaluate_batch(
    samples: Sequence[Sample], params: DetEvalParams, mode: Mode | None = None
) -> list[SampleResult]:
    """DetEval of each image; candidate pairs from one STRtree over the batch. Only pairs that
    overlap are kept (linear in words per image) unless a threshold is <= 0, under which
    pairs that do not overlap can qualify and every pair is kept."""
    mode = mode or Mode()
    every = params.area_recall <= 0 or params.area_precision <= 0
    geos = geometries(samples, params.area_precision, every_pair=every)
    return [_evaluate(s, g, params, mode) for s, g in zip(samples, geos, strict=True)]


def evaluate_sample(sample: Sample, params: DetEvalParams) -> SampleResult:
    """DetEval of one image (spec 2.3), with the per-image rules of spec 0.9 / 2.5 Q6."""
    return evaluate_batch([sample], params)[0]


def _evaluate(sample: Sample, geo: Geometry, params: DetEvalParams, mode: Mode) -> SampleResult:
    m = Matcher(geo, params, records=mode.results)
    if len(sample.det):
        m.run()
    n_gt = int(np.count_nonzero(~geo.gt_dc))
    n_det = int(np.count_nonzero(~geo.det_dc))
    recall, precision, h = per_image_scores(
        sample, params, n_gt, n_det, m.recall_sum, m.precision_sum
    )
    extra = {
        "num_gt_care": n_gt,
        "num_det_care": n_det,
        "num_gt": len(sample.gt),
        "num_det": len(sample.det),
    }
    tally = credit_tally(n_gt, n_det, m.recall_sum, m.precision_sum)
    if not mode.results:  # only the tallies are read (metrics.shapes.mode.Detail.TALLIES)
        return SampleResult(
            ID, sample.id, recall, precision, h, tally, (), (), extra=extra, complete=False
        )
    lists = mode.instances  # False: no GT list and no match records
    return SampleResult(
        metric=ID,
        sample_id=sample.id,
        recall=recall,
        precision=precision,
        hmean=h,
        tally=tally,
        gt=gt_results(geo, m) if lists else (),
        det=det_results(geo, m),
        matches=tuple(m.matches) if lists else (),
        evidence=DetEvalEvidence(
            discarded=tuple(m.discarded),
            match_types=tuple(m.match_types),
            dc_dets=_dc_dets(geo),
            area_recall=SparsePairs.of(_shape(geo), geo.pi, geo.pj, geo.recall),
            area_precision=SparsePairs.of(_shape(geo), geo.pi, geo.pj, geo.precision),
            limits=(Limit(">=", params.area_recall), Limit(">=", params.area_precision)),
        ),
        extra=extra,
        complete=lists,
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


def _shape(geo: Geometry) -> tuple[int, int]:
    return len(geo.gt_dc), len(geo.det_dc)


def _best(partners: IntArray, values: FloatArray, allowed: BoolArray) -> tuple[int, float]:
    """The partner with the largest value among the allowed (the first on ties), and the
    value; (0, 0.0) without any. ``partners`` are ascending, as the official scan."""
    masked = np.where(allowed, values, -1.0)
    if masked.size == 0:
        return 0, 0.0
    k = int(np.argmax(masked))
    return int(partners[k]), float(masked[k])


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
            pairs = slice(geo.row[i], geo.row[i + 1])
            k, v = _best(geo.pj[pairs], geo.recall[pairs], ~geo.det_dc[geo.pj[pairs]])
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
            pairs = geo.by_col[geo.col[j] : geo.col[j + 1]]
            k, v = _best(geo.pi[pairs], geo.precision[pairs], ~geo.gt_dc[geo.pi[pairs]])
            near = NearMiss(k, v, "area_precision") if v > 0 else None
            out.append(InstanceResult(j, Verdict.FALSE_POSITIVE, near_miss=near, values=overlaps))
    return tuple(out)


def _dc_dets(geo: Geometry) -> tuple[Absorbed, ...]:
    return tuple(
        Absorbed(int(j), int(geo.absorbed[j]), float(geo.dc_precision[j]))
        for j in np.flatnonzero(geo.det_dc)
    )
