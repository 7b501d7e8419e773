"""What the Analysis panel and the report show, computed from one side's evaluation.

Everything comes from ``metrics.analysis`` (no formula here): the sweep over every distinct
confidence (at most ``SWEEP_POINTS``), the attribution, the buckets of every attribute,
the per-image H-means and, when comparing, the pairs of per-image H-means and the bootstrap.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from metrics.analysis import threshold as thr
from metrics.analysis.attribution import Attribution, attribute
from metrics.analysis.bootstrap import Bootstrap, paired
from metrics.analysis.buckets import Bucket, available, buckets
from metrics.analysis.sweep import Sweep, sweep
from metrics.core.model import Dataset
from metrics.core.results import Evaluation
from metrics.registry import METRICS

SWEEP_POINTS = 1000


@dataclass(frozen=True)
class AnalysisData:
    """One metric's analysis (and the comparison's, when there is a B)."""

    metric: str
    sweep: Sweep | None
    attribution: Attribution
    buckets: Mapping[str, list[Bucket]]
    hmeans: Mapping[str, float]
    pairs: Mapping[str, tuple[float, float]] = field(default_factory=dict)
    bootstrap: Bootstrap | None = None
    names: tuple[str, str] = ("A", "B")
    note: str = ""


def compute(
    ds: Dataset,
    ev: Evaluation[Any],
    params: Any,
    other: Evaluation[Any] | None = None,
    names: tuple[str, str] = ("A", "B"),
    resamples: int = 10_000,
) -> AnalysisData:
    """The analysis of ``ev`` over ``ds`` (the unfiltered dataset of its side)."""
    spec = METRICS[ev.metric]
    conf = thr.confidences(ds)
    sw = None
    note = ""
    if len(conf) and ev.results:
        sw = sweep(ds, spec, params, ev, thr.grid(conf, SWEEP_POINTS))
    elif not len(conf):
        note = "no detection carries a confidence: no threshold sweep"
    by_attr = {a: buckets(ds, ev, a, spec) for a in available(ds)}
    hmeans = {s: r.hmean for s, r in ev.results.items()}
    pairs: dict[str, tuple[float, float]] = {}
    bs = None
    if other is not None:
        pairs = {
            s: (r.hmean, other.results[s].hmean)
            for s, r in ev.results.items()
            if s in other.results
        }
        if pairs:
            bs = paired(ev, other, resamples=resamples)
    return AnalysisData(
        ev.metric,
        sw,
        attribute(ds, spec, params, ev),
        by_attr,
        hmeans,
        pairs,
        bs,
        names,
        note,
    )
