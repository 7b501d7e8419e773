"""Viewer fixtures: a main window on the demo data, evaluated."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

pytest.importorskip("PySide6", reason="viewer tests need PySide6 (pip install -e '.[test]')")

from PySide6.QtCore import QStandardPaths

from metrics.demo import demo_paths
from viewer.main_window import MainWindow
from viewer.session import DatasetPaths, Session

QStandardPaths.setTestModeEnabled(True)  # QSettings (recent datasets) away from the user's


def demo_dataset_paths(det: str = "a") -> DatasetPaths:
    d = demo_paths()
    return DatasetPaths(str(d.gt), str(d.det_a if det == "a" else d.det_b), str(d.images))


def wait_evaluated(qtbot, session: Session) -> None:
    qtbot.waitUntil(lambda: bool(session.evaluations) and not session.is_busy(), timeout=60000)


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
