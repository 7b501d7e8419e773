"""``detlens compare``: two detectors under one metric, or two metrics on one detector."""

from __future__ import annotations

import argparse
import csv
import dataclasses
import json
import os
import sys
from typing import TextIO

from metrics.analysis.bootstrap import Bootstrap, paired
from metrics.analysis.compare import (
    COMPARISON_COLUMNS,
    Comparison,
    compare,
    comparison_dict,
    comparison_rows,
)
from metrics.catalogue.registry import MetricSpec, make_params, parse_sets, resolve
from metrics.cli.commands import Subcommands, int_in, positive_int
from metrics.cli.coverage import (
    DEFAULT_METRIC_HELP,
    default_choice,
    detector_names,
    fallback_words,
    need_gt_lines,
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
from metrics.core.model import Dataset
from metrics.core.protocols import Params
from metrics.core.results import Evaluation
from metrics.io.atomic import output_problem, settled, staged
from metrics.io.demo import demo_paths
from metrics.run.runner import run

MAX_RESAMPLES = 100_000
"""Upper bound of --resamples (drawn a block at a time: time grows with it, memory not)."""


class CompareError(ValueError):
    """A mistake in the compare command line."""


def add_compare_command(sub: Subcommands) -> None:
    p = sub.add_parser(
        "compare",
        help="per-image differences of two detectors (or of two metrics on one detector)",
        description="Compare two detection sets on the same GT under one metric (two --det), "
        "or one detection set under two metrics (two --metric). Without --gt the demo "
        "data's detectors A and B are compared.",
    )
    add_side_options(p, lines_and_images=True, two_dets=True, box_type=True)
    p.add_argument(
        "--metric",
        action="append",
        default=[],
        help=f"metric id (1 or 2; {DEFAULT_METRIC_HELP})",
    )
    add_set_option(p)
    add_policy_option(p)
    p.add_argument("--name", action="append", default=[], help="display names of A and B")
    p.add_argument("--top", type=positive_int, default=20, help="images to list (default 20)")
    p.add_argument("--json", help="write the comparison as JSON")
    p.add_argument(
        "--csv",
        help="write the comparison as CSV: the global row (sample *), then every compared "
        "image as the table lists them, then the images left out and why",
    )
    p.add_argument(
        "--resamples",
        type=int_in(0, MAX_RESAMPLES),
        default=10_000,
        help=f"paired bootstrap resamples over images (default 10000; 0 = none; at most "
        f"{MAX_RESAMPLES:,})",
    )
    p.add_argument(
        "--seed", type=int_in(0, 2**32 - 1), default=0, help="bootstrap seed (default 0)"
    )
    add_workers_option(p)
    p.set_defaults(func=cmd_compare)


def _inputs(args: argparse.Namespace) -> tuple[str, list[str]]:
    if args.gt is None:
        if args.det:
            raise CompareError("--det given without --gt")
        demo = demo_paths()
        return str(demo.gt), [str(demo.det_a), str(demo.det_b)]
    return args.gt, list(args.det)


def _sets(args: argparse.Namespace, specs: list[MetricSpec[Params]]) -> dict[str, dict[str, str]]:
    """``--set`` (with ``--floats refuse``) per metric; a mistake is a CompareError."""
    try:
        out = parse_sets(args.set, specs, floats=floats_mode(args))
        for spec in specs:
            make_params(spec, out.get(spec.id))
    except (KeyError, TypeError, ValueError) as exc:
        said = str(exc.args[0])
        raise CompareError(said if said.startswith("--set") else f"--set: {said}") from None
    return out


def _evaluations(
    args: argparse.Namespace,
) -> tuple[Evaluation[Params], Evaluation[Params], str, str, str]:
    """A's and B's evaluations, their names, and what the fallback values switched on for
    the default metric are ("evaluated with auto_orient=true: ..."; "" when none)."""
    gt, dets = _inputs(args)
    fallback = ""
    metrics = [resolve(m).id for m in args.metric]
    need_gt_lines([resolve(m) for m in metrics], args.gt_lines)
    lines, images = args.gt_lines, args.images
    if images is not None and not os.path.isdir(images):
        raise CompareError(f"--images {images}: not a folder (give the folder of the images)")
    if len(dets) == 2 and len(metrics) <= 1:
        names = detector_names(dets)
        sets = read_sets(args, gt, dets, gt_lines=lines, images=images)
        if metrics:
            spec = resolve(metrics[0])
            given: dict[str, dict[str, object]] = {
                k: dict(v) for k, v in _sets(args, [spec]).items()
            }
            evs = [
                run(ds, [spec], given, policy=args.policy, workers=args.workers)[0] for ds in sets
            ]
        else:  # as the viewer: TIoU on quads, curved TIoU on polygons; images it skips, said
            spec, own = default_choice(sets)
            user = _sets(args, [spec])[spec.id]
            fallback = fallback_words({k: v for k, v in own.items() if k not in user})
            lenient = frozenset({spec.id})
            given = {spec.id: {**own, **user}}
            evs = [
                run(ds, [spec], given, lenient=lenient, policy=args.policy, workers=args.workers)[0]
                for ds in sets
            ]
            for note in say_skipped(evs, sets, names):
                print(f"warning: {note}", file=sys.stderr)
    elif len(dets) == 1 and len(metrics) == 2:
        ds: Dataset = read_sets(args, gt, dets, gt_lines=lines, images=images)[0]
        specs = [resolve(m) for m in metrics]
        evs = run(ds, specs, _sets(args, specs), policy=args.policy, workers=args.workers)
        names = metrics
    else:
        raise CompareError("give two --det and one --metric, or one --det and two --metric")
    names[: len(args.name)] = args.name[:2]
    return evs[0], evs[1], names[0], names[1], fallback


def _fmt(x: float | None) -> str:
    return "     –" if x is None else f"{x:6.3f}"


def _images(c: Comparison) -> str:
    n, total = len(c.ids), len(c.ids) + len(c.left_out)
    return f"{n} images" if not c.left_out else f"on the {n} of {total} images both evaluated"


def _left_out(c: Comparison, out: TextIO) -> None:
    """The images not compared: how many each side did not evaluate, which, the first why."""
    if not c.left_out:
        return
    by: dict[str, int] = {}
    for x in c.left_out:
        by[x.sides] = by.get(x.sides, 0) + 1
    who = "; ".join(f"{k} not evaluated by {_side_name(c, s)}" for s, k in by.items())
    names = ", ".join(x.sample_id for x in c.left_out[:5])
    more = f", ... ({len(c.left_out)}; all in --json)" if len(c.left_out) > 5 else ""
    print(f"left out of the comparison: {who}", file=out)
    print(f"  {names}{more}; first: {c.left_out[0].why}", file=out)


def _side_name(c: Comparison, sides: str) -> str:
    names = {"A": f"A ({c.name_a})", "B": f"B ({c.name_b})"}
    return " and ".join(names[s] for s in sides.split(" and "))


def report(
    c: Comparison, top: int, out: TextIO, bs: Bootstrap | None = None, fallback: str = ""
) -> None:
    """The comparison table; ``fallback``: the values switched on for the default metric
    where its defaults refuse the data (said in the head, as ``eval`` and the viewer say it)."""
    same_metric = c.a.metric == c.b.metric
    what = c.a.metric if same_metric else f"{c.a.metric} vs {c.b.metric}"
    if fallback:
        what += f" ({fallback})"
    print(f"compare {what}: A = {c.name_a}, B = {c.name_b}, {_images(c)}", file=out)
    _left_out(c, out)
    print(f"{'':<10}{'recall':>9}{'precision':>11}{'hmean':>9}", file=out)
    for label, sc in (("A", c.side("a")), ("B", c.side("b"))):
        print(f"{label:<10}{sc.recall:>9.4f}{sc.precision:>11.4f}{sc.hmean:>9.4f}", file=out)
    d = c.global_delta()
    print(f"{'B - A':<10}{d['recall']:>+9.4f}{d['precision']:>+11.4f}{d['hmean']:>+9.4f}", file=out)
    if bs is not None:
        print(f"\nIs B really better? {bs.line()}", file=out)
    elif not same_metric:
        print(
            "\n(no bootstrap: A and B are two metrics on the same detections, so their "
            "difference is no sampling question; the images below show where they disagree)",
            file=out,
        )
    print(f"\nimages by |ΔH-mean|, largest first (top {top}):", file=out)
    print(
        f"{'sample':<14}{'H(A)':>7}{'H(B)':>7}{'ΔH':>8}  GT found only by A | only by B "
        "(GT numbers from 1, as the lines of the GT file)",
        file=out,
    )
    for s in c.samples[:top]:
        a_only = ",".join(str(k + 1) for k in s.found_by_a_only) or "–"
        b_only = ",".join(str(k + 1) for k in s.found_by_b_only) or "–"
        delta = s.delta()
        dtxt = "      –" if delta is None else f"{delta:+8.3f}"
        print(
            f"{s.sample_id:<14}{_fmt(s.score('a', 'hmean')):>7}{_fmt(s.score('b', 'hmean')):>7}"
            f"{dtxt:>8}  {a_only} | {b_only}",
            file=out,
        )


def _outputs_problem(args: argparse.Namespace) -> str | None:
    """Why --json or --csv cannot or must not be written (checked before evaluating)."""
    inputs = [args.gt, *(args.det or []), args.gt_lines]
    for path in (args.json, args.csv):
        problem = output_problem(path, inputs)
        if problem:
            return problem
    if args.json and args.csv and os.path.abspath(args.json) == os.path.abspath(args.csv):
        return f"{args.json} is named for two outputs (--json, --csv)"
    return None


def _write(args: argparse.Namespace, c: Comparison, bs: Bootstrap | None) -> None:
    """--json and --csv, both or neither (``atomic.staged``)."""
    paths = [p for p in (args.json, args.csv) if p]
    if not paths:
        return
    with staged(*paths) as tmp:
        if args.json:
            data = comparison_dict(c)
            if bs is not None:
                data["bootstrap"] = dataclasses.asdict(bs)
            tmp[0].write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        if args.csv:
            with tmp[-1].open("w", newline="", encoding="utf-8") as f:
                w = csv.writer(f)
                w.writerow(COMPARISON_COLUMNS)
                w.writerows(comparison_rows(c))
    settled()


def cmd_compare(args: argparse.Namespace) -> int:
    problem = _outputs_problem(args)
    if problem:
        print(f"detlens: error: {problem}", file=sys.stderr)
        return 2
    try:
        a, b, name_a, name_b, fallback = _evaluations(args)
    except CompareError as exc:
        print(f"detlens: error: {exc}", file=sys.stderr)
        return 2
    if args.resamples < 0:
        print("detlens: error: --resamples must be 0 or more", file=sys.stderr)
        return 2
    try:
        c = compare(a, b, name_a, name_b)  # on the images both evaluated
    except ValueError as exc:
        print(f"detlens: error: {exc}", file=sys.stderr)
        return 2
    bs = None
    if args.resamples and a.metric == b.metric:  # two metrics: no question of sampling
        bs = paired(a, b, resamples=args.resamples, seed=args.seed, ids=c.ids)
    report(c, max(args.top, 0), sys.stdout, bs, fallback)
    _write(args, c, bs)
    return 0
