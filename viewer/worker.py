"""Evaluation off the UI thread: the runner's progress callback turned into Qt signals."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PySide6.QtCore import QThread, Signal

from metrics.model import Dataset, InputError
from metrics.registry import MetricSpec
from metrics.runner import Cancelled, run


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
