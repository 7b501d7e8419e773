"""``detlens view``: open the viewer on a dataset (the demo data by default), or render a
screenshot headless and exit."""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from metrics.catalogue.registry import resolve
from metrics.cli.commands import Subcommands
from metrics.cli.format_options import (
    GT_LINES_HELP,
    IMAGES_HELP,
    add_side_options,
    floats_mode,
    format_choices,
)
from metrics.core.model import InputError
from metrics.io.demo import demo_paths
from viewer.app.paths import DatasetPaths
from viewer.app.view_options import check_options, parse_select, parse_size
from viewer.scene.layers import LAYER_KEYS
from viewer.scene.view_state import layers_option, read_state, state_params

if TYPE_CHECKING:
    from viewer.app.main_window import MainWindow
    from viewer.app.session import Session


def add_view_command(sub: Subcommands) -> None:
    p = sub.add_parser(
        "view",
        help="open the viewer (bundled demo data without arguments)",
        description="Browse failure cases image by image with the evidence of "
        "every metric drawn on the image.",
    )
    add_side_options(p, two_dets=True, box_type=True)
    p.add_argument("--compare-metric", help="compare the metric with this one (same detector)")
    p.add_argument("--images", help=IMAGES_HELP)
    p.add_argument("--gt-lines", help=GT_LINES_HELP)
    p.add_argument("--metric", help="metric to show first (id or alias)")
    p.add_argument("--sample", help="sample id to show first")
    p.add_argument("--layers", help=f"comma-separated layers to show ({', '.join(LAYER_KEYS)})")
    p.add_argument("--select", help="instance to select, e.g. gt:3 or det:1")
    p.add_argument(
        "--screenshot", metavar="OUT.png", help="render the window offscreen to this PNG and exit"
    )
    p.add_argument("--size", default="1600x950", help="window size for --screenshot (WxH)")
    p.add_argument("--state", help="restore a view state JSON written beside an export")
    p.add_argument(
        "--score-threshold",
        type=_threshold,
        help="show only detections with confidence >= this (the Analysis panel's threshold)",
    )
    p.add_argument("--panel", help="side panel to bring to the front, e.g. Problems, Metric")
    p.add_argument("--quit-after-show", action="store_true", help=argparse.SUPPRESS)
    p.set_defaults(func=cmd_view)


