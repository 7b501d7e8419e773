"""What a robustness review found in the viewer (issue 12, point 5), each as a regression
test: an engine exception, screenshots that spin, Defaults and Cancel while busy, stale
results after a cancelled re-run, a metric switch that freezes the window, and opening
5,000 empty images."""

from __future__ import annotations

import dataclasses
import os
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QEventLoop, QTimer

from metrics.catalogue.registry import METRICS
from metrics.cli.main import main
from tests.support import demo_dataset_paths, wait_evaluated, write_zip
from viewer.app.main_window import MainWindow
from viewer.app.session import DatasetPaths


def _broken(*_: Any) -> Sequence[Any]:
    raise RuntimeError("GEOS said no")


def _patch(monkeypatch: pytest.MonkeyPatch, metric: str, evaluate: Any) -> None:
    """Replace a metric's evaluate in the (lazily loaded) registry for this test."""
    spec = METRICS[metric]  # loads its family first
    new = dataclasses.replace(spec, evaluate=evaluate)
    monkeypatch.setitem(METRICS._loaded, metric, new)  # type: ignore[attr-defined]


@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """TIoU waits for this event before it evaluates (a slow metric, on demand)."""
    event = threading.Event()
    spec = METRICS["tiou"]

    def slow(samples: Sequence[Any], params: Any) -> Sequence[Any]:
        event.wait(30)
        return spec.evaluate(samples, params)

    _patch(monkeypatch, "tiou", slow)
    yield event
    event.set()


def _window(qtbot: Any, paths: DatasetPaths | None = None) -> MainWindow:
    w = MainWindow(restore_layout=False)
    qtbot.addWidget(w)
    w.show()
    assert w.open_paths(paths or demo_dataset_paths("b"))
    return w


