"""The Analysis panel's computation off the UI thread."""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Mapping

from PySide6.QtCore import QObject, Signal

from metrics.catalogue.registry import METRICS, make_params
from metrics.core.model import Dataset
from metrics.core.protocols import Params
from metrics.core.results import Evaluation
from metrics.run.runner import run
from viewer.analysis.data import compute

log = logging.getLogger(__name__)


class AnalysisWorker(QObject):
    """Evaluates the metric on the unfiltered detections (the sweep starts from there) and
    computes the analysis; ``done`` carries the ``AnalysisData``, ``failed`` a message.

    On a daemon thread, not a QThread: the computation cannot be interrupted, and a process
    that ends meanwhile (a screenshot taken, the window closed) must neither wait for it nor
    abort on a running QThread."""

    done = Signal(object)
    failed = Signal(str)
    finished = Signal()

    def __init__(
        self,
        ds: Dataset,
        metric: str,
        overrides: Mapping[str, Mapping[str, object]],
        other: tuple[Dataset, str] | None,
        names: tuple[str, str],
    ) -> None:
        super().__init__()
        self._thread = threading.Thread(target=self._run, name="detlens-analysis", daemon=True)
        self.ds, self.metric, self.overrides, self.other, self.names = (
            ds,
            metric,
            overrides,
            other,
            names,
        )

    def _evaluate(self, ds: Dataset, metric: str) -> Evaluation[Params]:
        spec = METRICS[metric]
        return run(ds, [spec], {metric: self.overrides.get(metric, {})}, policy="skip_sample")[0]

    def start(self) -> None:
        self._thread.start()

    def isRunning(self) -> bool:
        return self._thread.is_alive()

    def wait(self, timeout_ms: int = 60_000) -> bool:
        self._thread.join(timeout_ms / 1000)
        return not self._thread.is_alive()

    def _run(self) -> None:
        data, error = None, ""
        try:
            ev = self._evaluate(self.ds, self.metric)
            other = None if self.other is None else self._evaluate(*self.other)
            prm = make_params(METRICS[self.metric], self.overrides.get(self.metric))
            side = None
            if self.other is not None:
                ds_b, metric_b = self.other
                side = (ds_b, make_params(METRICS[metric_b], self.overrides.get(metric_b)))
            data = compute(self.ds, ev, prm, other, self.names, other_side=side)
        except Exception as exc:  # an engine bug must not take the window down
            log.warning("analysis failed", exc_info=True)
            error = f"analysis failed ({type(exc).__name__}: {exc})"
        with contextlib.suppress(RuntimeError):  # the window (and this object) went away
            self.failed.emit(error) if error else self.done.emit(data)
            self.finished.emit()
