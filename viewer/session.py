"""Session: the viewer's state (dataset, results, metric, sample, selection, layers).

Widgets receive the session, call its methods and listen to its signals; they never talk to
each other. Evaluation runs in an ``EvaluationWorker`` thread.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PySide6.QtCore import QObject, Signal

from metrics.io.reader import load_dataset
from metrics.model import Dataset, InputError, Problem, Sample
from metrics.registry import METRICS, MetricSpec, applicable, make_params
from metrics.results import Evaluation, SampleResult
from viewer.comparison import CompareRun
from viewer.paths import DatasetPaths
from viewer.scene.layers import DEFAULT_LAYERS
from viewer.scene.overlay import Ref
from viewer.workers import ResultStore

PREFERRED = ("tiou", "tedeval", "cleval_det", "curved_tiou", "ic15_iou", "deteval")


class Session(QObject):
    dataset_changed = Signal()
    results_changed = Signal()
    metric_changed = Signal(str)
    sample_changed = Signal(str)
    selection_changed = Signal(object)
    hover_changed = Signal(object)
    layers_changed = Signal(object)
    busy_changed = Signal(bool)
    progress_changed = Signal(int, int)
    error_raised = Signal(str)
    visible_changed = Signal(object)  # list of sample ids the table shows (filtered)
    comparison_changed = Signal()  # detector B or metric B added, renamed or closed

    def __init__(self) -> None:
        super().__init__()
        self.paths: DatasetPaths | None = None
        self.dataset: Dataset | None = None
        self.store = ResultStore(self.results_changed.emit, self.error_raised.emit, self._emit_busy)
        self.metric: str | None = None
        self.overrides: dict[str, dict[str, Any]] = {}
        self.sample_id: str | None = None
        self.selection: Ref | None = None
        self.hovered: Ref | None = None
        self.layers: frozenset[str] = DEFAULT_LAYERS
        self.visible_ids: list[str] = []
        self.sample_chosen = False  # until then the table may open the worst sample
        self.b = CompareRun(self)

    @property
    def evaluations(self) -> dict[str, Evaluation]:
        return self.store.evaluations

    @property
    def partial(self) -> dict[str, Evaluation]:
        return self.store.partial

    def _emit_busy(self) -> None:
        self.busy_changed.emit(self.is_busy())

    # ---------------------------------------------------------------- dataset and metrics
    def open_dataset(self, paths: DatasetPaths) -> bool:
        """Load a dataset and start evaluating it; on bad input say why and keep the old one."""
        try:
            ds = load_dataset(paths.gt, paths.det, gt_lines=paths.gt_lines, images=paths.images)
        except InputError as exc:
            self.error_raised.emit(str(exc))
            return False
        self.cancel()
        self.b.close(emit=False)
        self.paths, self.dataset = paths, ds
        self.store.clear()
        self.selection = self.hovered = None
        names = self.metric_ids()
        keep = self.metric if self.metric in names else None
        self.metric = keep or next(
            (m for m in PREFERRED if m in names), names[0] if names else None
        )
        self.sample_id = ds.samples[0].id if len(ds) else None
        self.sample_chosen = False
        self.dataset_changed.emit()
        self.metric_changed.emit(self.metric or "")
        self.sample_changed.emit(self.sample_id or "")
        errors = [p for p in ds.problems if p.severity.value == "error"]
        if errors:
            self.error_raised.emit(
                f"{len(errors)} input problem(s); those samples are skipped. First: {errors[0]}"
            )
        self.comparison_changed.emit()
        self.evaluate()
        return True

    def add_detections(self, det: str) -> bool:
        """Compare with a second detection set on the same GT (detector B)."""
        return self.b.open_detector(det)

    def compare_metrics(self, metric_b: str) -> bool:
        """Compare the current metric with ``metric_b`` on the same detector."""
        return self.b.open_metric(metric_b)

    def comparing(self) -> bool:
        return self.b.mode is not None

    def metric_ids(self) -> list[str]:
        return [s.id for s in applicable(self.dataset)] if self.dataset is not None else []

    def specs(self) -> list[MetricSpec]:
        return [METRICS[m] for m in self.metric_ids()]

    def params(self, metric: str | None = None) -> Any:
        mid = metric or self.metric
        if mid is None:
            return None
        return make_params(METRICS[mid], self.overrides.get(mid))

    def set_metric(self, metric: str) -> None:
        if metric != self.metric and metric in METRICS:
            self.metric = metric
            self.selection = None
            self.metric_changed.emit(metric)
            self.results_changed.emit()

    def set_params(self, metric: str, values: Mapping[str, Any]) -> None:
        """Change a metric's parameters and re-evaluate that metric (current image first)."""
        make_params(METRICS[metric], values)  # raises on a bad value before anything changes
        self.overrides[metric] = dict(values)
        self.evaluate([metric])
        self.b.evaluate([metric])

    # ---------------------------------------------------------------- evaluation
    def evaluate(self, metrics: list[str] | None = None) -> None:
        if self.dataset is None:
            return
        specs = [METRICS[m] for m in (metrics or self.metric_ids())]
        if self.metric is not None and METRICS[self.metric] in specs:
            specs.sort(key=lambda s: s.id != self.metric)
        self.store.start(
            self.dataset, specs, self.overrides, self.sample_id, self.progress_changed.emit
        )

    def cancel(self) -> None:
        self.store.cancel()
        self.b.cancel()

    def is_busy(self) -> bool:
        return self.store.is_busy() or self.b.is_busy()

    def wait(self, timeout_ms: int = 120_000) -> bool:
        """Block until the running evaluations end (tests and headless screenshots)."""
        ok = self.store.wait(timeout_ms)
        return self.b.wait(timeout_ms) and ok

    # ---------------------------------------------------------------- current sample
    def sample(self) -> Sample | None:
        if self.dataset is None or self.sample_id is None:
            return None
        return self.dataset[self.sample_id]

    def evaluation(self, metric: str | None = None) -> Evaluation | None:
        mid = metric or self.metric
        return None if mid is None else self.evaluations.get(mid)

    def result(
        self, metric: str | None = None, sample_id: str | None = None
    ) -> SampleResult | None:
        return self.store.result(metric or self.metric, sample_id or self.sample_id)

    def problems(self) -> tuple[Problem, ...]:
        return self.dataset.problems if self.dataset is not None else ()

    def sample_ids(self) -> list[str]:
        return [s.id for s in self.dataset] if self.dataset is not None else []

    def set_sample(self, sample_id: str) -> None:
        if self.dataset is None:
            return
        self.sample_chosen = True  # someone asked for this sample: keep it
        if sample_id == self.sample_id:
            return
        self.dataset[sample_id]  # KeyError for an unknown id
        self.sample_id = sample_id
        self.selection = self.hovered = None
        self.sample_changed.emit(sample_id)

    def step(self, delta: int, order: list[str] | None = None) -> None:
        """Next/previous sample in ``order`` (the table's order) or in dataset order."""
        ids = order or self.sample_ids()
        if not ids:
            return
        k = ids.index(self.sample_id) if self.sample_id in ids else -1
        self.set_sample(ids[(k + delta) % len(ids)])

    def select(self, ref: Ref | None) -> None:
        if ref != self.selection:
            self.selection = ref
            self.selection_changed.emit(ref)

    def hover(self, ref: Ref | None) -> None:
        if ref != self.hovered:
            self.hovered = ref
            self.hover_changed.emit(ref)

    def set_visible(self, ids: list[str]) -> None:
        """The samples the table shows (after filters), in its order."""
        if ids != self.visible_ids:
            self.visible_ids = list(ids)
            self.visible_changed.emit(self.visible_ids)

    def set_layers(self, layers: frozenset[str]) -> None:
        if layers != self.layers:
            self.layers = frozenset(layers)
            self.layers_changed.emit(self.layers)

    def toggle_layer(self, key: str) -> None:
        self.set_layers(self.layers ^ {key})
