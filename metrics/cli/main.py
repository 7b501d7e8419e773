"""``detlens`` command line: ``detlens eval`` over the metric engine.

Other packages add subcommands through the ``detlens.commands`` entry-point group (the viewer
adds ``view``), so the engine never imports them. Start-up is kept short: this module imports
no metric family, numpy or shapely (``cmd_eval`` imports the engine when it runs), other
subcommands are registered by name and imported when they run
(``metrics.cli.commands.add_command``), and the entry points are only looked up when the
command asked for is not one of the engine's own.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from metrics.catalog import ENTRIES
from metrics.cli.analysis_args import add_arguments as add_analysis_arguments
from metrics.cli.commands import CommandParser, add_command, add_plugins, input_error
from metrics.cli.format_options import CONVERT_HELP, add_side_options, format_choices
from metrics.registry import METRICS, applicable, make_params, parse_sets, resolve

if TYPE_CHECKING:
    from metrics.model import Dataset
    from metrics.results import Evaluation, SweepTally
    from metrics.runner import Plan
    from metrics.spec import MetricSpec

log = logging.getLogger("detlens")

# metrics.model.BoxType's values, spelled out so that ``eval --help`` needs no numpy (a test
# checks that they agree)
BOX_TYPES = ("LTRB", "QUAD", "POLY")


class UserError(Exception):
    """A mistake in the command line or the inputs: reported in one line, no traceback."""


def _add_eval(sub: Any) -> None:
    p = sub.add_parser(
        "eval",
        help="evaluate detections against GT with one or more metrics",
        description="Evaluate detections against ground truth. Without --gt and "
        "--det the bundled demo data is used (detector B, the one with failures to show).",
    )
    add_side_options(p, lines_and_images=True)
    p.add_argument(
        "--metric",
        action="append",
        default=None,
        help="metric id or alias, repeatable or comma-separated; 'all' (default) "
        f"runs every metric that applies. Ids: {', '.join(METRICS)}",
    )
    p.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="metric parameter, e.g. tolerance=0 or tiou.tolerance=0",
    )
    p.add_argument(
        "--box-type",
        choices=BOX_TYPES,
        help="force the box type of every line (default: detected per line)",
    )
    p.add_argument(
        "--policy",
        choices=["strict", "skip_sample"],
        default="strict",
        help="bad input: refuse everything (strict) or skip the bad samples",
    )
    p.add_argument("--json", help="write the results as JSON to this file")
    p.add_argument("--csv", help="write per-image results as CSV to this file")
    p.add_argument(
        "--evidence",
        action="store_true",
        help="with --json: also write the per-instance evidence (verdicts, matches, regions, "
        "metric-specific evidence such as PCC)",
    )
    add_analysis_arguments(p)
    p.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--quiet", "-q", action="store_true", help="no table, no warnings")
    p.add_argument(
        "--list-metrics",
        action="store_true",
        help="list every metric: what it computes, the official code it reproduces and the "
        "datasets papers use it on; then exit",
    )
    p.set_defaults(func=cmd_eval)


def list_metrics(out: TextIO | None = None) -> None:
    """Every registered metric with its aliases and one line on what and where from."""
    from metrics.help import metric_line

    out = out or sys.stdout
    for e in ENTRIES:  # the catalog: no metric family is imported
        alias = f" ({', '.join(e.aliases)})" if e.aliases else ""
        print(f"{e.id}{alias}", file=out)
        print(f"    {metric_line(e.id) or e.title}", file=out)


def _specs(names: Sequence[str] | None, ds: Dataset) -> tuple[list[MetricSpec], bool]:
    wanted = [n for arg in (names or ["all"]) for n in arg.split(",") if n.strip()]
    if any(n.strip().lower() == "all" for n in wanted):
        return applicable(ds), True
    try:
        specs = [resolve(n) for n in wanted]
    except KeyError as exc:
        raise UserError(exc.args[0]) from None
    for s in specs:
        if s.needs_gt_lines and ds.gt_lines_path is None:
            raise UserError(f"{s.id} needs the text-line GT: add --gt-lines PATH")
    return list(dict.fromkeys(specs)), False


def _overrides(sets: Sequence[str], specs: Sequence[MetricSpec]) -> dict[str, dict[str, str]]:
    """``--set`` items per metric, each value checked against its parameter's type now, so a
    mistake is one line naming metric and parameter before anything is evaluated."""
    try:
        out = parse_sets(sets, specs)
    except ValueError as exc:
        raise UserError(exc.args[0]) from None
    for mid, values in out.items():
        for key, value in values.items():
            try:
                make_params(METRICS[mid], {key: value})
            except (TypeError, ValueError) as exc:
                raise UserError(f"--set {mid}.{key}={value}: {exc}") from None
    return out


def why_not(spec: MetricSpec) -> str:
    """What a metric asks of the data, in words (``requires``, else its ``applies`` rule)."""
    if spec.requires:
        return spec.requires
    doc = (spec.applies.__doc__ or "").strip().split("\n\n")[0]
    return " ".join(doc.split()) or "other inputs"


def _check_outputs(paths: Sequence[str | None], inputs: list[str | None]) -> None:
    """Refuse, before evaluating, an output path that cannot or must not be written."""
    from metrics.io.atomic import output_problem

    for p in paths:
        problem = output_problem(p, inputs)
        if problem:
            raise UserError(problem)


def _notes_before(
    ds: Dataset,
    specs: Sequence[MetricSpec],
    auto: bool,
    overrides: Mapping[str, Mapping[str, Any]],
) -> None:
    """Say what the run will do that a user might not expect: metrics asked for that are
    meant for other inputs, detections ranked by confidence (``confidences`` left to auto
    or set true)."""
    if not auto:
        for s in specs:
            if not s.applies(ds):
                log.warning(
                    "%s is meant for %s; these inputs are not: evaluated as asked",
                    s.id,
                    why_not(s).rstrip("."),
                )
    ranked = [
        s.id
        for s in specs
        if getattr(make_params(s, overrides.get(s.id)), "confidences", False) is not False
    ]
    if ranked and ds.has_confidences:
        log.warning(
            "detections carry confidences: %s rank them by confidence before matching (the "
            "official scripts' CONFIDENCES=True) and report AP; --set confidences=false keeps "
            "file order",
            ", ".join(ranked),
        )


def _dataset(args: argparse.Namespace) -> Dataset:
    from metrics.io.reader import LoadOptions, load_dataset
    from metrics.model import BoxType, Severity

    gt, det, images = args.gt, args.det, args.images
    if gt is None and det is None:
        from metrics.demo import demo_paths

        demo = demo_paths()
        gt, det, images = demo.gt, demo.det_b, images or demo.images
    elif gt is None:
        raise UserError("--det given without --gt")
    elif det is None:
        raise UserError("--det missing: nothing to evaluate")
    if args.workers < 1:
        raise UserError(f"--workers {args.workers}: give 1 or more")
    bt = BoxType(args.box_type) if args.box_type else None
    opts = LoadOptions(gt_box_type=bt, det_box_type=bt, **format_choices(args))
    ds = load_dataset(gt, det, gt_lines=args.gt_lines, images=images, options=opts)
    bad = [p for p in ds.problems if p.severity is Severity.ERROR]
    if bad and os.path.realpath(gt) == os.path.realpath(det):  # a slip, or a sanity check
        raise UserError(f"--det is the GT itself and does not read as detections: {bad[0]}")
    return ds


def _plan(ds: Dataset, specs: Sequence[MetricSpec], overrides: Mapping[str, Any]) -> Plan:
    """``--metric all``: the plan, its notes logged as warnings."""
    from metrics.runner import plan_all

    plan = plan_all(ds, specs, overrides)
    for note in plan.notes:
        log.warning("%s", note)
    return plan


def cmd_eval(args: argparse.Namespace) -> int:
    if args.list_metrics:
        list_metrics()
        return 0
    from metrics.cli import analysis
    from metrics.progress import ProgressBar

    inputs = [args.gt, args.det, args.gt_lines, args.images]
    _check_outputs([args.json, args.csv, args.instances], inputs)
    ds = _dataset(args)
    thresholds = analysis.check(args, ds)  # takes score_threshold out of args.set
    specs, auto = _specs(args.metric, ds)
    analysis.check_targets(thresholds, specs)
    overrides = _overrides(args.set, specs)
    offered = list(specs) if auto else []
    if not args.quiet:
        _notes_before(ds, specs, auto, overrides)
    lenient: frozenset[str] = frozenset()
    validated = None
    left_out: dict[str, str] = {}
    if auto:
        plan = _plan(ds, specs, overrides)
        specs, lenient, validated = plan.specs, plan.lenient, plan.validated
        overrides, left_out = plan.overrides, dict(plan.left_out)
    if not specs:
        raise UserError("no metric applies to these inputs")
    bar = None if args.quiet else ProgressBar()
    evals, seen = analysis.evaluate(
        ds,
        specs,
        overrides,
        thresholds,
        policy=args.policy,
        workers=max(1, args.workers),
        progress=bar,
        lenient=lenient,
        validated=validated,
    )
    if not args.quiet:
        _report(ds, evals, left_out=left_out)
        if auto:
            others = [mid for mid in METRICS if mid not in {m.id for m in offered}]
            if others:
                print(
                    f"not offered for these inputs (ask with --metric ID; --list-metrics says "
                    f"what each is for): {', '.join(others)}"
                )
    analysis.after(args, evals, seen, overrides)
    _write_outputs(args, evals)
    return 0


def _write_outputs(args: argparse.Namespace, evals: Sequence[Evaluation]) -> None:
    if not (args.json or args.csv):
        return
    from metrics.io import atomic, writers

    with atomic.staged(*[p for p in (args.json, args.csv) if p]) as tmp:  # both, or neither
        if args.json:
            writers.write_json(tmp[0], evals, evidence=args.evidence)
        if args.csv:
            writers.write_csv(tmp[-1], evals)
    atomic.settled()


def _note(key: str, value: float) -> str:
    return f"{key} {int(value)}" if float(value).is_integer() else f"{key} {value:.4f}"


def _report(
    ds: Dataset,
    evals: Sequence[Evaluation],
    out: TextIO | None = None,
    left_out: Mapping[str, str] | None = None,
) -> None:
    """The summary table; metrics that ``--metric all`` left out follow it, with the reason."""
    from metrics.model import Severity

    out = out or sys.stdout
    found = list(ds.problems) + [p for ev in evals for p in ev.problems]  # + metric warnings
    warnings = [p for p in dict.fromkeys(found) if p.severity is Severity.WARNING]
    for p in warnings[:5]:
        print(f"warning: {p}", file=sys.stderr)
    if len(warnings) > 5:
        print(f"warning: ... and {len(warnings) - 5} more", file=sys.stderr)
    n_gt = sum(len(s.gt) for s in ds)
    n_det = sum(len(s.det) for s in ds)
    print(f"{len(ds)} images, {n_gt} GT boxes, {n_det} detections", file=out)
    w = max([19, *(len(e.metric) + 1 for e in evals), *(len(m) + 1 for m in left_out or {})])
    print(f"{'metric':<{w}}{'recall':>8}{'precision':>11}{'hmean':>9}  notes", file=out)
    for ev in evals:
        notes = ", ".join(_note(k, v) for k, v in ev.extras.items())
        if ev.excluded:
            notes = (notes + ", " if notes else "") + f"{len(ev.excluded)} images skipped"
        if ev.summary is None:  # nothing evaluated: no number that could pass for a score
            print(f"{ev.metric:<{w}}{'-':>8}{'-':>11}{'-':>9}  {notes}", file=out)
            continue
        print(
            f"{ev.metric:<{w}}{ev.recall:>8.4f}{ev.precision:>11.4f}{ev.hmean:>9.4f}  {notes}",
            file=out,
        )
    for mid, reason in (left_out or {}).items():
        print(f"{mid:<{w}}{'-':>8}{'-':>11}{'-':>9}  left out: {reason}", file=out)
    for ev in evals:
        if ev.sweep is not None:
            _sweep_table(ev, ev.sweep, out)


def _sweep_table(ev: Evaluation, sweep: SweepTally, out: TextIO) -> None:
    """Every threshold of a swept metric, the reported (best) one marked."""
    n, best = len(sweep.thresholds), sweep.best_index
    print(
        f"\n{ev.metric}: best of a {n}-threshold sweep chosen on the evaluated set "
        "(as MMOCR reports it)",
        file=out,
    )
    print(
        f"  {'threshold':>9}{'recall':>8}{'precision':>11}{'hmean':>9}{'kept dets':>11}", file=out
    )
    for k, p in enumerate(sweep.sweep()):
        mark = "  <- best" if k == best else ""
        print(
            f"  {p.threshold:>9.2f}{p.recall:>8.4f}{p.precision:>11.4f}{p.hmean:>9.4f}"
            f"{int(p.kept):>11d}{mark}",
            file=out,
        )


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The ``detlens`` parser. Subcommands other than ``eval``: one ``add_command`` line each
    (``metrics.cli.commands``), imported only when they run; the plugins' entry points are
    looked up unless ``argv`` names one of the commands added here."""
    parser = CommandParser(
        prog="detlens",
        description="Scene-text detection metrics with the evidence behind every number.",
    )
    parser.add_argument("--verbose", "-v", action="store_true", help="debug logging")
    sub = parser.add_subparsers(dest="command", required=True)
    _add_eval(sub)
    add_command(
        sub,
        "compare",
        "metrics.cli.compare:add_compare_command",
        help="per-image differences of two detectors (or of two metrics on one detector)",
    )
    add_command(
        sub,
        "check",
        "metrics.cli.check:add_check_command",
        help="check a dataset (GT, detections, images) for what makes metrics fail or lie",
    )
    add_command(sub, "convert", "metrics.cli.convert:add_convert_command", help=CONVERT_HELP)
    add_plugins(sub, "detlens.commands", argv)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    quiet = getattr(args, "quiet", False)  # eval --quiet: no warnings either
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else (logging.ERROR if quiet else logging.WARNING),
        format="%(levelname)s: %(message)s",
    )
    try:
        return int(args.func(args))
    except (UserError, KeyError, ValueError, OSError) as exc:  # OSError: e.g. a full disk
        msg = exc.args[0] if exc.args and not isinstance(exc, OSError) else str(exc)
        print(f"detlens: error: {msg}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("detlens: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:
        return input_error(exc)


if __name__ == "__main__":
    sys.exit(main())