def _threshold(text: str) -> float:
    """``--score-threshold``: a confidence threshold, a number from 0 to 1."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text[:40]!r}") from None
    if not 0 <= value <= 1:  # nan included
        raise argparse.ArgumentTypeError(f"a confidence threshold is from 0 to 1, got {value:g}")
    return value


def _apply_state(args: argparse.Namespace) -> None:
    """Fill the command line from a state file (explicit options win)."""
    state = read_state(args.state)
    args.gt = args.gt or state.gt
    args.det = args.det or list(state.det)
    args.images = args.images or state.images
    try:  # the metric's parameters, checked as --set values are, before a window exists
        params = state_params(state.metric, state.params)
    except ValueError as exc:
        raise InputError([], f"state file {args.state}: params: {exc}") from None
    args.params = params if args.metric in (None, state.metric) else {}  # another metric's
    args.metric = args.metric or state.metric
    args.sample = args.sample or state.sample
    args.layers = args.layers or layers_option(state.layers)
    args.compare_metric = args.compare_metric or state.compare_metric
    args.gt_lines = args.gt_lines or state.gt_lines
    args.names = list(state.names) if state.names is not None else None
    args.zoom, args.gallery = state.zoom, state.gallery
    args.select = args.select or state.select
    if args.score_threshold is None:
        args.score_threshold = state.score_threshold


def _paths(args: argparse.Namespace) -> DatasetPaths:
    if len(args.det) > 2:
        raise InputError([], "at most two --det (A and B)")
    if args.gt is None and not args.det:
        demo = demo_paths()
        return DatasetPaths(
            str(demo.gt),
            str(demo.det_b),
            args.images or str(demo.images),
            args.gt_lines,
            **_reading(args),
        )
    if args.gt is None:
        raise InputError([], "--det given without --gt")
    if args.images is not None and not os.path.isdir(args.images):
        raise InputError([], f"--images {args.images}: not a folder")
    det = args.det[0] if args.det else None
    return DatasetPaths(args.gt, det, args.images, args.gt_lines, **_reading(args))


def _reading(args: argparse.Namespace) -> dict[str, Any]:
    """The reading options of the command line, as ``DatasetPaths`` fields."""
    return {**format_choices(args), "floats": floats_mode(args), "box_type": args.box_type}


def cmd_view(args: argparse.Namespace) -> int:
    if args.screenshot:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    try:
        from PySide6.QtWidgets import QApplication

        from viewer.app.main_window import MainWindow
        from viewer.app.qt_notes import quiet_plugin_notes
    except ImportError as exc:
        print(
            f"detlens: error: the viewer needs PySide6 ({exc}); install it with "
            "pip install -e '.[viewer]'",
            file=sys.stderr,
        )
        return 2

    t0 = time.perf_counter()
    prepare_options(args)
    paths = _paths(args)
    _check_display()
    quiet_plugin_notes()  # Qt's offscreen plugin notes nothing the user can act on
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("detlens")
    window = MainWindow(restore_layout=not args.screenshot)
    try:
        return _run_window(app, window, args, paths, t0)
    finally:  # an option mistake found late, an error: no evaluation thread outlives it
        window.session.shutdown()


def _run_window(
    app: Any, window: Any, args: argparse.Namespace, paths: DatasetPaths, t0: float
) -> int:
    if not window.open_paths(paths):
        return _not_opened(app, window, args)
    try:
        _apply_view_options(window, args)
        if args.panel:
            _raise_panel(window, args.panel)
    except BaseException:
        window.session.shutdown()
        window.close()
        raise
    if args.screenshot:
        return _screenshot(app, window, args)
    window.show()
    if isinstance(args.zoom, int | float) or args.select:
        window.canvas.fit()
        _initial_zoom(window, args)
    window.statusBar().showMessage(f"ready in {time.perf_counter() - t0:.2f} s", 5000)
    if args.quit_after_show:  # benchmark: time to the first window on screen
        from PySide6.QtCore import QTimer

        QTimer.singleShot(0, app.quit)
    return int(app.exec())


def prepare_options(args: argparse.Namespace) -> None:
    """The command line with the state file's values filled in, checked before a window
    exists; a mistake in a value the state gave names the state file."""
    args.params, args.names, args.zoom, args.gallery = {}, None, None, None
    if not args.state:
        check_options(args)
        return
    _apply_state(args)
    try:
        check_options(args)
    except InputError as exc:
        raise InputError([], f"{exc} (with the state file {args.state})") from None


def _check_display() -> None:
    """Exit 2 with one line where Qt would abort: no display, or a library missing."""
    from PySide6.QtWidgets import QApplication

    from viewer.app.display import display_problem

    if QApplication.instance() is not None:  # a window can already open (tests)
        return

    problem = display_problem()
    if problem is not None:
        raise InputError([], problem)


def _initial_zoom(window: object, args: argparse.Namespace) -> None:
    """A restored state's zoom; else ``--select``'s instance with its neighbours in view
    (not a blob in the whole image)."""
    from viewer.app.main_window import MainWindow

    assert isinstance(window, MainWindow)
    if isinstance(args.zoom, int | float):
        window.canvas.zoom(float(args.zoom) / window.canvas.transform().m11())
    elif args.select:
        window.canvas.zoom_to_selection()


def _apply_metric(s: Session, args: argparse.Namespace) -> None:
    metric = resolve(args.metric).id
    defaults = dataclasses.asdict(resolve(metric).params_type())
    changed = {k: v for k, v in args.params.items() if defaults.get(k, v) != v}
    if metric not in s.metric_ids():
        raise InputError(
            [],
            f"metric {metric} does not apply to this dataset "
            f"(available: {', '.join(s.metric_ids())})",
        )
    s.set_metric(metric)
    if changed:
        s.set_params(metric, changed)


def _apply_comparison(s: Session, args: argparse.Namespace) -> None:
    if len(args.det) == 2 and not s.add_detections(args.det[1]):
        raise InputError([], f"cannot open the second detection set {args.det[1]}")
    if args.compare_metric and not s.compare_metrics(resolve(args.compare_metric).id):
        raise InputError([], f"cannot compare with {args.compare_metric}")
    if args.score_threshold is not None:  # both sides; before --select picks a detection
        s.set_score_threshold(args.score_threshold)


def _apply_view_options(window: object, args: argparse.Namespace) -> None:
    from viewer.app.main_window import MainWindow

    assert isinstance(window, MainWindow)
    s = window.session
    if args.metric:
        _apply_metric(s, args)
    _apply_comparison(s, args)
    if args.sample:
        if s.dataset is None or args.sample not in s.sample_ids():
            raise InputError([], f"no sample {args.sample!r} in this dataset")
        s.set_sample(args.sample)
    if args.layers:
        wanted = {x.strip() for x in args.layers.split(",") if x.strip()}
        unknown = wanted - set(LAYER_KEYS)
        if unknown:
            raise InputError([], f"unknown layers {sorted(unknown)}; known: {LAYER_KEYS}")
        s.set_layers(frozenset(wanted))
    if args.select:
        s.sample_chosen = True  # stay on the image the selection was checked on
        side, idx = parse_select(args.select)
        sample = s.sample()
        count = 0 if sample is None else len(sample.gt if side == "gt" else sample.det)
        if idx >= count:
            raise InputError(
                [], f"--select {args.select}: {s.sample_id} has {count} {side} instance(s)"
            )
        s.select((side, idx))
    _apply_names_and_gallery(window, args)


def _apply_names_and_gallery(window: MainWindow, args: argparse.Namespace) -> None:
    """A state's names of A and B, its gallery filters and the gallery if it was open."""
    for k, name in enumerate(args.names or ()):
        if window.session.comparing():
            window.session.rename(k, name)
    if args.gallery is not None:
        window.gallery.restore(args.gallery)
        if args.gallery.shown:
            window.gallery_dock.show()
            window.gallery_dock.raise_()


