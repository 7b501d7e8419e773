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
from viewer.layers import LAYER_KEYS  # noqa: E402
from viewer.main_window import MainWindow  # noqa: E402


def switch_times(
    window: MainWindow, app: QApplication, ids: list[str], rounds: int = 5
) -> list[float]:
    out = []
    for k in range(rounds):
        for sid in ids:
            app.processEvents()
            t0 = time.perf_counter()
            window.session.set_sample(sid)
            window.canvas.viewport().repaint()
            if k:  # first round warms caches
                out.append(time.perf_counter() - t0)
    return out


def switching() -> None:
    app = QApplication.instance() or QApplication([])
    window = MainWindow()
    window.resize(1600, 1000)
    window.show()
    big, small = dense(2, 1000), dense(2, 10)
    for name, ds in (("1,000 words", big), ("10 words", small)):
        session = window.session
        session.dataset = Dataset(ds.samples)
        session.paths = None
        session.metric = "tiou"
        session.evaluations = {}
        session.set_layers(frozenset(LAYER_KEYS))
        session.dataset_changed.emit()
        session.evaluate()
        while session.is_busy() or not session.evaluations:
            app.processEvents()
            session.wait(20)
        app.processEvents()
        n = sum(len(s.gt) + len(s.det) for s in ds) // len(ds)
        times = switch_times(window, app, [s.id for s in ds])
        print(
            f"   switch to a {name} image ({n} instances), every layer on: "
            f"median {statistics.median(times) * 1000:.1f} ms, max {max(times) * 1000:.1f} ms"
        )
    window.close()


def first_window() -> None:
    code = (
        "import time, sys; t0 = time.perf_counter(); "
        "from metrics.cli import main; "
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
