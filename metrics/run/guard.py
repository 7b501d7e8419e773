"""The runner's last line of defence: a metric that fails on a sample becomes a located
problem, never a traceback (issue 12).

Degenerate geometry is repaired where the official tools are known to answer
(``metrics.shapes.robust``); whatever still raises inside a metric (GEOS, numpy, an arithmetic
corner) is caught here. A block of samples that fails is evaluated again sample by sample,
so only the samples that really fail are lost; each gives an error naming its files, the
metric and the reason, and the lines of its suspicious boxes (self-intersecting, collapsed
or too short rings). The runner applies the policy: ``strict`` refuses the run with every
failure listed, ``skip_sample`` leaves the failed samples out and says which.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import shapely

from metrics.core.logs import logger
from metrics.core.model import Instance, Problem, Sample, Severity, place
from metrics.core.protocols import Params
from metrics.core.results import SampleResult
from metrics.declare.spec import MetricSpec
from metrics.shapes.cache import GeometryCache
from metrics.shapes.mode import Mode

log = logger(__name__)

FAILURE = "cannot evaluate this image"
"""Part of the message of every problem made here (tests and tools find them by it)."""


def warm(geometry: GeometryCache, samples: Sequence[Sample], mode: str) -> None:
    """Bulk geometry of a block, skipped when it fails (each sample is then computed on
    its own, and the guard below locates the ones that fail)."""
    try:
        geometry.warm(samples, mode)
    except Exception:
        log.debug("bulk geometry of %d samples failed", len(samples), exc_info=True)


def evaluate(
    spec: MetricSpec[Params], samples: Sequence[Sample], prm: Params, mode: Mode
) -> tuple[list[SampleResult | None], list[Problem]]:
    """``spec.evaluate`` of a block in ``mode``; on an exception, sample by sample (results
    aligned with ``samples``, None where a sample failed, each sample with a cache of its
    own) with one problem per failed sample."""
    try:
        return list(spec.evaluate(list(samples), prm, mode)), []
    except Exception as exc:
        if len(samples) == 1:
            return [None], [failure(spec.id, samples[0], exc)]
        log.debug("%s failed on a block of %d samples", spec.id, len(samples), exc_info=True)
    rows: list[SampleResult | None] = []
    problems: list[Problem] = []
    for sample in samples:
        try:
            rows.extend(spec.evaluate([sample], prm, mode.fresh()))
        except Exception as exc:
            rows.append(None)
            problems.append(failure(spec.id, sample, exc))
    return rows, problems


def failure(metric: str, sample: Sample, exc: Exception) -> Problem:
    """The error of a sample a metric could not evaluate, located as far as possible."""
    log.debug("%s failed on %s", metric, sample.id, exc_info=exc)
    reason = " ".join(str(exc).split())[:160] or type(exc).__name__
    gt, det = suspects(sample.gt), suspects(sample.det)
    where = []
    if gt:
        where.append(f"GT {_numbers(sample.gt_source, sample.id, gt)}")
    if det:
        where.append(
            f"detection {_numbers(sample.det_source, sample.id, det)} of {sample.det_source}"
        )
    hint = f"; suspicious boxes: {'; '.join(where)}" if where else ""
    source = sample.gt_source or sample.det_source or sample.id
    line = gt[0] if gt else None
    if line is None and det and sample.det_source:
        source, line = sample.det_source, det[0]
    return Problem(
        Severity.ERROR,
        source,
        line,
        f"{metric} {FAILURE} ({type(exc).__name__}: {reason}){hint}",
        sample.id,
    )


def _numbers(source: str | None, sample_id: str, numbers: Sequence[int]) -> str:
    """'line(s) 3, 7', or 'box(es) 3, 7' in a JSON file (whose boxes have no lines)."""
    unit = {"line": "line(s)", "box": "box(es)"}[place(source or "", sample_id)]
    return f"{unit} {', '.join(map(str, numbers[:5]))}"


def suspects(instances: Sequence[Instance]) -> list[int]:
    """Lines of the boxes GEOS may refuse: fewer than 3 distinct vertices, zero area or a
    ring that is not simple (bow-tie, repeated or collinear vertices)."""
    out = []
    for inst in instances:
        pts = np.asarray(inst.points, dtype=np.float64)
        if len(np.unique(pts, axis=0)) < 3 or not np.isfinite(pts).all():
            out.append(inst.line)
            continue
        ring = shapely.Polygon(pts)
        if ring.area == 0 or not ring.is_valid:
            out.append(inst.line)
    return out
