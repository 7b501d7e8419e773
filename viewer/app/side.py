"""Side: one detector under one metric, the unit the viewer shows (A, and B when comparing).

A side holds a dataset, the store of its evaluations (filled by an ``EvaluationWorker``), the
metric it shows, the parameter overrides it evaluates with, and its display name. The two
sides of a comparison are symmetric: two detectors are two sides with their own datasets and
stores; two metrics on one detector are two sides sharing the dataset and the store. A side
knows nothing of the session: it reports through the callbacks of its store.

A large set (more than ``LAZY_INSTANCES`` GT boxes and detections, a TextOCR-size set) is
``lazy``: a metric is evaluated when it is shown, not every metric as the set opens (the
per-instance results of every metric of 2,000,000 boxes took 14 GB).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from metrics.analysis.compare import SampleDiff, sample_diff
from metrics.analysis.threshold import filter_dataset
from metrics.catalogue.registry import METRICS, MetricSpec, applicable, make_params
from metrics.core.evidence import PairTable
from metrics.core.model import Dataset, Problem, Sample, Severity
from metrics.core.protocols import Params
from metrics.core.results import Evaluation, SampleResult
from metrics.run.runner import Plan, plan_all
from viewer.jobs.workers import CANCELLED, ResultStore

LAZY_INSTANCES = 500_000


def lazy_set(dataset: Dataset) -> bool:
    """Whether a set is large enough to be evaluated one metric at a time, when shown."""
    return dataset.facts.n_gt + dataset.facts.n_det > LAZY_INSTANCES


def detector_name(path: str | None) -> str:
    return Path(path).name.removesuffix(".zip") if path else "no detections"


def pair_diff(a: Side | None, b: Side | None, sid: str | None) -> SampleDiff | None:
    """How A and B differ on a sample (None unless both sides exist)."""
    if a is None or b is None or sid is None:
        return None
    return sample_diff(sid, a.result(sid), b.result(sid))


def threshold_sides(a: Side | None, b: Side | None, threshold: float | None) -> None:
    """Both sides at one score threshold (a metric comparison's B reads A's dataset)."""
    if a is not None:
        a.set_score_threshold(threshold)
    if b is not None and a is not None:
        b.follow(a) if b.shares_results_with(a) else b.set_score_threshold(threshold)


class Side:
    """One detector × metric: dataset, results store, metric, parameters and name.

    The metrics a side offers are those ``--metric all`` would run
    (``metrics.run.runner.plan_all``): a metric that can read none of the images is left out
    with its reason, one that skips some says so, and a metric's fallback values (e.g.
    ``auto_orient`` on counter-clockwise polygons) are switched on in its parameters,
    visibly, with a note.
    """

    def __init__(
        self,
        dataset: Dataset,
        store: ResultStore,
        *,
        metric: str | None,
        det: str | None = None,
        name: str = "A",
        overrides: Mapping[str, Mapping[str, object]] | None = None,
        progress: Callable[[int, int], None] | None = None,
        plan: Plan | None = None,
    ) -> None:
        self.dataset = dataset
        self.store = store
        self.metric = metric
        self.det = det  # the detection set's path (None: no detections)
        self.name = name
        if plan is None:
            plan = plan_all(dataset, applicable(dataset), overrides)
        self.plan = plan
        self.plan_dataset = dataset  # what the plan validated
        self.lazy = lazy_set(dataset)  # a metric is evaluated when shown
        self.overrides: dict[str, dict[str, object]] = {
            k: dict(v) for k, v in {**(overrides or {}), **plan.overrides}.items() if v
        }
        self._progress = progress
        self.full_dataset = dataset  # before the score threshold (Analysis panel)
        self.score_threshold: float | None = None
        self._views: dict[tuple[str, str], Sample] = {}
        self.shown: dict[str, int] = {}  # swept metric -> threshold index shown
        self._at: dict[tuple[str, str, int], tuple[SampleResult, SampleResult]] = {}

    @property
    def evaluations(self) -> dict[str, Evaluation[Params]]:
        return self.store.evaluations

    @property
    def partial(self) -> dict[str, Evaluation[Params]]:
        return self.store.partial

    def shares_results_with(self, other: Side) -> bool:
        """Both sides read one store (a metric comparison on one detector)."""
        return self.store is other.store

    def rename(self, name: str) -> None:
        self.name = name.strip() or self.name

    # ------------------------------------------------------------------ metrics
    def metric_ids(self) -> list[str]:
        """The metrics this side offers (those that can read at least one image)."""
        return [s.id for s in self.plan.specs]

    def notes(self, metric: str | None = None) -> list[str]:
        """What the plan says about ``metric`` (fallback values, images skipped)."""
        mid = metric or self.metric
        return [n for n in self.plan.notes if mid and n.startswith(f"{mid}:")]

    def left_out(self) -> dict[str, str]:
        """Metrics that apply to data like this but can read none of these images, why."""
        return dict(self.plan.left_out)

    def skip_reason(self, sample_id: str | None, metric: str | None = None) -> str | None:
        """Why ``metric`` did not evaluate this sample (its first input error), or None."""
        ev = self.evaluation(metric)
        if ev is None or sample_id is None or sample_id not in ev.excluded:
            return None
        for p in (*self.dataset.problems, *ev.problems):
            if p.sample_id == sample_id and p.severity is Severity.ERROR:
                return str(p)
        return "input errors in this image"

    def params(self, metric: str | None = None) -> Params | None:
        mid = metric or self.metric
        if mid is None:
            return None
        return make_params(METRICS[mid], self.overrides.get(mid))

    def set_overrides(self, metric: str, values: Mapping[str, object]) -> None:
        make_params(METRICS[metric], values)  # raises on a bad value before anything changes
        self.overrides[metric] = dict(values)

    def set_score_threshold(self, threshold: float | None) -> None:
        """Keep the detections with confidence >= ``threshold`` (None: all) and drop the
        results of the detections as they were; the caller re-evaluates."""
        self.score_threshold = threshold
        full = self.full_dataset
        self.dataset = full if threshold is None else filter_dataset(full, threshold)
        self._views.clear()
        self._at.clear()
        self.store.clear()

    def follow(self, other: Side) -> None:
        """A side of a metric comparison reads the other side's (filtered) dataset."""
        self.full_dataset, self.dataset = other.full_dataset, other.dataset
        self.score_threshold = other.score_threshold
        self._views.clear()
        self._at.clear()

    # ------------------------------------------------------------------ evaluation
    def evaluate(self, metrics: list[str] | None = None, first: str | None = None) -> None:
        """Evaluate ``metrics`` (default: every applicable one; on a ``lazy`` set the shown
        metric), the shown metric first and the sample ``first`` before the rest."""
        if metrics is None and self.lazy and self.metric is not None:
            metrics = [self.metric]
        specs: list[MetricSpec[Params]] = [METRICS[m] for m in (metrics or self.metric_ids())]
        if self.metric is not None and METRICS[self.metric] in specs:
            specs.sort(key=lambda s: s.id != self.metric)
        self.store.start(
            self.dataset, specs, self.overrides, first, self._progress, self._validated(specs)
        )

    def wants(self, metric: str) -> bool:
        """A ``lazy`` side's metric that has no results and is not being evaluated (or was
        cancelled by choosing another): showing it evaluates it."""
        return (
            self.lazy
            and metric in self.metric_ids()
            and metric not in self.evaluations
            and metric not in self.store.running()
            and self.store.failures.get(metric) in (None, CANCELLED)
        )

    def _validated(self, specs: list[MetricSpec[Params]]) -> dict[str, list[Problem]]:
        """The plan's validation of the metrics it still holds for: the dataset as planned
        (no score threshold) and the parameters as planned."""
        if self.dataset is not self.plan_dataset:
            return {}
        plan = self.plan
        return {
            s.id: plan.validated[s.id]
            for s in specs
            if s.id in plan.validated
            and self.overrides.get(s.id, {}) == {**plan.overrides.get(s.id, {})}
        }

    def cancel(self, wait: bool = True) -> None:
        self.store.cancel(wait)

    def is_busy(self) -> bool:
        return self.store.is_busy()

    def no_score(self, metric: str | None = None) -> str | None:
        """Why ``metric`` has no global score (its failure, or that no image could be
        evaluated, with the first image's reason); None when it has one or is running."""
        why = self.failure(metric)
        ev = self.evaluation(metric)
        if why or ev is None or ev.summary is not None:
            return why
        first = self.skip_reason(ev.excluded[0], metric) if ev.excluded else None
        return "no image could be evaluated" + (f"; first: {first}" if first else "")

    def failure(self, metric: str | None = None) -> str | None:
        """Why ``metric`` has no results: its engine error, or ``"cancelled"``; None while it
        runs or once it has results."""
        mid = metric or self.metric
        return None if mid is None else self.store.failures.get(mid)

    def wait(self, timeout_ms: int) -> bool:
        return self.store.wait(timeout_ms)

    # ------------------------------------------------------------------ reading
    def sample(self, sample_id: str | None, metric: str | None = None) -> Sample | None:
        """The sample as the metric's results index it (its ``view``: e.g. the lines of a
        line-level metric); the dataset's own sample for most metrics."""
        if sample_id is None:
            return None
        sample = self.dataset[sample_id]
        mid = metric or self.metric
        view = METRICS[mid].view if mid is not None and mid in METRICS else None
        if view is None or mid is None:
            return sample
        key = (sample_id, mid)
        if key not in self._views:
            if len(self._views) > 32:
                self._views.clear()
            self._views[key] = view(sample)
        return self._views[key]

    def same_view(self, metric: str, other: str | None = None) -> bool:
        """Whether two metrics index the same instances (their results can be compared)."""
        mine = METRICS[other or self.metric or metric].view
        return METRICS[metric].view is mine

    def evaluation(self, metric: str | None = None) -> Evaluation[Params] | None:
        mid = metric or self.metric
        return None if mid is None else self.evaluations.get(mid)

    def result(self, sample_id: str | None, metric: str | None = None) -> SampleResult | None:
        """The metric's result of a sample, at the score threshold chosen to be shown for a
        swept metric (by default the one the metric reports)."""
        mid = metric or self.metric
        r = self.store.result(mid, sample_id)
        k = self.shown.get(mid or "")
        at = METRICS[mid].at_threshold if mid is not None and mid in METRICS else None
        if r is None or k is None or at is None or sample_id is None:
            return r
        key = (mid or "", sample_id, k)
        hit = self._at.get(key)
        if hit is None or hit[0] is not r:
            if len(self._at) > 4096:
                self._at.clear()
            hit = self._at[key] = (r, at(r, k))
        return hit[1]

    def set_shown_threshold(self, metric: str, k: int | None) -> None:
        """Show a swept metric at its k-th threshold (None: the one it reports)."""
        if k is None:
            self.shown.pop(metric, None)
        else:
            self.shown[metric] = k

    def pair_table(self, sample_id: str | None, metric: str | None = None) -> PairTable | None:
        """The GT x detection values the metric decides on for this image (the engine's:
        from the result's evidence, or computed for this one image), None if it has none."""
        mid = metric or self.metric
        sample = self.sample(sample_id, mid)
        if mid is None or sample is None:
            return None
        result = self.result(sample_id, mid)
        ev = result.evidence if result is not None else None
        table = ev.pair_table() if ev is not None else None
        spec = METRICS[mid]
        if table is None and spec.pair_table is not None:
            table = spec.pair_table(sample, make_params(spec, self.overrides.get(mid)))
        return table
