"""MMOCR ``HmeanIOUMetric``: IoU matching at every detection-score threshold of a sweep.

Official implementation matched: open-mmlab/mmocr 1.x, ``main`` @966296f,
``mmocr/evaluation/metrics/hmean_iou_metric.py`` (last changed in 6342ff2) with
``mmocr/evaluation/functional/hmean.py`` and ``mmocr/utils/polygon_utils.py``; spec
``shared/spec/protocols/TOOLKITS.md`` sections 1-6. There is no paper; where the code departs
from what its authors clearly meant, the code is followed and an option gives the intent:

* scores are compared as float32 against the float64 thresholds of ``np.arange(0.3, 0.9,
  0.1)`` (7 values, 0.9 included by float error): a score written 0.7 or 0.9 is dropped at
  the 0.7 / 0.9 threshold (``decimal_scores=true`` compares the written decimals);
* the ignore test divides by ``area(pred) + 1e-5`` with the area of the polygon as given,
  runs once before the sweep, only for predictions kept at the lowest threshold;
* a data set without care GT has recall 1 (``compute_hmean`` on the sums);
* the reported value is the best hmean of the sweep, chosen on the evaluated set (strict
  ``>`` from -1: the lowest threshold wins ties); per image we show that threshold.

GT with fewer than 3 points make MMOCR assert; they are removed beforehand with a warning,
as MMOCR's Total-Text pipeline does. Matching: ``vanilla`` = first come in GT-major order
(the ICDAR15 greedy rule), ``max_matching`` = a maximum bipartite matching (scipy's in
MMOCR; the count is the same, the pairs where it is not unique may differ).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence

import numpy as np
import numpy.typing as npt

from metrics.core.evidence import Absorbed
from metrics.core.model import FloatArray, Problem, Sample, Severity
from metrics.core.results import InstanceResult, NearMiss, SampleResult, SweepTally, Verdict
from metrics.core.tally import add_up
from metrics.mmocr.evidence import SweepEvidence
from metrics.mmocr.geometry import IGNORE_EPS, SampleAreas, block_areas
from metrics.mmocr.params import HmeanIouParams
from metrics.mmocr.verdicts import compose
from metrics.shapes.matching import best_in_matrix, greedy_cells, maximum_matching
from metrics.shapes.mode import Mode

BoolArray = npt.NDArray[np.bool_]
NEEDS_SCORE = "MMOCR hmean-iou sweeps detection scores (write x1,y1,...,xn,yn,score)"


def scores_of(sample: Sample, params: HmeanIouParams) -> FloatArray:
    """Detection scores as compared: float32 values (official) or the written decimals."""
    conf = np.fromiter(
        (np.nan if d.confidence is None else d.confidence for d in sample.det),
        dtype=np.float64,
        count=len(sample.det),
    )
    return conf if params.decimal_scores else conf.astype(np.float32).astype(np.float64)


def levels_of(scores: FloatArray, params: HmeanIouParams) -> npt.NDArray[np.intp]:
    """Per det, at how many thresholds it is kept (``not (score < t)``; nested sets)."""
    thr = np.asarray(params.thresholds, dtype=np.float64)
    if params.decimal_scores:
        kept = scores[:, None] >= np.round(thr, 10)[None, :]
    else:
        kept = ~(scores[:, None] < thr[None, :])
    return np.asarray(np.cumprod(kept, axis=1).sum(axis=1), dtype=np.intp)


def ignored_dets(
    a: SampleAreas, gt_ignored: BoolArray, eligible: BoolArray, threshold: float
) -> tuple[Absorbed, ...]:
    """Dets with |D ∩ G| / (|D| + 1e-5) > threshold for one ignored GT (first in GT order)."""
    rows = np.flatnonzero(gt_ignored)
    if not len(rows) or not eligible.any():
        return ()
    ratio = a.inter[rows] / (a.det_raw_area[None, :] + IGNORE_EPS)
    hit = (ratio > threshold) & eligible[None, :]
    cols = np.flatnonzero(hit.any(axis=0))
    first = np.argmax(hit[:, cols], axis=0)
    return tuple(
        Absorbed(int(j), int(rows[f]), float(ratio[f, j])) for j, f in zip(cols, first, strict=True)
    )


def _sweep(
    iou: FloatArray,
    care_rows: npt.NDArray[np.intp],
    levels: npt.NDArray[np.intp],
    prm: HmeanIouParams,
) -> tuple[list[tuple[tuple[int, int], ...]], list[tuple[float, ...]], list[float]]:
    """Pairs (file indices), their IoU and kept-det counts at every threshold.

    When no GT and no det has two candidates, every candidate pair is matched by either
    strategy, so the pairs at each threshold are the candidates still kept.
    """
    cand = np.zeros(iou.shape, dtype=bool)
    cand[care_rows] = iou[care_rows] > prm.match_iou_thr
    cand[:, levels == 0] = False
    gi, dj = np.nonzero(cand)
    free = len(set(gi.tolist())) == len(gi) and len(set(dj.tolist())) == len(dj)
    match = maximum_matching if prm.strategy == "max_matching" else greedy_cells
    pairs: list[tuple[tuple[int, int], ...]] = []
    kept: list[float] = []
    for k in range(len(prm.thresholds)):
        cols = np.flatnonzero(levels > k)
        if kept and kept[-1] == len(cols):
            found = pairs[-1]  # same dets kept as at the previous threshold
        elif free:
            sel = levels[dj] > k
            found = tuple(zip(gi[sel].tolist(), dj[sel].tolist(), strict=True))
        else:
            sub = match(cand[np.ix_(care_rows, cols)])
            found = tuple((int(care_rows[i]), int(cols[j])) for i, j in sub)
        pairs.append(found)
        kept.append(float(len(cols)))
    ious = [tuple(iou[i, j].item() for i, j in p) for p in pairs]
    return pairs, ious, kept


def evaluate_sample(
    sample: Sample, a: SampleAreas, prm: HmeanIouParams, metric: str, lists: bool = True
) -> SampleResult:
    """One sample from its areas; ``lists`` False: no GT results and no match records
    (``complete=False``)."""
    thresholds = prm.thresholds
    scores = scores_of(sample, prm)
    counted = levels_of(scores, prm)
    levels = counted.copy()
    dc = np.fromiter((g.dont_care for g in sample.gt), dtype=bool, count=len(sample.gt))
    removed = ~a.gt_enough_points
    absorbed = ignored_dets(a, dc & ~removed, levels > 0, prm.ignore_precision_thr)
    levels[[x.det for x in absorbed]] = 0
    care_rows = np.flatnonzero(~dc & ~removed)
    pairs, ious, kept = _sweep(a.iou, care_rows, levels, prm)
    tally = SweepTally(
        float(len(care_rows)),
        kept[0] if kept else 0.0,
        thresholds,
        tuple(float(len(p)) for p in pairs),
        tuple(kept),
    )
    evidence = SweepEvidence(
        thresholds=thresholds,
        scores=tuple(scores.tolist()),
        levels=tuple(levels.tolist()),
        pairs=tuple(pairs),
        pair_iou=tuple(ious),
        below_min_threshold=tuple(np.flatnonzero(counted == 0).tolist()),
        ignored_overlap=absorbed,
        gt_removed=tuple(np.flatnonzero(removed).tolist()),
    )
    gt_base, det_base = _base(sample, a, dc, removed, care_rows, levels, absorbed, lists)
    warnings = tuple(_removed_warning(sample, i) for i in evidence.gt_removed)
    base = SampleResult(metric, sample.id, 0.0, 0.0, 0.0, tally, gt_base, det_base, complete=lists)
    return dataclasses.replace(compose(base, evidence, 0), warnings=warnings)


def _base(
    sample: Sample,
    a: SampleAreas,
    dc: BoolArray,
    removed: BoolArray,
    care_rows: npt.NDArray[np.intp],
    levels: npt.NDArray[np.intp],
    absorbed: tuple[Absorbed, ...],
    lists: bool,
) -> tuple[tuple[InstanceResult, ...], tuple[InstanceResult, ...]]:
    """Instances with what does not depend on the threshold: don't-care GT (ignored or
    removed), dets dropped by an ignored GT, best-IoU partners (near misses)."""
    counted = levels > 0
    care = np.zeros(len(sample.gt), dtype=bool)
    care[care_rows] = True
    g_idx, g_val = (x.tolist() for x in best_in_matrix(a.iou, counted, axis=1))
    d_idx, d_val = (x.tolist() for x in best_in_matrix(a.iou, care, axis=0))
    gt = []
    flags = zip(dc.tolist(), removed.tolist(), strict=True) if lists else ()
    for i, (is_dc, is_removed) in enumerate(flags):  # none in a summary-only run
        if is_dc or is_removed:
            values = {"removed_lt3pts": 1.0} if is_removed else {}
            gt.append(InstanceResult(i, Verdict.DONT_CARE, values=values))
        else:
            gt.append(InstanceResult(i, Verdict.MISSED, near_miss=_near(g_idx[i], g_val[i])))
    by_det = {x.det: x for x in absorbed}
    det = []
    for j in range(len(sample.det)):
        if j in by_det:
            x = by_det[j]
            det.append(
                InstanceResult(
                    j, Verdict.DONT_CARE, absorbed_by=x.gt, values={"ignore_precision": x.precision}
                )
            )
        else:
            det.append(
                InstanceResult(j, Verdict.FALSE_POSITIVE, near_miss=_near(d_idx[j], d_val[j]))
            )
    return tuple(gt), tuple(det)


def _near(idx: int, value: float) -> NearMiss | None:
    return NearMiss(idx, value, "iou") if value > 0 else None


def _removed_warning(sample: Sample, i: int) -> Problem:
    return Problem(
        Severity.WARNING,
        sample.gt_source or "GT",
        sample.gt[i].line,
        "GT polygon with fewer than 3 points removed before evaluation (MMOCR would assert; "
        "its Total-Text pipeline removes such GT)",
        sample.id,
    )


def evaluate_batch(
    samples: Sequence[Sample], params: HmeanIouParams, *, metric: str, mode: Mode | None = None
) -> list[SampleResult]:
    """Every sample of the block, geometry in one vectorized pass."""
    lists = mode is None or mode.instances
    areas = block_areas(samples, (params.match_iou_thr, params.ignore_precision_thr))
    return [
        evaluate_sample(s, a, params, metric, lists) for s, a in zip(samples, areas, strict=True)
    ]


def finalize(
    results: Mapping[str, SampleResult], params: HmeanIouParams
) -> dict[str, SampleResult]:
    """Every image shown at the globally best threshold (the summed tallies' best)."""
    del params
    items = list(results.values())
    total = add_up([r.tally for r in items])
    best = total.best_index if isinstance(total, SweepTally) else 0
    out = {}
    for sid, r in results.items():
        ev = r.evidence
        out[sid] = compose(r, ev, best) if isinstance(ev, SweepEvidence) and ev.shown != best else r
    return out


def validate(samples: Sequence[Sample], params: HmeanIouParams) -> list[Problem]:
    """Every det needs a score and 3 points; GT with < 3 points are removed (a warning).

    Without any confidence in the whole detection set the problem is one, for the data set,
    located at the first detection line; otherwise one per file that lacks some.
    """
    del params
    out: list[Problem] = []
    missing = [(s, [d for d in s.det if d.confidence is None]) for s in samples]
    missing = [(s, dets) for s, dets in missing if dets]
    n_det = sum(len(s.det) for s in samples)
    if missing and sum(len(d) for _, d in missing) == n_det:
        s, dets = missing[0]
        msg = f"no confidence on any of the {n_det} detection lines; {NEEDS_SCORE}"
        out.append(Problem(Severity.ERROR, s.det_source or "det", dets[0].line, msg))
    else:
        for s, dets in missing:
            msg = f"{len(dets)} of {len(s.det)} detection lines have no confidence; {NEEDS_SCORE}"
            out.append(Problem(Severity.ERROR, s.det_source or "det", dets[0].line, msg, s.id))
    for s in samples:
        msg = "detection polygon with fewer than 3 points (MMOCR asserts on it)"
        out.extend(
            Problem(Severity.ERROR, s.det_source or "det", d.line, msg, s.id)
            for d in s.det
            if len(d.points) < 3
        )
        out.extend(_removed_warning(s, i) for i, g in enumerate(s.gt) if len(g.points) < 3)
    return out


def global_extras(results: Iterable[SampleResult]) -> dict[str, float]:
    """Number of GT removed for having fewer than 3 points."""
    n = 0
    for r in results:
        if isinstance(r.evidence, SweepEvidence):
            n += len(r.evidence.gt_removed)
    return {"gt_removed_lt3pts": float(n)}