def test_engine_exception_is_shown_for_that_metric_only(
    qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An exception outside the runner's per-sample guard (here in ``finalize``)."""
    spec = METRICS["tiou"]
    new = dataclasses.replace(spec, finalize=_broken)
    monkeypatch.setitem(METRICS._loaded, "tiou", new)  # type: ignore[attr-defined]
    w = _window(qtbot)
    s = w.session
    qtbot.waitUntil(lambda: not s.is_busy(), timeout=60000)
    assert s.metric == "tiou" and s.evaluation("tiou") is None
    assert "RuntimeError: GEOS said no" in (s.a.failure("tiou") or "")
    assert s.evaluation("ic15_iou") is not None and s.evaluation("tedeval") is not None
    text = w.summary.text()
    assert "not evaluated (failed: engine error: RuntimeError: GEOS said no)" in text
    assert "evaluating" not in text
    s.cancel()


def test_metric_failing_on_every_image_says_why(
    qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Per-sample exceptions become located problems (``metrics.run.guard``): the summary gives
    the first one instead of "evaluating…"."""
    _patch(monkeypatch, "tiou", _broken)
    w = _window(qtbot)
    s = w.session
    qtbot.waitUntil(lambda: not s.is_busy(), timeout=60000)
    text = w.summary.text()
    assert "no image could be evaluated; first:" in text and "GEOS said no" in text
    assert "evaluating" not in text
    s.cancel()


def test_screenshot_of_a_failed_metric_exits_1_at_once(
    qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    _patch(monkeypatch, "tiou", _broken)
    t0 = time.perf_counter()
    code = main(["view", "--screenshot", str(tmp_path / "x.png"), "--metric", "tiou"])
    assert code == 1 and time.perf_counter() - t0 < 60
    err = capsys.readouterr().err
    assert "detlens: error: tiou not evaluated: no image could be evaluated; first:" in err
    assert "GEOS said no" in err and "Traceback" not in err
    assert not (tmp_path / "x.png").exists()


def test_defaults_disabled_while_busy_and_cancel_says_cancelled(
    qtbot: Any, gate: threading.Event
) -> None:
    w = _window(qtbot)
    s, params = w.session, w.params
    qtbot.waitUntil(lambda: s.is_busy(), timeout=10000)
    assert not params.reset.isEnabled() and not params.apply.isEnabled()
    t0 = time.perf_counter()
    params.cancel.click()
    assert time.perf_counter() - t0 < 1.0, "Cancel blocked the window"
    qtbot.waitUntil(lambda: not s.is_busy(), timeout=10000)
    assert s.a.failure("tiou") == "cancelled" and s.evaluation("tiou") is None
    assert "not evaluated (cancelled)" in w.summary.text() and "Apply re-runs" in w.summary.text()
    assert params.reset.isEnabled() and params.apply.isEnabled()
    gate.set()
    params.apply.click()  # the way to re-run
    wait_evaluated(qtbot, s)
    qtbot.waitUntil(lambda: s.evaluation("tiou") is not None, timeout=30000)
    assert s.a.failure("tiou") is None and "cancelled" not in w.summary.text()


def test_cancelled_rerun_never_shows_old_results_under_new_parameters(
    qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    w = _window(qtbot)
    s = w.session
    wait_evaluated(qtbot, s)
    old = s.evaluation("tiou")
    assert old is not None and old.params.tolerance != 0.0
    event = threading.Event()
    spec = METRICS["tiou"]

    def slow(samples: Sequence[Any], params: Any) -> Sequence[Any]:
        event.wait(30)
        return spec.evaluate(samples, params)

    _patch(monkeypatch, "tiou", slow)
    s.set_params("tiou", {"tolerance": "0"})
    assert s.params("tiou").tolerance == 0.0
    assert s.evaluation("tiou") is None and s.result("tiou") is None  # nothing stale shown
    t0 = time.perf_counter()
    s.cancel(wait=False)  # the Cancel button: returns at once, the block still runs
    assert time.perf_counter() - t0 < 1.0
    event.set()
    loop = QEventLoop()
    QTimer.singleShot(300, loop.quit)  # let any late signal of the cancelled worker arrive
    loop.exec()
    assert s.evaluation("tiou") is None and s.result("tiou") is None
    assert s.a.failure("tiou") == "cancelled"


def _generated(tmp_path: Path, n: int, boxes: int) -> DatasetPaths:
    line = "{x},10,{x2},10,{x2},30,{x},30"
    gt, det = {}, {}
    for k in range(1, n + 1):
        xs = [10 + 60 * j for j in range(boxes)]
        gt[f"gt_img_{k}.txt"] = "".join(line.format(x=x, x2=x + 50) + ",w\n" for x in xs)
        det[f"res_img_{k}.txt"] = "".join(
            line.format(x=x + k % 7, x2=x + 50 + k % 5) + "\n" for x in xs
        )
    return DatasetPaths(
        str(write_zip(tmp_path / "gt.zip", gt)), str(write_zip(tmp_path / "det.zip", det))
    )


def _longest_block_during_switches(qtbot: Any, w: MainWindow) -> float:
    """Seconds of the longest gap between ticks of a 5 ms timer while the metric is
    switched six times (the longest the window could not react)."""
    s = w.session
    gaps: list[float] = []
    last = [time.perf_counter()]

    def tick() -> None:
        now = time.perf_counter()
        gaps.append(now - last[0])
        last[0] = now

    probe = QTimer()
    probe.timeout.connect(tick)
    probe.start(5)
    for m in ("ic15_iou", "tedeval", "tiou", "cleval_det", "ic15_iou", "tiou"):
        qtbot.wait(150)
        last[0] = time.perf_counter()
        s.set_metric(m)
    qtbot.wait(150)
    probe.stop()
    return max(gaps)


# The target is 100 ms on an idle machine; the bound leaves room for a loaded CI runner.
BLOCK_BOUND = float(os.environ.get("DETLENS_UI_BLOCK_BOUND", "0.35"))


@pytest.mark.parametrize(
    "n",
    [
        500,
        pytest.param(
            5000,
            marks=pytest.mark.skipif(
                not os.environ.get("DETLENS_SLOW"), reason="5,000 images: set DETLENS_SLOW=1"
            ),
        ),
    ],
)
def test_metric_switch_does_not_freeze_the_window(qtbot: Any, tmp_path: Path, n: int) -> None:
    w = _window(qtbot, _generated(tmp_path, n, 6))
    qtbot.waitUntil(lambda: bool(w.session.evaluations) and not w.session.is_busy(), timeout=600000)
    block = _longest_block_during_switches(qtbot, w)
    assert block < BLOCK_BOUND, f"the window was blocked {block * 1000:.0f} ms"
    assert len(w.samples.model.rows) == n


def test_opening_5000_empty_images_is_fast(qtbot: Any, tmp_path: Path) -> None:
    n = 5000
    gt = write_zip(tmp_path / "gt.zip", {f"gt_img_{k}.txt": "" for k in range(1, n + 1)})
    w = MainWindow(restore_layout=False)
    qtbot.addWidget(w)
    w.show()
    t0 = time.perf_counter()
    assert w.open_paths(DatasetPaths(str(gt)))
    opened = time.perf_counter() - t0
    assert opened < 10, f"opening took {opened:.1f} s"
    assert len(w.samples.model.rows) == n
    wait_evaluated(qtbot, w.session)
    w.session.cancel()
