"""The Analysis panel's computation off the UI thread."""

from __future__ import annotations

import logging
from typing import Any

from PySide6.QtCore import QThread, Signal

from metrics.model import Dataset
from metrics.registry import METRICS, make_params
from metrics.results import Evaluation
from metrics.runner import run
from viewer.analysis.data import compute

log = logging.getLogger(__name__)


class AnalysisWorker(QThread):
    """Evaluates the metric on the unfiltered detections (the sweep starts from there) and
    computes the analysis; ``done`` carries the ``AnalysisData``, ``failed`` a message."""

    done = Signal(object)
    failed = Signal(str)

    def __init__(
        self,
        ds: Dataset,
        metric: str,
        overrides: dict[str, Any],
        other: tuple[Dataset, str] | None,
        names: tuple[str, str],
    ) -> None:
        super().__init__()
        self.ds, self.metric, self.overrides, self.other, self.names = (
            ds,
            metric,
            overrides,
            other,
            names,
        )

    def _evaluate(self, ds: Dataset, metric: str) -> Evaluation:
        spec = METRICS[metric]
        return run(ds, [spec], {metric: self.overrides.get(metric, {})}, policy="skip_sample")[0]

    def run(self) -> None:
        try:
            ev = self._evaluate(self.ds, self.metric)
            other = None if self.other is None else self._evaluate(*self.other)
            prm = make_params(METRICS[self.metric], self.overrides.get(self.metric))
            self.done.emit(compute(self.ds, ev, prm, other, self.names))
        except Exception as exc:  # an engine bug must not take the window down
            log.exception("analysis failed")
            self.failed.emit(f"analysis failed ({type(exc).__name__}: {exc})")
