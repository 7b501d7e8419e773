"""A sweep result shown at one threshold: verdicts, matches and scores of that threshold.

Built from the result's own data (``SweepEvidence``, tally, the threshold-free part of the
instance results), so the runner's ``finalize`` can move every image to the globally best
threshold without geometry.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from metrics.core.results import (
    InstanceResult,
    MatchKind,
    MatchRecord,
    SampleResult,
    SweepTally,
    Verdict,
)
from metrics.mmocr.evidence import SweepEvidence

Pairs = tuple[tuple[int, int], ...]


def _gt(base: InstanceResult, partner: int | None) -> InstanceResult:
    if base.verdict is Verdict.DONT_CARE:
        return base
    if partner is None:
        return InstanceResult(base.index, Verdict.MISSED, near_miss=base.near_miss)
    return InstanceResult(
        base.index, Verdict.MATCHED, 1.0, partners=(partner,), near_miss=base.near_miss
    )


def _det(base: InstanceResult, partner: int | None, counted: bool, score: float) -> InstanceResult:
    if base.absorbed_by is not None:
        return base
    values = {"score": score}
    if not counted:
        return InstanceResult(
            base.index, Verdict.DONT_CARE, near_miss=base.near_miss, values=values
        )
    if partner is None:
        return InstanceResult(
            base.index, Verdict.FALSE_POSITIVE, near_miss=base.near_miss, values=values
        )
    return InstanceResult(
        base.index,
        Verdict.MATCHED,
        1.0,
        partners=(partner,),
        near_miss=base.near_miss,
        values=values,
    )


def _dets(
    dets: tuple[InstanceResult, ...],
    ev: SweepEvidence,
    k: int,
    gt_of: dict[int, int],
    gt_before: dict[int, int],
) -> list[InstanceResult]:
    """The detections at ``thresholds[k]``; those whose state (counted, partner) is the
    same as at the shown threshold are kept as they are."""
    out = []
    levels, shown = ev.levels, ev.shown
    for d in dets:
        j = d.index
        partner = gt_of.get(j)
        counted = levels[j] > k
        if counted == (levels[j] > shown) and partner == gt_before.get(j):
            out.append(d)
        else:
            out.append(_det(d, partner, counted, ev.scores[j]))
    return out


def _instances(
    r: SampleResult, ev: SweepEvidence, k: int, pairs: Pairs, before: Pairs
) -> tuple[tuple[InstanceResult, ...], tuple[InstanceResult, ...]]:
    """The GT and detections at ``thresholds[k]``; unchanged when the pairs are those of the
    shown threshold and no detection is kept at one of the two thresholds only."""
    lo, hi = sorted((k, ev.shown))
    if pairs == before:
        if not any(lo < lv <= hi for lv in ev.levels):
            return r.gt, r.det
        gts = r.gt
    else:
        det_of, det_before = dict(pairs), dict(before)
        gts = tuple(
            g if det_of.get(g.index) == det_before.get(g.index) else _gt(g, det_of.get(g.index))
            for g in r.gt
        )
    gt_of, gt_before = {j: i for i, j in pairs}, {j: i for i, j in before}
    return gts, tuple(_dets(r.det, ev, k, gt_of, gt_before))


def compose(r: SampleResult, ev: SweepEvidence, k: int) -> SampleResult:
    """``r`` shown at ``thresholds[k]``: dets under it are don't-care (not counted). A
    result evaluated for a summary (``complete`` False) gets no match records either."""
    tally = r.tally
    lists = r.complete
    if not isinstance(tally, SweepTally):
        raise TypeError("a sweep result needs a SweepTally")
    pairs = ev.pairs[k] if ev.pairs else ()
    before = ev.pairs[ev.shown] if 0 <= ev.shown < len(ev.pairs) else ()
    ious = ev.pair_iou[k] if ev.pair_iou else ()
    point = at_point(tally, k if ev.thresholds else None, pairs, ious, lists)
    return SampleResult(
        r.metric,
        r.sample_id,
        *point.scores,
        tally,
        *_instances(r, ev, k, pairs, before),
        point.matches,
        _shown(ev, k),
        r.warnings,
        point.extra,
        r.complete,
    )


class Point(NamedTuple):
    """A sample's figures at one threshold: recall, precision and H-mean, the extra values
    (GT care, detections kept, matches, the threshold) and the match records."""

    scores: tuple[float, float, float]
    extra: dict[str, float]
    matches: tuple[MatchRecord, ...]


def at_point(
    tally: SweepTally, k: int | None, pairs: Pairs, ious: Sequence[float], records: bool
) -> Point:
    """The figures of ``tally`` at ``thresholds[k]`` (None: a run without thresholds, its
    plain scores); with ``records``, the match records of ``pairs`` at IoUs ``ious`` (a
    summary-only result has none)."""
    point = tally.point(k) if k is not None else None
    scores = (point.recall, point.precision, point.hmean) if point else tally.scores()
    extra = {
        "num_gt_care": tally.n_gt_care,
        "num_det_kept": point.kept if point else 0.0,
        "num_matched": point.hits if point else 0.0,
    }
    if point:
        extra["score_threshold"] = point.threshold
    matches = tuple(
        MatchRecord(MatchKind.ONE_TO_ONE, (i,), (j,), values={"iou": v})
        for (i, j), v in zip(pairs, ious, strict=True)
        if records
    )
    return Point(scores, extra, matches)


def _shown(ev: SweepEvidence, k: int) -> SweepEvidence:
    """``ev`` shown at ``thresholds[k]``."""
    return SweepEvidence(
        thresholds=ev.thresholds,
        scores=ev.scores,
        levels=ev.levels,
        pairs=ev.pairs,
        pair_iou=ev.pair_iou,
        shown=k,
        below_min_threshold=ev.below_min_threshold,
        ignored_overlap=ev.ignored_overlap,
        gt_removed=ev.gt_removed,
    )
