"""Opening a dataset from files without holding the window: the table's rows first (when the
reader can pair the files without reading them), then reading and planning on a worker
thread, then the dataset shown and evaluated (``Session.set_dataset``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from PySide6.QtCore import SignalInstance

from metrics.core.model import Dataset
from metrics.io.icdar.plan import SWAPPED
from metrics.run.runner import Plan
from viewer.app.paths import DatasetPaths, reading_overrides
from viewer.jobs import check_process
from viewer.jobs.workers import load_in_background
from viewer.scene.rows import SampleRow


class Opening(Protocol):
    """What opening asks of the session (``viewer.app.session.Session``)."""

    loading: bool
    pending_rows: list[SampleRow]

    @property
    def error_raised(self) -> SignalInstance: ...

    @property
    def loading_changed(self) -> SignalInstance: ...

    @property
    def refused(self) -> SignalInstance: ...

    @property
    def overrides(self) -> Mapping[str, Mapping[str, object]]: ...

    def set_dataset(
        self, ds: Dataset, paths: DatasetPaths | None = None, plan: Plan | None = None
    ) -> None: ...


def open_dataset(session: Opening, paths: DatasetPaths) -> bool:
    """Load a dataset and start evaluating it; on bad input say why and keep the old one
    (a set the CLI refuses is refused in the window too: ``refused``).

    Reading and planning run on a worker thread while the window keeps painting
    (``loading_changed``); a second open while one is loading is refused."""
    if session.loading:
        session.error_raised.emit("a dataset is still loading")
        return False
    session.loading = True
    session.pending_rows = []
    session.loading_changed.emit(True)
    check_process.stop_all()  # an older set's plan or check is of no use any more
    big = check_process.input_bytes(paths) >= check_process.LARGE_BYTES
    companion = check_process.Companion(paths) if big else None  # checks it meanwhile
    try:
        loaded, error = load_in_background(
            paths, reading_overrides(session.overrides, paths), lambda rows: _pending(session, rows)
        )
    finally:
        session.loading = False
        session.pending_rows = []
        session.loading_changed.emit(False)
    refusal = None if loaded is None else refusal_of(loaded[0])
    if loaded is None or refusal is not None:
        if companion is not None:
            companion.stop()
        if refusal is not None:
            session.refused.emit(refusal)
        session.error_raised.emit(refusal or error)
        return False
    session.set_dataset(loaded[0], paths, loaded[1])
    return True


def refusal_of(ds: Dataset) -> str | None:
    """Why the set is not shown, when the CLI refuses it whatever the policy: --gt and
    --det swapped (no score of it means anything; the CLI's message)."""
    swapped = next((p for p in ds.problems if p.message.startswith(SWAPPED)), None)
    return None if swapped is None else str(swapped)


def _pending(session: Opening, rows: list[SampleRow]) -> None:
    """The new set's files are paired: the table lists them while they are read."""
    if session.loading:
        session.pending_rows = rows
        session.loading_changed.emit(True)
