"""Viewer fixtures: a main window on the demo data, evaluated (skips without PySide6)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

pytest.importorskip("PySide6", reason="viewer tests need PySide6 (pip install -e '.[test]')")

from PySide6.QtCore import QStandardPaths

from tests.support import demo_dataset_paths, wait_evaluated
from viewer.main_window import MainWindow

QStandardPaths.setTestModeEnabled(True)  # QSettings (recent datasets) away from the user's


@pytest.fixture
def window(qtbot) -> Iterator[MainWindow]:
    w = MainWindow()
    qtbot.addWidget(w)
    w.resize(1400, 900)
    w.show()
    assert w.open_paths(demo_dataset_paths("b"))
    wait_evaluated(qtbot, w.session)
    yield w
    w.session.cancel()
