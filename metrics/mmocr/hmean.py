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

import itertools
from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from metrics.core.model import Problem, Sample, Severity
from metrics.core.results import SampleResult, SweepTally
from metrics.core.tally import Tally, add_up
from metrics.mmocr.block import Block, evaluate_block
from metrics.mmocr.evidence import SweepEvidence
from metrics.mmocr.params import HmeanIouParams
from metrics.mmocr.samples import FlatLists, Sweep, flat_lists, sample_result
from metrics.mmocr.verdicts import compose
from metrics.shapes.matching import greedy_cells, maximum_matching
from metrics.shapes.mode import Mode

NEEDS_SCORE = "MMOCR hmean-iou sweeps detection scores (write x1,y1,...,xn,yn,score)"
Pairs = tuple[tuple[int, int], ...]


def _matched(
    cand: list[tuple[int, int, float]],
    levels: list[int],
    care_rows: list[int],
    n_gt: int,
    prm: HmeanIouParams,
) -> tuple[list[Pairs], list[tuple[float, ...]]]:
    """Pairs (sample indices) and their IoU at every threshold, by the matching strategy,
    for a sample where some GT or det has two candidates (``cand``: (GT, det, IoU))."""
    lv = np.asarray(levels, dtype=np.intp)
    grid = np.zeros((n_gt, len(levels)), dtype=bool)
    grid[[c[0] for c in cand], [c[1] for c in cand]] = True
    rows = np.asarray(care_rows, dtype=np.intp)
    iou_of = {(i, j): v for i, j, v in cand}
    match = maximum_matching if prm.strategy == "max_matching" else greedy_cells
    pairs: list[Pairs] = []
    n_prev = -1
    for k in range(len(prm.thresholds)):
        cols = np.flatnonzero(lv > k)
        if pairs and n_prev == len(cols):
            found = pairs[-1]  # same dets kept as at the previous threshold
        else:
            sub = match(grid[np.ix_(rows, cols)])
            found = tuple((int(rows[i]), int(cols[j])) for i, j in sub)
        pairs.append(found)
        n_prev = len(cols)
    return pairs, [tuple(iou_of[p] for p in found) for found in pairs]


def _free(
    cand: list[tuple[int, int, float]], levels: list[int], n_thr: int
) -> tuple[list[Pairs], list[tuple[float, ...]]]:
    """When no GT and no det has two candidates, every candidate pair is matched by either
    strategy, so the pairs at each threshold are the candidates still kept."""
    lv = [levels[j] for _, j, _ in cand]
    every: Pairs = tuple((i, j) for i, j, _ in cand)
    values = tuple(v for _, _, v in cand)
    low = min(lv)
    pairs: list[Pairs] = []
    ious: list[tuple[float, ...]] = []
    for k in range(n_thr):
        if k < low:
            pairs.append(every)
            ious.append(values)
        else:
            keep = [x > k for x in lv]
            pairs.append(tuple(itertools.compress(every, keep)))
            ious.append(tuple(itertools.compress(values, keep)))
    return pairs, ious


def _sweeps(b: Block, prm: HmeanIouParams) -> list[Sweep]:
    """Every sample's pairs, their IoU and kept-det counts at every threshold."""
    n, n_thr = len(b.g_off) - 1, len(prm.thresholds)
    ci, cj = b.pi[b.cand], b.pj[b.cand]
    owner = np.searchsorted(b.g_off, ci, side="right") - 1
    edges = np.searchsorted(owner, np.arange(n + 1)).tolist()
    tied = np.zeros(n, dtype=bool)
    for side, off in ((ci, b.g_off), (cj, b.d_off)):
        uniq, counts = np.unique(side, return_counts=True)
        tied[np.searchsorted(off, uniq[counts > 1], side="right") - 1] = True
    kept_at = b.levels[:, None] > np.arange(n_thr)[None, :]
    running = np.zeros((len(b.levels) + 1, n_thr))
    np.cumsum(kept_at, axis=0, out=running[1:])
    kept = (running[b.d_off[1:]] - running[b.d_off[:-1]]).tolist()
    rows, cols = (ci - b.g_off[owner]).tolist(), (cj - b.d_off[owner]).tolist()
    local = list(zip(rows, cols, b.iou[b.cand].tolist(), strict=True))
    levels, care = b.levels.tolist(), (~b.dc & ~b.removed).tolist()
    g_off, d_off, tied_l = b.g_off.tolist(), b.d_off.tolist(), tied.tolist()
    empty: list[Pairs] = [()] * n_thr
    none: list[tuple[float, ...]] = [()] * n_thr
    out = []
    for s in range(n):
        cand = local[edges[s] : edges[s + 1]]
        lv = levels[d_off[s] : d_off[s + 1]]
        if not cand:
            pairs, ious = empty, none
        elif tied_l[s]:
            care_rows = [i - g_off[s] for i in range(g_off[s], g_off[s + 1]) if care[i]]
            pairs, ious = _matched(cand, lv, care_rows, g_off[s + 1] - g_off[s], prm)
        else:
            pairs, ious = _free(cand, lv, n_thr)
        out.append(Sweep(tuple(pairs), tuple(ious), tuple(kept[s])))
    return out


