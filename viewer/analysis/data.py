"""What the Analysis panel and the report show, computed from each side's evaluation.

Everything comes from ``metrics.analysis`` (no formula here): per side, the sweep over
every distinct confidence (at most ``SWEEP_POINTS``), the attribution, the buckets of every
attribute and the per-image H-means; when comparing, the same for B, the pairs of
per-image H-means, the classes and buckets side by side with B − A
(``metrics.analysis.both``), the images by ΔH and, for two detectors under one metric,
the paired bootstrap (two metrics on one detector: no sampling question, none asked).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from metrics.analysis import threshold as thr
from metrics.analysis.attribution import Attribution, attribute
from metrics.analysis.bootstrap import Bootstrap, paired
from metrics.analysis.both import BucketPair, ClassPair, bucket_pairs, by_delta, class_pairs
from metrics.analysis.buckets import Bucket, available, buckets
from metrics.analysis.sweep import Sweep, sweep
from metrics.catalogue.registry import METRICS
from metrics.core.model import Dataset
from metrics.core.protocols import Params
from metrics.core.results import Evaluation

SWEEP_POINTS = 1000


@dataclass(frozen=True)
class SideData:
    """One side's analysis: a detector under a metric."""

    name: str
    metric: str
    sweep: Sweep | None
    attribution: Attribution
    buckets: Mapping[str, list[Bucket]]
    hmeans: Mapping[str, float]
    note: str = ""


@dataclass(frozen=True)
class AnalysisData:
    """A's analysis and, when comparing, B's and the two side by side."""

    a: SideData
    b: SideData | None = None
    pairs: Mapping[str, tuple[float, float]] = field(default_factory=dict)
    bootstrap: Bootstrap | None = None
    classes: Sequence[ClassPair] = ()
    bucket_pairs: Mapping[str, list[BucketPair]] = field(default_factory=dict)
    by_delta: Sequence[tuple[str, float, float]] = ()

    @property
    def metric(self) -> str:
        return self.a.metric

    @property
    def sweep(self) -> Sweep | None:
        return self.a.sweep

    @property
    def attribution(self) -> Attribution:
        return self.a.attribution

    @property
    def buckets(self) -> Mapping[str, list[Bucket]]:
        return self.a.buckets

    @property
    def hmeans(self) -> Mapping[str, float]:
        return self.a.hmeans

    @property
    def note(self) -> str:
        return self.a.note

    @property
    def names(self) -> tuple[str, str]:
        return self.a.name, self.b.name if self.b is not None else "B"

    @property
    def sides(self) -> list[SideData]:
        return [self.a] if self.b is None else [self.a, self.b]

    @property
    def same_metric(self) -> bool:
        return self.b is None or self.b.metric == self.a.metric


def side(ds: Dataset, ev: Evaluation[Params], params: Params, name: str) -> SideData:
    """One side's analysis of ``ev`` over ``ds`` (the unfiltered dataset of its side)."""
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
    return SideData(name, ev.metric, sw, attribute(ds, spec, params, ev), by_attr, hmeans, note)


def compute(
    ds: Dataset,
    ev: Evaluation[Params],
    params: Params,
    other: Evaluation[Params] | None = None,
    names: tuple[str, str] = ("A", "B"),
    resamples: int = 10_000,
    other_side: tuple[Dataset, Params] | None = None,
) -> AnalysisData:
    """The analysis of ``ev`` over ``ds`` and, with ``other`` (B's evaluation) and
    ``other_side`` (B's dataset and parameters; default A's), B's and both side by side."""
    a = side(ds, ev, params, names[0])
    if other is None:
        return AnalysisData(a)
    ds_b, prm_b = other_side if other_side is not None else (ds, params)
    b = side(ds_b, other, prm_b, names[1])
    pairs = {
        s: (r.hmean, other.results[s].hmean) for s, r in ev.results.items() if s in other.results
    }
    same = ev.metric == other.metric
    bs = paired(ev, other, resamples=resamples) if pairs and same else None
    specs = (METRICS[ev.metric], METRICS[other.metric])
    by_bucket = {
        attr: bucket_pairs((ds, ds_b), (ev, other), attr, specs, interval=same)
        for attr in a.buckets
    }
    return AnalysisData(
        a,
        b,
        pairs,
        bs,
        class_pairs(a.attribution, b.attribution),
        by_bucket,
        by_delta(ev, other),
    )
