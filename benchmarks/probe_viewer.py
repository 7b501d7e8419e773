"""How the viewer copes with a large set (issue 11): time to the first table rows and the
longest stall of the UI thread while the set is read, planned and evaluated.

``python benchmarks/probe_viewer.py --gt G --det D [--until rows|evaluated|all]`` (a
benchmark, not part of the shipped ``viewer`` package; it drives the real window) prints one JSON
object: ``first_rows_s`` when the table first has rows (an ICDAR txt set's sample ids,
listed before its boxes are read), ``loaded_s`` when the read set is shown, ``evaluated_s``
when the shown metric's results are in, ``all_evaluated_s`` when every metric's are (the
evaluation is over); it watches until then, or until the set is shown (``--until rows``) or
the shown metric's results are in (``--until evaluated``).
A 10 ms ``QTimer`` on the UI thread records the gaps between its ticks: a gap well
over 10 ms is the UI thread blocked (by its own work, or by a worker thread holding the
interpreter), so ``max_stall_ms`` is the longest time the window could not repaint or react.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import asdict, dataclass, field

TICK_MS = 10


@dataclass
class Probe:
    """What the UI thread saw, seconds from the start of opening the set."""

    first_rows_s: float | None = None  # the sample table has rows
    loaded_s: float | None = None  # the read set is shown (its rows have their counts)
    evaluated_s: float | None = None  # the shown metric's results are in
    all_evaluated_s: float | None = None  # every metric's results are in, nothing running
    max_stall_ms: float = 0.0
    stall_at_s: float = 0.0  # when the longest stall ended
    stalls_over_100ms: int = 0
    rows: int = 0
    samples: int = 0
    metric: str = ""
    stalls: list[tuple[float, float]] = field(default_factory=list)  # (at s, ms) over 50 ms


def measure(gt: str, det: str, until: str = "all", limit_s: float = 600.0) -> Probe:
    """Open ``gt``/``det`` in a main window (offscreen when no display) and watch."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from viewer.app.main_window import MainWindow
    from viewer.app.paths import DatasetPaths

    app = QApplication.instance() or QApplication([])
    window = MainWindow(restore_layout=False)
    window.resize(1600, 900)
    window.show()
    app.processEvents()
    probe = Probe()
    t0 = time.perf_counter()
    last = [t0]
    model = window.samples.model

    def tick() -> None:
        now = time.perf_counter()
        gap = (now - last[0]) * 1000.0 - TICK_MS
        last[0] = now
        at = now - t0
        if gap > 50:
            probe.stalls.append((round(at, 3), round(gap, 1)))
        probe.stalls_over_100ms += gap > 100
        if gap > probe.max_stall_ms:
            probe.max_stall_ms, probe.stall_at_s = gap, at
        if probe.first_rows_s is None and model.rowCount() > 0:
            probe.first_rows_s = at
        s = window.session
        if probe.loaded_s is None and s.dataset is not None and not s.loading:
            probe.loaded_s = at
        if probe.evaluated_s is None and s.metric and s.metric in s.evaluations:
            probe.evaluated_s = at
        if probe.evaluated_s is not None and probe.all_evaluated_s is None and not s.is_busy():
            probe.all_evaluated_s = at

    timer = QTimer()
    timer.setInterval(TICK_MS)
    timer.timeout.connect(tick)
    timer.start()
    if not window.open_paths(DatasetPaths(gt=gt, det=det)):
        raise SystemExit(f"cannot open: {window.last_error}")
    key = {"rows": "loaded_s", "evaluated": "evaluated_s"}.get(until, "all_evaluated_s")
    while getattr(probe, key) is None and time.perf_counter() - t0 < limit_s:
        app.processEvents()
        time.sleep(0.001)
    timer.stop()
    probe.rows = model.rowCount()
    probe.samples = len(window.session.dataset or ())
    probe.metric = window.session.metric or ""
    window.session.cancel()
    window.close()
    return probe


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gt", required=True)
    parser.add_argument("--det", required=True)
    parser.add_argument("--until", choices=("rows", "evaluated", "all"), default="all")
    parser.add_argument("--limit", type=float, default=600.0, help="seconds to give up after")
    args = parser.parse_args(argv)
    probe = measure(args.gt, args.det, args.until, args.limit)
    print(json.dumps(asdict(probe)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
