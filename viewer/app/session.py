"""Session: the viewer's shared UI state: the sides (A, and B when comparing), the current
sample, the selection, the layers, and the signals that tell the widgets what changed.

Widgets receive the session, call its methods and listen to its signals; they never talk to
each other. Each side evaluates in its own thread (``viewer.jobs.workers``)."""

from __future__ import annotations

import gc
from collections.abc import Iterable, Mapping

from PySide6.QtCore import QObject, Signal

from metrics.analysis.compare import SampleDiff
from metrics.catalogue.registry import METRICS, PREFERRED, MetricSpec, make_params
from metrics.core.model import Dataset, InputError, Problem, Sample
from metrics.core.protocols import Params
from metrics.core.results import Evaluation, SampleResult
from metrics.io.reader import load_dataset
from metrics.run.runner import Plan
from viewer.app.paths import DatasetPaths, reading_overrides
from viewer.app.side import Side, detector_name, pair_diff, threshold_sides
from viewer.jobs.checks import Checks
from viewer.jobs.opening import open_dataset
from viewer.jobs.workers import ResultStore
from viewer.scene.gallery_state import GalleryView
from viewer.scene.items import Ref
from viewer.scene.layers import DEFAULT_LAYERS
from viewer.scene.rows import SampleRow

__all__ = ["PREFERRED", "DatasetPaths", "Session"]


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
    refused = Signal(str)  # a set refused as the CLI refuses it (said in the window)
    visible_changed = Signal(object)  # list of sample ids the table shows (filtered)
    comparison_changed = Signal()  # detector B or metric B added, renamed or closed
    loading_changed = Signal(bool)  # a dataset is being read (off the UI thread)
    threshold_changed = Signal(object)  # the score threshold (float) or None
    focus_changed = Signal(object)  # (ordered sample ids, label) from the Analysis panel, or None

    def __init__(self) -> None:
        super().__init__()
        self.paths: DatasetPaths | None = None
        self.a: Side | None = None  # the dataset's detector under the chosen metric
        self.b: Side | None = None  # the other side of a comparison
        self.sample_id: str | None = None
        self.selection: Ref | None = None
        self.hovered: Ref | None = None
        self.layers: frozenset[str] = DEFAULT_LAYERS
        self.visible_ids: list[str] = []
        self.sample_chosen = False  # until then the table may open the worst sample
        self.keep_zoom = False  # False: each image is fitted to the canvas when shown
        self.loading = False  # a dataset is being read
        self.pending_rows: list[SampleRow] = []  # the table's rows while it is read
        self.all_labels = False  # False: score labels only where credit was lost
        self.checks = Checks()  # detlens check's findings: Problems panel, warnings layer
        self.score_threshold: float | None = None  # detections with confidence >= it kept
        self.focus: tuple[list[str], str] | None = None  # images the Analysis panel picked
        self.focus_gts: dict[str, frozenset[int]] = {}  # and the GTs it lights up in them
        self.gallery_view = GalleryView()  # the gallery's filters and sort (the view state)

    # ---------------------------------------------------------------- sides
    @property
    def sides(self) -> tuple[Side | None, Side | None]:
        return self.a, self.b

    @property
    def dataset(self) -> Dataset | None:
        return self.a.dataset if self.a is not None else None

    @property
    def metric(self) -> str | None:
        return self.a.metric if self.a is not None else None

    @property
    def overrides(self) -> dict[str, dict[str, object]]:
        return self.a.overrides if self.a is not None else {}

    @property
    def evaluations(self) -> dict[str, Evaluation[Params]]:
        return self.a.evaluations if self.a is not None else {}

    @property
    def partial(self) -> dict[str, Evaluation[Params]]:
        return self.a.partial if self.a is not None else {}

    def _store(self) -> ResultStore:
        return ResultStore(self.results_changed.emit, self.error_raised.emit, self._emit_busy)

    def _emit_busy(self) -> None:
        busy = self.is_busy()
        if not busy:
            gc.freeze()  # the results stay while shown: full collections over them stalled a
            # 1,000-word page switch by ~80 ms (a replaced dataset is still freed by
            # reference counting; see viewer.jobs.quiet_gc)
        self.busy_changed.emit(busy)

    def _evaluating_sides(self) -> list[Side]:
        """The sides with a store of their own (a metric comparison shares A's)."""
        if self.a is None:
            return []
        if self.b is None or self.b.shares_results_with(self.a):
            return [self.a]
        return [self.a, self.b]

    # ---------------------------------------------------------------- dataset and metrics
    def open_dataset(self, paths: DatasetPaths) -> bool:
        """Load a dataset and start evaluating it (``viewer.jobs.opening``); False on bad input."""
        return open_dataset(self, paths)

    def set_dataset(
        self, ds: Dataset, paths: DatasetPaths | None = None, plan: Plan | None = None
    ) -> None:
        """Show a loaded dataset (side A) and start evaluating it."""
        self.cancel()
        self.close_comparison(emit=False)
        old, self.paths = self.a, paths
        self.a = Side(
            ds,
            self._store(),
            metric=None,
            det=paths.det if paths is not None else None,
            overrides=reading_overrides(old.overrides if old is not None else None, paths),
            progress=self.progress_changed.emit,
            plan=plan,
        )
        self.selection = self.hovered = None
        names = self.metric_ids()
        keep = old.metric if old is not None and old.metric in names else None
        self.a.metric = keep or next(
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
        self.checks.start(ds, paths)
        self.evaluate()

    def metric_ids(self) -> list[str]:
        return self.a.metric_ids() if self.a is not None else []

    def specs(self) -> list[MetricSpec[Params]]:
        return [METRICS[m] for m in self.metric_ids()]

    def params(self, metric: str | None = None) -> Params | None:
        return self.a.params(metric) if self.a is not None else None

    def set_metric(self, metric: str) -> None:
        a, b = self.sides
        if a is not None and metric != a.metric and metric in METRICS:
            a.metric = metric
            if b is not None and not b.shares_results_with(a):
                b.metric = metric  # two detectors: B follows A's metric
            self.selection = None
            self._evaluate_shown(metric)  # before the signals: the table sees it running
            self.metric_changed.emit(metric)
            self.results_changed.emit()

    def _evaluate_shown(self, metric: str) -> None:
        """On a large (lazy) set, a metric shown without results is evaluated now."""
        for side in self._evaluating_sides():
            if side.wants(metric):
                side.evaluate([metric], self.sample_id)

    def set_params(self, metric: str, values: Mapping[str, object]) -> None:
        """Change a metric's parameters and re-evaluate that metric (current image first)."""
        make_params(METRICS[metric], values)  # raises on a bad value before anything changes
        for side in self.sides:
            if side is not None:
                side.set_overrides(metric, values)
        for side in self._evaluating_sides():
            side.evaluate([metric], self.sample_id)

    # ---------------------------------------------------------------- comparison
    def add_detections(self, det: str) -> bool:
        """Compare with a second detection set on the same GT (detector B)."""
        a, p = self.a, self.paths
        if a is None or p is None:
            self.error_raised.emit("open a dataset first")
            return False
        try:
            ds = load_dataset(p.gt, det, gt_lines=p.gt_lines, images=p.images, options=p.options())
        except InputError as exc:
            self.error_raised.emit(str(exc))
            return False
        self.close_comparison(emit=False)
        a.name = detector_name(p.det)
        name = detector_name(det)
        self.b = Side(
            ds,
            self._store(),
            metric=a.metric,
            det=det,
            name=name + " (B)" if name == a.name else name,
            overrides=a.overrides,
        )
        if self.score_threshold is not None:  # B is filtered like A
            self.b.set_score_threshold(self.score_threshold)
        self.sample_chosen = False  # the table then opens the largest |ΔH| (unless chosen)
        self.comparison_changed.emit()
        self.b.evaluate(None if self.b.lazy else self.metric_ids(), self.sample_id)  # as A
        return True

    def compare_metrics(self, metric_b: str) -> bool:
        """Compare the current metric with ``metric_b`` on the same detector."""
        a = self.a
        if a is None or metric_b not in self.metric_ids():
            self.error_raised.emit(f"{metric_b} does not apply to this dataset")
            return False
        self.close_comparison(emit=False)
        a.name = a.metric or "A"
        self.b = Side(
            a.dataset,
            a.store,
            metric=metric_b,
            det=a.det,
            name=metric_b,
            overrides=a.overrides,
            plan=a.plan,
        )
        self.b.follow(a)
        self.sample_chosen = False  # the table then opens the largest |ΔH| (unless chosen)
        self.comparison_changed.emit()
        self._evaluate_shown(metric_b)
        return True

    def close_comparison(self, emit: bool = True) -> None:
        if self.compare_mode() == "detectors" and self.b is not None:
            self.b.store.clear()
        self.b = None
        if emit:
            self.comparison_changed.emit()

    def comparing(self) -> bool:
        return self.b is not None

    def compare_mode(self) -> str | None:
        """One of "detectors", "metrics" (one detector, two metrics) or None."""
        if self.a is None or self.b is None:
            return None
        return "metrics" if self.b.shares_results_with(self.a) else "detectors"

    def names(self) -> list[str]:
        """Display names of A and B (while comparing)."""
        if self.a is None or self.b is None:
            return ["A", "B"]
        return [self.a.name, self.b.name]

    def rename(self, side: int, name: str) -> None:
        target = self.sides[side]
        if target is not None:
            target.rename(name)
        self.comparison_changed.emit()

    def diff(self, sample_id: str | None = None) -> SampleDiff | None:
        """How A and B differ on a sample (None unless comparing)."""
        return pair_diff(*self.sides, sample_id or self.sample_id)

    # ---------------------------------------------------------------- evaluation
    def evaluate(self, metrics: list[str] | None = None) -> None:
        if self.a is not None:
            self.a.evaluate(metrics, self.sample_id)

    def cancel(self, wait: bool = True) -> None:
        """Stop the evaluations (``wait=False``: return at once, the Cancel button)."""
        for side in self._evaluating_sides():
            side.cancel(wait)

    def shutdown(self) -> None:
        """Stop and join every evaluation, and start none after (the window closes)."""
        for side in filter(None, self.sides):
            side.store.close()

    def is_busy(self) -> bool:
        return any(side.is_busy() for side in self._evaluating_sides())

    def wait(self, timeout_ms: int = 120_000) -> bool:
        """Block until the running evaluations end (tests and headless screenshots)."""
        return all([side.wait(timeout_ms) for side in self._evaluating_sides()])

    # ---------------------------------------------------------------- current sample
    def sample(self) -> Sample | None:
        return self.a.sample(self.sample_id) if self.a is not None else None

    def evaluation(self, metric: str | None = None) -> Evaluation[Params] | None:
        return self.a.evaluation(metric) if self.a is not None else None

    def result(
        self, metric: str | None = None, sample_id: str | None = None
    ) -> SampleResult | None:
        if self.a is None:
            return None
        return self.a.result(sample_id or self.sample_id, metric)

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

    def set_score_threshold(self, threshold: float | None) -> None:
        """Evaluate with the detections whose confidence is >= ``threshold`` (None: all),
        the current image first, then the dataset (off the UI thread)."""
        if threshold == self.score_threshold:
            return
        self.cancel()
        self.score_threshold = threshold
        threshold_sides(self.a, self.b, threshold)
        self.threshold_changed.emit(threshold)
        self.results_changed.emit()
        shown = [m for m in dict.fromkeys(x.metric for x in self.sides if x) if m]
        for side in self._evaluating_sides():  # the shown metrics first (the panel: the rest)
            side.evaluate(shown, self.sample_id)

    def set_focus(
        self, ids: list[str] | None, label: str = "", gts: Iterable[tuple[str, int]] = ()
    ) -> None:
        """Show only these images in the table, in this order (None: all again); ``gts``
        (sample id, GT index) are lit up on the canvas meanwhile (a bucket's GTs)."""
        self.focus = None if ids is None else (list(ids), label)
        found: dict[str, set[int]] = {}
        for sid, i in gts if ids is not None else ():
            found.setdefault(sid, set()).add(i)
        self.focus_gts = {sid: frozenset(v) for sid, v in found.items()}
        self.focus_changed.emit(self.focus)

    def set_layers(self, layers: frozenset[str]) -> None:
        if layers != self.layers:
            self.layers = frozenset(layers)
            self.layers_changed.emit(self.layers)

    def set_shown_threshold(self, metric: str, k: int | None) -> None:
        """Show a swept metric (MMOCR) at its k-th score threshold, on both sides."""
        for side in self.sides:
            if side is not None:
                side.set_shown_threshold(metric, k)
        self.results_changed.emit()

    def set_all_labels(self, on: bool) -> None:
        """Label every instance (True) or only those that lost credit (False)."""
        if on != self.all_labels:
            self.all_labels = on
            self.layers_changed.emit(self.layers)

    def toggle_layer(self, key: str) -> None:
        self.set_layers(self.layers ^ {key})
