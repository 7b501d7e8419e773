"""Curved-text IoU, SIoU and TIoU (``curved_iou``, ``curved_siou``, ``curved_tiou``).

Paper: Liu et al., CVPR 2019 (TIoU), curved extension for Total-Text and SCUT-CTW1500.
Official implementation matched: Yuliang-Liu/TIoU-metric ``curved-tiou/script.py`` @1da1363,
spec 3.5 and 3.9. Same algorithm as ``tiou`` with polygons of any vertex count and these
differences, reproduced: coordinates rounded to float32 (C2); every polygon must be valid and
clockwise in image coordinates, i.e. negative signed area in raw coordinates — the opposite of
the ICDAR rule (C1; ``auto_orient=True`` reverses offending rings instead of refusing them);
no 0.001 slack on the outlier bound. The official script picks its dataset preset from the GT
file name; here sample ids are paired from the file names without a preset (C3).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np
import shapely

from metrics.core.model import Instance, Problem, Sample, Severity
from metrics.core.results import SampleResult
from metrics.icdar.greedy import Score, evaluate_greedy_batch
from metrics.icdar.params import CurvedParams
from metrics.shapes.mode import Mode
from metrics.shapes.validity import valid_rings

_CCW = (  # shapely's ccw is with y up: in the image (y down) the ring is clockwise
    "polygon in the ICDAR order (clockwise as drawn, y down): the curved TIoU script "
    "refuses it and wants the reverse (set auto_orient=true to reverse it)"
)


def ring_problems(points: Sequence[np.ndarray]) -> list[str | None]:
    """What the official script refuses in each ring (float32 vertices): fewer than 3
        points, an invalid polygon, a ring in the ICDAR order (counter-clockwise with y up,
    clockwise as drawn); None for the good ones. The shapely
        tests run once per vertex count over all rings of that count."""
    out: list[str | None] = [None] * len(points)
    lengths = np.fromiter((len(p) for p in points), dtype=np.intp, count=len(points))
    for n in sorted(set(lengths.tolist())):
        idx = np.flatnonzero(lengths == n)
        if n < 3:
            for k in idx.tolist():
                out[k] = f"polygon needs at least 3 points, found {n}"
            continue
        r = np.stack([points[k] for k in idx.tolist()]).astype(np.float32).astype(np.float64)
        polys = shapely.polygons(r)
        valid = valid_rings(r)
        for k, poly in zip(idx[~valid].tolist(), polys[~valid], strict=True):
            out[k] = f"invalid polygon ({shapely.is_valid_reason(poly)})"
        ccw = valid & shapely.is_ccw(shapely.linearrings(r))
        for k in idx[ccw].tolist():
            out[k] = _CCW
    return out


def validate(sample: Sample, params: CurvedParams) -> list[Problem]:
    return validate_batch([sample], params)


def validate_batch(samples: Sequence[Sample], params: CurvedParams) -> list[Problem]:
    """Every ring of every sample, in order (GT then detections of each sample)."""
    items = [
        (sample, source or side, inst)
        for sample in samples
        for side, source, insts in (
            ("GT", sample.gt_source, sample.gt),
            ("det", sample.det_source, sample.det),
        )
        for inst in insts
    ]
    msgs = ring_problems([inst.points for _, _, inst in items])
    return [
        Problem(Severity.ERROR, where, inst.line, msg, sample.id)
        for (sample, where, inst), msg in zip(items, msgs, strict=True)
        if msg and not (params.auto_orient and msg is _CCW)
    ]


def _oriented(sample: Sample) -> Sample:
    def fix(items: tuple[Instance, ...]) -> tuple[Instance, ...]:
        out = []
        for inst in items:
            r = inst.points.astype(np.float32).astype(np.float64)
            if len(r) >= 3 and shapely.LinearRing(r).is_ccw:
                inst = replace(inst, points=inst.points[::-1].copy())
            out.append(inst)
        return tuple(out)

    return replace(sample, gt=fix(sample.gt), det=fix(sample.det))


def _run(
    samples: Sequence[Sample], params: CurvedParams, metric: str, score: Score, mode: Mode | None
) -> list[SampleResult]:
    todo = [_oriented(s) for s in samples] if params.auto_orient else list(samples)
    if mode is not None and not mode.results:  # the tallies alone: fewer pairs clipped
        from metrics.icdar.curved_tallies import evaluate_tallies

        return evaluate_tallies(todo, params, metric, score, mode)
    return evaluate_greedy_batch(todo, params, metric=metric, score=score, curved=True, mode=mode)


def evaluate_batch(
    samples: Sequence[Sample], params: CurvedParams, mode: Mode | None = None
) -> list[SampleResult]:
    """Curved TIoU of many samples in one vectorized pass."""
    return _run(samples, params, "curved_tiou", "tiou", mode)


def evaluate_batch_iou(
    samples: Sequence[Sample], params: CurvedParams, mode: Mode | None = None
) -> list[SampleResult]:
    return _run(samples, params, "curved_iou", "iou", mode)


def evaluate_batch_siou(
    samples: Sequence[Sample], params: CurvedParams, mode: Mode | None = None
) -> list[SampleResult]:
    return _run(samples, params, "curved_siou", "siou", mode)


def evaluate_sample(sample: Sample, params: CurvedParams) -> SampleResult:
    """Curved TIoU of one sample."""
    return evaluate_batch([sample], params)[0]
