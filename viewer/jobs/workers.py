"""Evaluation off the UI thread: the runner's progress callback turned into Qt signals."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from PySide6.QtCore import QEventLoop, QThread, Signal

from metrics.catalogue.registry import MetricSpec
from metrics.core.model import Dataset, InputError, Problem
from metrics.core.protocols import Params
from metrics.core.results import Evaluation, SampleResult
from metrics.run.runner import Cancelled, Plan, run
from viewer.app.paths import DatasetPaths
from viewer.jobs.planning import plan_in_runs
from viewer.jobs.quiet_gc import quiet_gc
from viewer.jobs.reading import read_set
from viewer.scene.row_lists import ordered_rows, prepare
from viewer.scene.rows import SampleRow, blank_row, sample_row

log = logging.getLogger(__name__)


Rows = dict[str, dict[str, tuple[SampleResult, SampleRow]]]


@dataclass(frozen=True)
class Evaluated:
    """One dataset pass of a worker: its evaluations, and the table's rows of each metric
    (made on the worker thread), by metric and in dataset order."""

    evals: list[Evaluation[Params]]
    rows: Rows
    ordered: dict[str, tuple[Evaluation[Params], list[SampleRow]]]
    taken: threading.Event = field(default_factory=threading.Event)  # the UI thread has them


HANDOVER_S = 2.0


class EvaluationWorker(QThread):
    """Runs the metrics: first the current sample alone (fast answer), then the dataset.

    An engine exception in one metric does not stop the others: the run is redone metric by
    metric and each failing metric is reported with its reason (``metric_failed``)."""

    progressed = Signal(int, int)
    sample_ready = Signal(object)  # list[Evaluation] over the current sample only
    evaluated = Signal(object)  # Evaluated: a dataset pass (the shown metric, then the rest)
    failed = Signal(str)
    metric_failed = Signal(str, str)  # metric id, why it has no result

    def __init__(
        self,
        dataset: Dataset,
        specs: Sequence[MetricSpec[Params]],
        overrides: Mapping[str, Mapping[str, object]],
        first: str | None,
        validated: Mapping[str, list[Problem]] | None = None,
    ) -> None:
        super().__init__()
        self.dataset, self.specs, self.overrides, self.first = dataset, specs, overrides, first
        self.validated = validated  # the plan's validation of these metrics, when still true
        self._cancel = False

    def cancel(self) -> None:
        self._cancel = True

    def run(self) -> None:
        with quiet_gc():  # no collection in this thread holds the UI thread
            self._evaluate()

    def _evaluate(self) -> None:
        try:
            if self.first is not None and len(self.dataset) > 1:
                one = Dataset(
                    (self.dataset[self.first],),
                    self.dataset.problems,
                    gt_lines_path=self.dataset.gt_lines_path,
                )
                self.sample_ready.emit(self._each(one, self.specs, None))
            for phase, progress in self._phases():
                evals = self._each(self.dataset, phase, progress, self.validated)
                rows = table_rows(self.dataset, evals)  # here, not on the UI thread
                ordered = {
                    e.metric: (e, ordered_rows(self.dataset, e, rows[e.metric])) for e in evals
                }
                done = Evaluated(evals, rows, ordered)
                self.evaluated.emit(done)
                self._handed_over(done)
        except Cancelled:
            for spec in self.specs:
                self.metric_failed.emit(spec.id, CANCELLED)
            self.failed.emit("evaluation cancelled")
        except Exception as exc:  # input refused as a whole, or a bug outside the metrics
            log.exception("evaluation failed")
            for spec in self.specs:
                self.metric_failed.emit(spec.id, f"{type(exc).__name__}: {exc}")
            self.failed.emit(f"evaluation failed ({type(exc).__name__}: {exc})")

    def _handed_over(self, done: Evaluated) -> None:
        """Wait (at most ``HANDOVER_S``) until the UI thread has taken a pass's results in
        before the next pass starts: taking in a large set's results (the table's rows
        sorted and reset) then runs alone, instead of sharing the interpreter with the next
        pass's work (on 25,000 images: 160 ms of a held window instead of about 90)."""
        deadline = time.monotonic() + HANDOVER_S
        while not self._cancel and not done.taken.wait(0.02):
            if time.monotonic() > deadline:
                return

    def _phases(self) -> list[tuple[list[MetricSpec[Params]], Callable[[int, int], None]]]:
        """The dataset passes: the first metric (the one shown) alone, then the others
        together, so that the shown metric's results come in when it is done instead of
        after every metric (on a 25,000-image set, minutes apart). Progress runs over both:
        each pass its share of the metrics."""
        specs, n = list(self.specs), max(1, len(self.dataset))
        phases = [specs[:1], specs[1:]] if len(specs) > 1 else [specs]
        total, out, before = n * len(specs), [], 0
        for phase in phases:
            out.append((phase, self._scaled(before, len(phase), n, total)))
            before += len(phase)
        return out

    def _scaled(self, before: int, weight: int, n: int, total: int) -> Callable[[int, int], None]:
        def progress(done: int, of: int) -> None:
            self.progressed.emit(before * n + done * weight * n // max(1, of), total)

        return progress

    def _each(
        self,
        ds: Dataset,
        specs: Sequence[MetricSpec[Params]],
        progress: Callable[[int, int], None] | None,
        validated: Mapping[str, list[Problem]] | None = None,
    ) -> list[Evaluation[Params]]:
        """Every metric in one pass; if the engine fails, metric by metric, so one metric's
        failure leaves the others their results and itself its reason."""
        try:
            return self._run(ds, specs, progress, validated)
        except (Cancelled, InputError):
            raise
        except Exception as exc:
            if len(specs) == 1:
                self._report(specs[0], exc)
                return []
            log.warning("evaluation failed (%s); evaluating metric by metric", exc)
        out: list[Evaluation[Params]] = []
        for spec in specs:
            try:
                out.extend(self._run(ds, [spec], progress))
            except Cancelled:
                raise
            except Exception as exc:  # an engine bug must not take the window down
                self._report(spec, exc)
        return out

    def _run(
        self,
        ds: Dataset,
        specs: Sequence[MetricSpec[Params]],
        progress: Callable[[int, int], None] | None,
        validated: Mapping[str, list[Problem]] | None = None,
    ) -> list[Evaluation[Params]]:
        return run(
            ds,
            specs,
            self.overrides,
            policy="skip_sample",
            validated=validated,  # not validated twice (long array calls hold the window)
            progress=progress,
            cancel=lambda: self._cancel,
            first=self.first,
        )

    def _report(self, spec: MetricSpec[Params], exc: Exception) -> None:
        if isinstance(exc, (InputError, KeyError, ValueError, TypeError)):
            why = str(exc)
        else:
            log.error("%s failed", spec.id, exc_info=exc)
            why = f"engine error: {type(exc).__name__}: {exc}"
        self.metric_failed.emit(spec.id, why)
        self.failed.emit(f"{spec.id} not evaluated: {why}")


CANCELLED = "cancelled"


def table_rows(
    ds: Dataset, evals: Sequence[Evaluation[Params]]
) -> dict[str, dict[str, tuple[SampleResult, SampleRow]]]:
    """The sample table's row of every evaluated sample under each metric, with the result
    it was made from (the table uses a row only while that result is the one shown)."""
    return {
        e.metric: {sid: (r, sample_row(ds[sid], r)) for sid, r in e.results.items()} for e in evals
    }


class ResultStore:
    """The evaluations of one side (A or B) and the worker that fills them.

    ``partial`` holds the current sample's results that arrive first; ``evaluations`` the
    dataset's; ``failures`` why a metric has none (its engine error, or ``CANCELLED``).
    Starting a run drops the results of the metrics it re-evaluates, so results of older
    parameters are never shown under new ones, and signals of a replaced worker are
    ignored. ``changed`` is called after any update, ``failed`` with a message, ``busy``
    when the worker starts or ends.
    """

    def __init__(
        self, changed: Callable[[], None], failed: Callable[[str], None], busy: Callable[[], None]
    ) -> None:
        self.evaluations: dict[str, Evaluation[Params]] = {}
        self.partial: dict[str, Evaluation[Params]] = {}
        self.failures: dict[str, str] = {}
        self.rows: dict[str, dict[str, tuple[SampleResult, SampleRow]]] = {}  # table rows
        self.ordered: dict[str, tuple[Evaluation[Params], list[SampleRow]]] = {}  # in dataset order
        self._changed, self._failed, self._busy = changed, failed, busy
        self._worker: EvaluationWorker | None = None
        self._running = False
        self._retired: list[EvaluationWorker] = []  # stopped, maybe still ending their block
        self._blocked = 0  # in a cancel's callbacks (blocking, or start's): start() is a no-op
        self._closed = False  # close(): start() does nothing any more

    def start(
        self,
        dataset: Dataset,
        specs: Sequence[MetricSpec[Params]],
        overrides: Mapping[str, Mapping[str, object]],
        first: str | None,
        progress: Callable[[int, int], None] | None = None,
        validated: Mapping[str, list[Problem]] | None = None,
    ) -> None:
        if self._closed or self._blocked:  # closing, or inside the callbacks of a cancel
            log.debug("%d metric(s) not evaluated: the store is stopping", len(specs))
            return
        self._blocked += 1  # a listener of the cancel starts nothing: this run replaces it
        try:
            self.cancel(wait=False)
        finally:
            self._blocked -= 1
        for spec in specs:
            self.evaluations.pop(spec.id, None)
            self.partial.pop(spec.id, None)
            self.failures.pop(spec.id, None)
        worker = EvaluationWorker(dataset, specs, overrides, first, validated)

        def mine() -> bool:  # signals of a replaced (cancelled) worker are dropped
            return worker is self._worker

        if progress is not None:
            worker.progressed.connect(lambda d, t: progress(d, t) if mine() else None)
        worker.sample_ready.connect(lambda e: self._on_worker_sample_ready(e) if mine() else None)
        worker.evaluated.connect(lambda e: self._on_worker_evaluated(e) if mine() else None)
        worker.metric_failed.connect(lambda m, w: self._on_metric_failed(m, w) if mine() else None)
        worker.failed.connect(lambda msg: self._failed(msg) if mine() else None)
        worker.finished.connect(lambda: self._on_worker_finished(worker))
        self._worker, self._running = worker, True
        worker.start()
        self._busy()
        self._changed()

    def cancel(self, wait: bool = True) -> None:
        """Stop the running worker; the metrics it had not finished are marked cancelled.

        ``wait=False`` (the Cancel button, a re-run) returns at once: the worker stops at
        its next block and its late signals are ignored; ``wait=True`` (closing, a new
        dataset) also waits for every stopped worker to end."""
        worker, running = self._worker, self._running
        self._worker, self._running = None, False  # final before the callbacks below
        if worker is not None and running:
            worker.cancel()
            self._retired.append(worker)
            for spec in worker.specs:
                if spec.id not in self.evaluations:
                    self.partial.pop(spec.id, None)
                    self.failures.setdefault(spec.id, CANCELLED)
            self._blocked += wait  # a listener starts nothing while this waits (below)
            try:
                self._busy()
                self._changed()
            finally:
                self._blocked -= wait
        if wait:
            for old in self._retired:
                old.wait()
        self._retired = [w for w in self._retired if w.isRunning()]

    def close(self) -> None:
        """Stop and join every worker of this store; nothing starts afterwards (the window
        closes: a thread destroyed while running aborts the process)."""
        self._closed = True
        self.cancel(wait=True)

    def clear(self) -> None:
        self.cancel()
        self.evaluations, self.partial, self.failures, self.rows = {}, {}, {}, {}
        self.ordered = {}

    def running(self) -> set[str]:
        """The metrics the running worker evaluates (none when idle)."""
        worker = self._worker
        return {s.id for s in worker.specs} if worker is not None and self._running else set()

    def is_busy(self) -> bool:
        """Running, or finished with its results still on their way to this thread."""
        return self._worker is not None and self._running

    def _on_worker_finished(self, worker: EvaluationWorker) -> None:
        if worker is self._worker:  # delivered after the worker's last results
            self._running = False
        self._busy()

    def wait(self, timeout_ms: int) -> bool:
        return self._worker.wait(timeout_ms) if self._worker is not None else True

    def result(self, metric: str | None, sample_id: str | None) -> SampleResult | None:
        if metric is None or sample_id is None:
            return None
        for source in (self.evaluations, self.partial):
            ev = source.get(metric)
            if ev is not None and sample_id in ev.results:
                return ev.results[sample_id]
        return None

    def _on_worker_sample_ready(self, evals: list[Evaluation[Params]]) -> None:
        self.partial.update({e.metric: e for e in evals})
        self._changed()

    def _on_worker_evaluated(self, done: Evaluated) -> None:
        self.rows.update(done.rows)
        self.ordered.update(done.ordered)
        self.evaluations.update({e.metric: e for e in done.evals})
        for e in done.evals:
            self.partial.pop(e.metric, None)
        self._changed()
        done.taken.set()

    def _on_metric_failed(self, metric: str, why: str) -> None:
        if metric not in self.evaluations:
            self.failures[metric] = why
            self.partial.pop(metric, None)
            self._changed()


class LoadWorker(QThread):
    """Reads a dataset and plans its metrics off the UI thread (``result`` afterwards:
    (dataset, plan), or ``error`` with the message); ``paired`` carries the table's rows
    (sample ids only) as soon as the files are paired (``viewer.jobs.reading``)."""

    paired = Signal(object)  # list[SampleRow], blank

    def __init__(self, paths: DatasetPaths, overrides: Mapping[str, Mapping[str, object]]) -> None:
        super().__init__()
        self.paths, self.overrides = paths, overrides
        self.result: tuple[Dataset, Plan] | None = None
        self.error = ""

    def run(self) -> None:
        with quiet_gc():  # no collection in this thread holds the UI thread
            self._load()

    def _load(self) -> None:
        p = self.paths
        try:
            ds = read_set(p, lambda ids: self.paired.emit([blank_row(i) for i in ids]))
            prepare(ds)  # the table's blank rows and the attribute index, here
            self.result = (ds, plan_in_runs(ds, self.overrides))
        except InputError as exc:
            self.error = str(exc)
        except Exception as exc:  # a reader bug must not take the window down
            log.exception("loading failed")
            self.error = f"loading failed ({type(exc).__name__}: {exc})"


def load_in_background(
    paths: DatasetPaths,
    overrides: Mapping[str, Mapping[str, object]],
    paired: Callable[[list[SampleRow]], None] | None = None,
) -> tuple[tuple[Dataset, Plan] | None, str]:
    """Load and plan on a worker thread while the UI keeps handling events (it repaints,
    shows progress, lists the sample ids: ``paired``); returns when done: ((dataset, plan)
    or None, error message)."""
    worker = LoadWorker(paths, overrides)
    if paired is not None:
        worker.paired.connect(paired)
    loop = QEventLoop()
    worker.finished.connect(loop.quit)
    worker.start()
    if not worker.isFinished():
        loop.exec()
    worker.wait()
    return worker.result, worker.error
