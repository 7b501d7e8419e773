"""The dataset checker (``metrics.check``) run off the UI thread for the Problems panel and
the warnings layer: one ``CheckWorker`` per dataset, its findings kept by ``Checks``."""

from __future__ import annotations

import contextlib
import logging
import threading

from PySide6.QtCore import QObject, Signal

from metrics.check import Finding, check_dataset
from metrics.core.model import Dataset
from viewer.app.paths import DatasetPaths
from viewer.jobs import check_process
from viewer.jobs.quiet_gc import quiet_gc

log = logging.getLogger(__name__)


class CheckWorker(QObject):
    """Checks one dataset on a daemon thread; ``done`` carries the findings, or ``failed``
    the reason (delivered on the UI thread). A daemon thread, not a QThread: the checker
    cannot be interrupted, and a process that ends meanwhile (an option mistake found after
    loading, the window closed) must not wait for it or abort on a running QThread."""

    done = Signal(object)  # list[Finding]
    failed = Signal(str)

    def __init__(self, dataset: Dataset, paths: DatasetPaths | None = None) -> None:
        super().__init__()
        self.dataset, self.paths = dataset, paths  # paths: the files it was read from
        self._thread = threading.Thread(target=self._run, name="detlens-check", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def isRunning(self) -> bool:
        return self._thread.is_alive()

    def wait(self, timeout_ms: int) -> bool:
        self._thread.join(timeout_ms / 1000)
        return not self._thread.is_alive()

    def _check(self) -> list[Finding]:
        """A large set's findings come from the child process that planned it."""
        companion = check_process.take(self.paths)
        if companion is not None:
            try:
                return companion.findings()
            except check_process.Stopped:  # the window closed or another set is shown
                return []
            except RuntimeError as exc:  # checked here after all (holding the window)
                log.warning("the check process failed (%s); checking here", exc)
        with quiet_gc():  # no collection in this thread holds the UI thread
            return check_dataset(self.dataset)

    def _run(self) -> None:
        try:
            findings, error = self._check(), ""
        except Exception as exc:  # a checker bug must not take the window down
            log.warning("dataset check failed", exc_info=True)
            findings, error = [], f"dataset check failed ({type(exc).__name__}: {exc})"
        with contextlib.suppress(RuntimeError):  # the window (and this object) went away
            self.failed.emit(error) if error else self.done.emit(findings)


class Checks(QObject):
    """The findings of the shown dataset. ``changed`` is emitted when they arrive (or are
    cleared); ``version`` grows with every change so that caches can tell."""

    changed = Signal()

    def __init__(self) -> None:
        super().__init__()
        self.findings: list[Finding] = []
        self.by_sample: dict[str, list[Finding]] = {}
        self.error = ""
        self.running = False
        self.version = 0
        self._worker: CheckWorker | None = None
        self._dataset: Dataset | None = None
        self._retired: list[CheckWorker] = []

    def start(self, dataset: Dataset, paths: DatasetPaths | None = None) -> None:
        """Check ``dataset`` (the findings of an older dataset are dropped now); a large one
        read from ``paths`` is checked by a child process (``viewer.jobs.check_process``)."""
        self._dataset = dataset
        self._set([], "")
        check_process.stop_all(keep=paths)  # an older set's check is of no use any more
        worker = CheckWorker(dataset, paths)
        worker.done.connect(lambda found, d=dataset: self._on_worker_done(d, found))
        worker.failed.connect(lambda msg, d=dataset: self._on_worker_failed(d, msg))
        if self._worker is not None:  # its signals must outlive its run
            self._retired = [w for w in (*self._retired, self._worker) if w.isRunning()]
        self._worker = worker
        self.running = True
        worker.start()

    def wait(self, timeout_ms: int = 60_000) -> bool:
        worker = self._worker
        return worker.wait(timeout_ms) if worker is not None else True

    def of_sample(self, sample_id: str | None) -> list[Finding]:
        return self.by_sample.get(sample_id or "", [])

    def _set(self, findings: list[Finding], error: str) -> None:
        self.findings, self.error = findings, error
        self.by_sample = {}
        for f in findings:
            if f.sample_id is not None:
                self.by_sample.setdefault(f.sample_id, []).append(f)
        self.version += 1
        self.changed.emit()

    def _on_worker_done(self, dataset: Dataset, findings: list[Finding]) -> None:
        if dataset is self._dataset:  # not a dataset that was replaced meanwhile
            self.running = False
            self._set(findings, "")

    def _on_worker_failed(self, dataset: Dataset, message: str) -> None:
        if dataset is self._dataset:
            self.running = False
            self._set([], message)