def _wait_idle(s: Session, timeout_ms: int = 300_000) -> None:
    """Run the event loop until no evaluation is running (no busy wait: the loop sleeps
    until a signal arrives), or the timeout."""
    from PySide6.QtCore import QEventLoop, QTimer

    loop = QEventLoop()
    s.busy_changed.connect(lambda on: None if on else loop.quit())
    poll = QTimer()  # a thread's end can race its busy_changed: look again now and then
    poll.timeout.connect(lambda: None if s.is_busy() else loop.quit())
    poll.start(200)
    QTimer.singleShot(timeout_ms, loop.quit)
    if s.is_busy():
        loop.exec()
    poll.stop()


def _raise_panel(window: object, title: str) -> None:
    from PySide6.QtWidgets import QDockWidget, QMainWindow

    assert isinstance(window, QMainWindow)
    docks = {d.windowTitle().lower(): d for d in window.findChildren(QDockWidget)}
    dock = docks.get(title.strip().lower())
    if dock is None:
        raise InputError([], f"--panel {title}: no such panel; panels: {', '.join(docks)}")
    dock.show()
    dock.raise_()


def _not_opened(app: object, window: object, args: argparse.Namespace) -> int:
    """Exit status 2 with the reason; a set refused as the CLI refuses it (--gt and --det
    swapped) is also said in the window, shown (a screenshot of it with --screenshot)."""
    from PySide6.QtWidgets import QApplication

    from viewer.app.main_window import MainWindow

    assert isinstance(window, MainWindow) and isinstance(app, QApplication)
    print(f"detlens: error: cannot open the dataset: {window.last_error}", file=sys.stderr)
    if window.refusal.message is None:
        return 2
    if not args.screenshot:
        window.show()
        app.exec()
        return 2
    window.resize(*parse_size(args.size))
    window.show()
    app.processEvents()
    ok = window.grab().save(str(args.screenshot))
    window.close()
    if ok:
        print(args.screenshot)
    return 2


def _screenshot(app: object, window: object, args: argparse.Namespace) -> int:
    from PySide6.QtWidgets import QApplication

    from viewer.app.main_window import MainWindow

    assert isinstance(window, MainWindow) and isinstance(app, QApplication)
    window.resize(*parse_size(args.size))
    window.show()
    s = window.session
    _wait_idle(s)
    s.checks.wait()
    if window.analysis.isVisible():  # the shot shows the analysis, not "computing…"
        window.analysis.wait()
    if window.gallery.isVisible():  # and the gallery its crops, not placeholders
        window.gallery.settle()
    app.processEvents()
    ev = s.evaluation()
    if ev is None or ev.summary is None:  # nothing to show a score for: say why, exit 1
        why = (s.a.no_score() if s.a is not None else None) or "the evaluation did not finish"
        print(f"detlens: error: {s.metric} not evaluated: {why}", file=sys.stderr)
        window.close()
        return 1
    window.canvas.refresh()
    window.canvas.fit()
    _initial_zoom(window, args)
    app.processEvents()
    out = Path(args.screenshot)
    tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp{out.suffix}")  # never a half file
    ok = window.grab().save(str(tmp))
    window.close()
    try:
        if not ok:
            print(f"detlens: error: cannot write {out}", file=sys.stderr)
            return 2
        os.replace(tmp, out)
    finally:
        tmp.unlink(missing_ok=True)
    print(out)
    return 0
