"""One sample's result from its block's decisions (``block.Block``) and its sweep.

The result is built as it is shown at the lowest threshold (``verdicts.compose`` at 0 of
the threshold-free instances): the verdicts, matches and scores of that threshold, the
sweep's evidence, and the GT removed for having fewer than 3 points as warnings.
"""

from __future__ import annotations

from collections.abc import Callable

from metrics.core.evidence import Absorbed
from metrics.core.model import Problem, Sample
from metrics.core.records import dataclass
from metrics.core.results import (
    InstanceResult,
    NearMiss,
    SampleResult,
    SweepTally,
    Verdict,
)
from metrics.mmocr.block import Block
from metrics.mmocr.evidence import SweepEvidence
from metrics.mmocr.verdicts import at_point

Pairs = tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Sweep:
    """One sample's pairs (sample indices) and their IoU at every threshold, and how many
    detections are kept at each."""

    pairs: tuple[Pairs, ...]
    ious: tuple[tuple[float, ...], ...]
    kept: tuple[float, ...]


@dataclass(frozen=True)
class FlatLists:
    """A block's per-instance arrays as Python lists (converted once for all samples)."""

    g_off: list[int]
    d_off: list[int]
    scores: list[float]
    counted: list[int]
    levels: list[int]
    dc: list[bool]
    removed: list[bool]
    absorbed: list[int]
    absorbed_ratio: list[float]
    near_d: tuple[list[int], list[float]]
    near_g: tuple[list[int], list[float]]


def flat_lists(b: Block) -> FlatLists:
    return FlatLists(
        b.g_off.tolist(),
        b.d_off.tolist(),
        b.scores.tolist(),
        b.counted.tolist(),
        b.levels.tolist(),
        b.dc.tolist(),
        b.removed.tolist(),
        b.absorbed.tolist(),
        b.absorbed_ratio.tolist(),
        (b.near_d[0].tolist(), b.near_d[1].tolist()),
        (b.near_g[0].tolist(), b.near_g[1].tolist()),
    )


def _near(idx: int, value: float, off: int) -> NearMiss | None:
    return NearMiss(idx - off, value, "iou") if value > 0 else None


def _dets(f: FlatLists, s: int, gt_of: dict[int, int]) -> tuple[InstanceResult, ...]:
    """Every detection at the lowest threshold: dropped by an ignored GT, under the
    threshold (don't care), matched or a false positive; with its score and near miss."""
    ga, da, dz = f.g_off[s], f.d_off[s], f.d_off[s + 1]
    near_idx, near_val = f.near_d
    absorbed, levels, scores = f.absorbed, f.levels, f.scores
    out = []
    for j in range(da, dz):
        k = j - da
        by = absorbed[j]
        if by >= 0:
            values = {"ignore_precision": f.absorbed_ratio[j]}
            out.append(InstanceResult(k, Verdict.DONT_CARE, absorbed_by=by - ga, values=values))
            continue
        v = near_val[j]
        near = NearMiss(near_idx[j] - ga, v, "iou") if v > 0 else None
        partner = gt_of.get(k)
        if levels[j] <= 0:
            verdict = Verdict.DONT_CARE
        elif partner is None:
            verdict = Verdict.FALSE_POSITIVE
        else:
            out.append(
                InstanceResult(
                    k,
                    Verdict.MATCHED,
                    1.0,
                    partners=(partner,),
                    near_miss=near,
                    values={"score": scores[j]},
                )
            )
            continue
        out.append(InstanceResult(k, verdict, near_miss=near, values={"score": scores[j]}))
    return tuple(out)


def _gts(f: FlatLists, s: int, det_of: dict[int, int]) -> tuple[InstanceResult, ...]:
    """Every GT at the lowest threshold: don't care (ignored or removed), matched or
    missed, with its near miss."""
    ga, gz, da = f.g_off[s], f.g_off[s + 1], f.d_off[s]
    near_idx, near_val = f.near_g
    out = []
    for i in range(ga, gz):
        k = i - ga
        if f.dc[i] or f.removed[i]:
            values = {"removed_lt3pts": 1.0} if f.removed[i] else {}
            out.append(InstanceResult(k, Verdict.DONT_CARE, values=values))
            continue
        near = _near(near_idx[i], near_val[i], da)
        partner = det_of.get(k)
        if partner is None:
            out.append(InstanceResult(k, Verdict.MISSED, near_miss=near))
        else:
            out.append(InstanceResult(k, Verdict.MATCHED, 1.0, partners=(partner,), near_miss=near))
    return tuple(out)


def _evidence(f: FlatLists, s: int, sw: Sweep, thresholds: tuple[float, ...]) -> SweepEvidence:
    ga, gz, da, dz = f.g_off[s], f.g_off[s + 1], f.d_off[s], f.d_off[s + 1]
    return SweepEvidence(
        thresholds=thresholds,
        scores=tuple(f.scores[da:dz]),
        levels=tuple(f.levels[da:dz]),
        pairs=sw.pairs,
        pair_iou=sw.ious,
        below_min_threshold=tuple(j - da for j in range(da, dz) if f.counted[j] == 0),
        ignored_overlap=tuple(
            Absorbed(j - da, f.absorbed[j] - ga, f.absorbed_ratio[j])
            for j in range(da, dz)
            if f.absorbed[j] >= 0
        ),
        gt_removed=tuple(i - ga for i in range(ga, gz) if f.removed[i]),
    )


def sample_result(
    metric: str,
    sample: Sample,
    f: FlatLists,
    s: int,
    sw: Sweep,
    thresholds: tuple[float, ...],
    lists: bool,
    removed_warning: Callable[[Sample, int], Problem],
) -> SampleResult:
    """Sample ``s`` of the block shown at the lowest threshold; ``lists`` False: no GT
    results and no match records (``complete=False``)."""
    ga, gz = f.g_off[s], f.g_off[s + 1]
    n_care = sum(1 for i in range(ga, gz) if not (f.dc[i] or f.removed[i]))
    tally = SweepTally(
        float(n_care),
        sw.kept[0] if sw.kept else 0.0,
        thresholds,
        tuple(float(len(p)) for p in sw.pairs),
        sw.kept,
    )
    evidence = _evidence(f, s, sw, thresholds)
    pairs = sw.pairs[0] if sw.pairs else ()
    ious = sw.ious[0] if sw.ious else ()
    point = at_point(tally, 0 if thresholds else None, pairs, ious, lists)
    return SampleResult(
        metric,
        sample.id,
        *point.scores,
        tally,
        _gts(f, s, dict(pairs)) if lists else (),
        _dets(f, s, {j: i for i, j in pairs}),
        point.matches,
        evidence,
        tuple(removed_warning(sample, i) for i in evidence.gt_removed),
        point.extra,
        lists,
    )
