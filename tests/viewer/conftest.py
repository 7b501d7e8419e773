"""Viewer fixtures: a main window on the demo data, evaluated.

Without PySide6 the Qt tests here are not collected (they need `pip install -e '.[test]'`);
``scene/`` holds the tests of the Qt-free scene, which run in the engine-only environment
too (``.ci/run``).
"""

from __future__ import annotations

import importlib.util
import threading
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from viewer.app.main_window import MainWindow

if importlib.util.find_spec("PySide6") is None:
    collect_ignore_glob = ["test_*.py", "golden_cases.py"]
else:
    from PySide6.QtCore import QStandardPaths

    QStandardPaths.setTestModeEnabled(True)  # QSettings (recent datasets) away from the user's


@pytest.fixture(autouse=True)
def _fresh_settings() -> Iterator[None]:
    """Each test starts without saved settings: a window restores the dock layout and the
    recent datasets an earlier test's window saved (in Qt's test-mode location, which
    outlives the run), which made canvas sizes depend on the order of the tests."""
    if importlib.util.find_spec("PySide6") is not None:
        from PySide6.QtCore import QSettings

        QSettings("detlens", "detlens").clear()
    yield


@pytest.fixture
def window(qtbot) -> Iterator[MainWindow]:
    from tests.support import demo_dataset_paths, wait_evaluated
    from viewer.app.main_window import MainWindow

    w = MainWindow()
    qtbot.addWidget(w)
    w.resize(1400, 900)
    w.show()
    assert w.open_paths(demo_dataset_paths("b"))
    wait_evaluated(qtbot, w.session)
    yield w
    w.session.cancel()


@pytest.fixture
def hold_whole_set(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """The viewer's evaluation of a whole set waits until the event is set (the current
    image's own run goes through): what the window shows before the set's results."""
    import viewer.jobs.workers as workers

    release = threading.Event()
    real_run = workers.run

    def held_run(ds: Any, *args: Any, **kwargs: Any) -> Any:
        if len(ds) > 1:
            release.wait(30)
        return real_run(ds, *args, **kwargs)

    monkeypatch.setattr(workers, "run", held_run)
    yield release
    release.set()
