"""Evaluation off the UI thread: the runner's progress callback turned into Qt signals."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from PySide6.QtCore import QEventLoop, QThread, Signal

from metrics.io.reader import load_dataset
from metrics.model import Dataset, InputError
from metrics.registry import MetricSpec, applicable
from metrics.results import Evaluation, SampleResult
from metrics.runner import Cancelled, Plan, plan_all, run
from viewer.paths import DatasetPaths

log = logging.getLogger(__name__)


class EvaluationWorker(QThread):
    """Runs the metrics: first the current sample alone (fast answer), then the dataset."""

    progressed = Signal(int, int)
    sample_ready = Signal(object)  # list[Evaluation] over the current sample only
    evaluated = Signal(object)  # list[Evaluation] over the whole dataset
    failed = Signal(str)

    def __init__(
        self,
        dataset: Dataset,
        specs: Sequence[MetricSpec],
        overrides: Mapping[str, Mapping[str, Any]],
        first: str | None,
    ) -> None:
        super().__init__()
        self.dataset, self.specs, self.overrides, self.first = dataset, specs, overrides, first
        self._cancel = False

    def cancel(self) -> None:
        self._cancel = True

    def run(self) -> None:
        try:
            if self.first is not None and len(self.dataset) > 1:
                one = Dataset(
                    (self.dataset[self.first],),
                    self.dataset.problems,
                    gt_lines_path=self.dataset.gt_lines_path,
                )
                self.sample_ready.emit(run(one, self.specs, self.overrides, policy="skip_sample"))
            evals = run(
                self.dataset,
                self.specs,
                self.overrides,
                policy="skip_sample",
                progress=self.progressed.emit,
                cancel=lambda: self._cancel,
                first=self.first,
            )
            self.evaluated.emit(evals)
        except Cancelled:
            self.failed.emit("evaluation cancelled")
        except (InputError, KeyError, ValueError, TypeError) as exc:
            self.failed.emit(str(exc))
        except Exception as exc:  # an engine bug must not take the window down
            log.exception("evaluation failed")
            self.failed.emit(f"evaluation failed ({type(exc).__name__}: {exc})")


class ResultStore:
    """The evaluations of one side (A or B) and the worker that fills them.

    ``partial`` holds the current sample's results that arrive first; ``evaluations`` the
    dataset's. ``changed`` is called after either update, ``failed`` with a message,
    ``busy`` when the worker starts or ends.
    """

    def __init__(
        self, changed: Callable[[], None], failed: Callable[[str], None], busy: Callable[[], None]
    ) -> None:
        self.evaluations: dict[str, Evaluation] = {}
        self.partial: dict[str, Evaluation] = {}
        self._changed, self._failed, self._busy = changed, failed, busy
        self._worker: EvaluationWorker | None = None

    def start(
        self,
        dataset: Dataset,
        specs: Sequence[MetricSpec],
        overrides: Mapping[str, Mapping[str, Any]],
        first: str | None,
        progress: Callable[[int, int], None] | None = None,
    ) -> None:
        self.cancel()
        worker = EvaluationWorker(dataset, specs, overrides, first)
        if progress is not None:
            worker.progressed.connect(progress)
        worker.sample_ready.connect(self._on_worker_sample_ready)
        worker.evaluated.connect(self._on_worker_evaluated)
        worker.failed.connect(self._failed)
        worker.finished.connect(self._busy)
        self._worker = worker
        worker.start()
        self._busy()

    def cancel(self) -> None:
        if self._worker is not None and self._worker.isRunning():
            self._worker.cancel()
            self._worker.wait()
        self._worker = None

    def clear(self) -> None:
        self.cancel()
        self.evaluations, self.partial = {}, {}

    def is_busy(self) -> bool:
        return self._worker is not None and self._worker.isRunning()

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

    def _on_worker_sample_ready(self, evals: list[Evaluation]) -> None:
        self.partial.update({e.metric: e for e in evals})
        self._changed()

    def _on_worker_evaluated(self, evals: list[Evaluation]) -> None:
        self.evaluations.update({e.metric: e for e in evals})
        for e in evals:
            self.partial.pop(e.metric, None)
        self._changed()


class LoadWorker(QThread):
    """Reads a dataset and plans its metrics off the UI thread (``result`` afterwards:
    (dataset, plan), or ``error`` with the message)."""

    def __init__(self, paths: DatasetPaths, overrides: Mapping[str, Mapping[str, Any]]) -> None:
        super().__init__()
        self.paths, self.overrides = paths, overrides
        self.result: tuple[Dataset, Plan] | None = None
        self.error = ""

    def run(self) -> None:
        p = self.paths
        try:
            ds = load_dataset(p.gt, p.det, gt_lines=p.gt_lines, images=p.images)
            self.result = (ds, plan_all(ds, applicable(ds), self.overrides))
        except InputError as exc:
            self.error = str(exc)
        except Exception as exc:  # a reader bug must not take the window down
            log.exception("loading failed")
            self.error = f"loading failed ({type(exc).__name__}: {exc})"


def load_in_background(
    paths: DatasetPaths, overrides: Mapping[str, Mapping[str, Any]]
) -> tuple[tuple[Dataset, Plan] | None, str]:
    """Load and plan on a worker thread while the UI keeps handling events (it repaints,
    shows progress); returns when done: ((dataset, plan) or None, error message)."""
    worker = LoadWorker(paths, overrides)
    loop = QEventLoop()
    worker.finished.connect(loop.quit)
    worker.start()
    if not worker.isFinished():
        loop.exec()
    worker.wait()
    return worker.result, worker.error
