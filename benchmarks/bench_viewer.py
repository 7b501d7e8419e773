"""Viewer benchmark (not part of the test run).

    python benchmarks/bench_viewer.py

1. Switching to a 1,000-word image (1,000 GT + ~1,000 detections, TIoU evidence) with every
   layer on: building the draw items and painting the canvas, after the engine result exists
   (target: at most 50 ms). Compared in the same run with switching to a 10-word image.
2. Time from starting ``detlens view`` to the first window on screen (target: 1.5 s), as a
   whole process, best of 3.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_metrics import dense  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from metrics.model import Dataset  # noqa: E402
from viewer.main_window import MainWindow  # noqa: E402
from viewer.scene.layers import LAYER_KEYS  # noqa: E402


def _switch(window: MainWindow, app: QApplication, sid: str) -> float:
    app.processEvents()
    t0 = time.perf_counter()
    window.session.set_sample(sid)
    window.canvas.viewport().repaint()
    return time.perf_counter() - t0


def _evaluate(window: MainWindow, app: QApplication, ds: Dataset, layers: frozenset[str]) -> None:
    session = window.session
    session.set_layers(layers)
    session.set_dataset(Dataset(ds.samples))  # evaluates every metric, tiou first
    session.set_metric("tiou")
    while session.is_busy() or not session.evaluations:
        app.processEvents()
        session.wait(20)
    app.processEvents()


def switching() -> None:
    app = QApplication.instance() or QApplication([])
    window = MainWindow()
    window.resize(1600, 1000)
    window.show()
    runs = (
        ("1,000 words", dense(9, 1000), frozenset(LAYER_KEYS), "every layer on"),
        (
            "1,000 words",
            dense(9, 1000),
            frozenset(LAYER_KEYS) - {"text"},
            "every layer but the transcriptions (the layers before they existed)",
        ),
        ("10 words", dense(9, 10), frozenset(LAYER_KEYS), "every layer on"),
    )
    for name, ds, layers, what in runs:
        _evaluate(window, app, ds, layers)
        ids = [s.id for s in ds]
        _switch(window, app, ids[0])  # warm-up (fonts, caches of Qt)
        first = [_switch(window, app, sid) for sid in ids[1:]]  # never shown before
        again = [_switch(window, app, sid) for sid in ids[1:4] * 3]  # shown recently
        n = sum(len(s.gt) + len(s.det) for s in ds) // len(ds)
        print(
            f"   switch to a {name} image ({n} instances), {what}: first visit "
            f"median {statistics.median(first) * 1000:.1f} ms (max {max(first) * 1000:.1f}),"
            f" revisit median {statistics.median(again) * 1000:.1f} ms"
        )
    window.close()


def first_window() -> None:
    code = (
        "import time, sys; t0 = time.perf_counter(); "
        "from metrics.cli.main import main; "
        "sys.exit(main(['view', '--quit-after-show']))"
    )
    walls = []
    for _ in range(3):
        t0 = time.perf_counter()
        subprocess.run(
            [sys.executable, "-c", code],
            check=True,
            capture_output=True,
            env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
        )
        walls.append(time.perf_counter() - t0)
    print(
        f"   detlens view (demo data) to first window shown, whole process: best "
        f"{min(walls):.2f} s of 3 (target 1.5 s)"
    )


if __name__ == "__main__":
    print("== Viewer ==")
    switching()
    first_window()
