"""``detlens report``: one self-contained HTML page of the analysis (no network, every image
beside it), ``report.json`` with every number, plots as PNG and SVG drawn by the Analysis
panel's code, the worst images as annotated thumbnails linking to full-size exports.

Written into a temporary folder beside ``--out`` and renamed onto it at the end (a previous
report there is replaced whole); refuses an ``--out`` that holds or lies inside an input.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

from metrics.catalogue.registry import default_metric, make_params, parse_sets, resolve
from metrics.cli.commands import Subcommands, int_in
from metrics.cli.coverage import (
    DEFAULT_METRIC_HELP,
    detector_names,
    need_gt_lines,
    say_fallback,
    say_skipped,
)
from metrics.cli.format_options import (
    add_policy_option,
    add_set_option,
    add_side_options,
    add_workers_option,
    floats_mode,
    read_sets,
)
from metrics.core.model import InputError
from metrics.io.demo import demo_paths
from metrics.run.progress import ProgressBar
from metrics.run.refusal import misfits
from metrics.run.runner import Plan, plan_all, run
from viewer.app.interrupts import Interrupts, guarded, headless_qt


def add_report_command(sub: Subcommands) -> None:
    p = sub.add_parser(
        "report",
        help="write an HTML analysis report (sweep, attribution, buckets, worst images)",
        description="Analysis report of one detector (or two: --det twice) under one or "
        "more metrics. Without --gt the demo data (detectors A and B) is used.",
    )
    add_side_options(p, lines_and_images=True, two_dets=True, box_type=True)
    p.add_argument(
        "--metric",
        action="append",
        default=[],
        help=f"metric id (repeatable; {DEFAULT_METRIC_HELP})",
    )
    add_set_option(p)
    add_policy_option(p, default="skip_sample")
    add_workers_option(p)
    p.add_argument(
        "--worst",
        type=int_in(1, 1000),
        default=8,
        help="worst images shown (default 8, at most 1000)",
    )
    p.add_argument("--out", required=True, help="output folder (created or replaced)")
    p.set_defaults(func=cmd_report)


def _inputs(args: argparse.Namespace) -> tuple[str, list[str], str | None]:
    if args.gt is None:
        if args.det:
            raise InputError([], "--det given without --gt")
        d = demo_paths()
        return str(d.gt), [str(d.det_a), str(d.det_b)], args.images or str(d.images)
    if not 1 <= len(args.det) <= 2:
        raise InputError([], "give one or two --det")
    return args.gt, list(args.det), args.images


def check_out(out: Path, inputs: list[str]) -> None:
    """Refuse an output folder that is an input, holds one, or lies inside one; and an
    existing folder that is not a previous report."""
    target = out.resolve()
    for item in inputs:
        src = Path(item).resolve()
        if target == src or target in src.parents or src in target.parents:
            raise InputError([], f"--out {out} holds or lies inside the input {item}")
        if target == src.parent:
            raise InputError([], f"--out {out} is the folder of the input {item}")
    if out.exists() and (
        not out.is_dir() or (any(out.iterdir()) and not (out / "report.json").exists())
    ):
        raise InputError([], f"--out {out} exists and is not a detlens report: choose another")


def _replace(tmp: Path, out: Path) -> None:
    mask = os.umask(0)
    os.umask(mask)
    os.chmod(tmp, 0o777 & ~mask)  # a plain folder's mode, not mkdtemp's private 0700
    old = None
    if out.exists():
        old = Path(tempfile.mkdtemp(dir=out.parent, prefix=f".{out.name}.old."))
        os.replace(out, old / "report")
    os.replace(tmp, out)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def _left_out(plan: Plan, n_images: int) -> None:
    """The named metrics that do not apply to the data are each said; with none left the
    report is refused (an empty report would look like a result), in the words of
    ``eval``'s refusal of a metric that cannot read the set (``refusal.misfits``)."""
    for mid, why in plan.left_out.items():
        if not plan.specs:
            errors = [p for p in plan.validated.get(mid, []) if p.severity.value == "error"]
            unread = misfits({mid: errors}, n_images)
            said = unread[0].line() if unread else f"{mid} left out: {why}"
            raise InputError([], f"nothing to report: {said}")
        print(f"warning: {mid} left out: {why}", file=sys.stderr)


def cmd_report(args: argparse.Namespace) -> int:
    return guarded(lambda interrupts: _report(args, interrupts))  # Ctrl-C never lost


def _report(args: argparse.Namespace, interrupts: Interrupts) -> int:
    if not headless_qt("report needs PySide6 and pyqtgraph"):
        return 2
    from PySide6.QtWidgets import QApplication

    from viewer.analysis.report import Job, write_report

    interrupts.check()
    gt, dets, images = _inputs(args)
    out = Path(args.out)
    lines = [args.gt_lines] if args.gt_lines else []
    check_out(out, [gt, *dets, *lines] + ([images] if images else []))
    if args.worst < 0:
        raise InputError([], "--worst must be 0 or more")
    named = [resolve(m) for m in args.metric]
    need_gt_lines(named, args.gt_lines)
    with interrupts.direct():
        datasets = read_sets(args, gt, dets, gt_lines=args.gt_lines, images=images)
    if named:
        plan = plan_all(datasets[0], named)
        _left_out(plan, len(datasets[0]))
    else:
        first = default_metric(datasets[0])  # as the viewer: TIoU on quads, curved on polygons
        if first is None:
            raise InputError([], "no metric applies to this dataset (see detlens check)")
        plan = plan_all(datasets[0], [first])
    try:
        sets = parse_sets(args.set, plan.specs, floats=floats_mode(args))
    except ValueError as exc:
        raise InputError([], exc.args[0]) from None
    overrides = {k: {**plan.overrides.get(k, {}), **v} for k, v in sets.items()}
    app = QApplication.instance() or QApplication(sys.argv[:1])
    del app
    names = detector_names(dets)
    jobs = []
    for spec in plan.specs:
        switched = plan.overrides.get(spec.id, {})  # the fallback (no --set was given it)
        said = say_fallback(spec.id, switched, sets.get(spec.id, {}))  # in the page too
        with interrupts.direct():
            evs = [
                run(ds, [spec], overrides, policy=args.policy, workers=args.workers)[0]
                for ds in datasets
            ]
        for note in say_skipped(evs, datasets, names):
            print(f"warning: {note}", file=sys.stderr)
        jobs.append(Job(spec.id, make_params(spec, overrides.get(spec.id)), evs, said))
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=out.parent, prefix=f".{out.name}.tmp."))
    try:
        bar = ProgressBar(delay=0.0)

        def progress(done: int, total: int) -> None:
            interrupts.check()
            bar(done, total)

        write_report(tmp, datasets, names, jobs, args.worst, progress, floats=floats_mode(args))
        interrupts.check()
        _replace(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    print(f"wrote {out / 'index.html'} and {out / 'report.json'}")
    return 0