def evaluate_batch(
    samples: Sequence[Sample], params: HmeanIouParams, *, metric: str, mode: Mode | None = None
) -> list[SampleResult]:
    """Every sample of the block, its decisions in one vectorized pass (``block``); with
    ``mode.instances`` False no GT results and no match records (``complete=False``).
    The decisions do not depend on the strategy: both MMOCR metrics of a run share them
    (``mode.cache``)."""
    mode = mode or Mode()
    lists = mode.instances
    p = params
    key = ("mmocr.block", p.match_iou_thr, p.ignore_precision_thr, p.thresholds, p.decimal_scores)
    b, f = mode.cache.memo(
        (*key, lists, *map(id, samples)),
        samples[0] if samples else None,
        lambda: _decided(samples, params, lists),
    )
    sweeps = _sweeps(b, params)
    warn = _removed_warning
    return [
        sample_result(metric, sample, f, s, sweeps[s], params.thresholds, lists, warn)
        for s, sample in enumerate(samples)
    ]


def _decided(
    samples: Sequence[Sample], params: HmeanIouParams, lists: bool
) -> tuple[Block, FlatLists]:
    b = evaluate_block(samples, params, lists)
    return b, flat_lists(b)


def _removed_warning(sample: Sample, i: int) -> Problem:
    return Problem(
        Severity.WARNING,
        sample.gt_source or "GT",
        sample.gt[i].line,
        "GT polygon with fewer than 3 points removed before evaluation (MMOCR would assert; "
        "its Total-Text pipeline removes such GT)",
        sample.id,
    )


def finalize(
    results: Mapping[str, SampleResult], params: HmeanIouParams
) -> dict[str, SampleResult]:
    """Every image shown at the globally best threshold (the summed tallies' best)."""
    del params
    best = _best_index([r.tally for r in results.values()])
    out = {}
    for sid, r in results.items():
        ev = r.evidence
        out[sid] = compose(r, ev, best) if isinstance(ev, SweepEvidence) and ev.shown != best else r
    return out


def _best_index(tallies: list[Tally]) -> int:
    """``add_up(tallies).best_index``: the counts are whole numbers, so their sums are the
    same in any order and numpy adds them."""
    first = tallies[0]
    if not isinstance(first, SweepTally) or any(
        type(t) is not SweepTally or t.thresholds != first.thresholds for t in tallies
    ):
        total = add_up(tallies)  # raises for tallies of two kinds or sweeps
        return total.best_index if isinstance(total, SweepTally) else 0
    sweeps = [t for t in tallies if isinstance(t, SweepTally)]
    n = len(first.thresholds)
    hits = np.array([t.hits for t in sweeps], dtype=np.float64).reshape(len(sweeps), n)
    kept = np.array([t.kept for t in sweeps], dtype=np.float64).reshape(len(sweeps), n)
    n_gt = float(np.sum([t.n_gt_care for t in sweeps]))
    total = SweepTally(
        n_gt,
        0.0,
        first.thresholds,
        tuple(hits.sum(axis=0).tolist()),
        tuple(kept.sum(axis=0).tolist()),
    )
    return total.best_index


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
