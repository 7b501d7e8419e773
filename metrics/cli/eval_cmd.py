"""``detlens eval``: read, plan, evaluate, report and write (``metrics.cli.main`` parses).

ICDAR txt inputs with metrics named and no analysis option are read, checked and evaluated
slice by slice, in each of the ``--workers`` processes (``metrics.run.sharded``); otherwise the
dataset is loaded here and ``runner.run`` evaluates it.
"""

from __future__ import annotations

import argparse
import functools
import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from metrics.catalogue.registry import METRICS, applicable, make_params, parse_sets, resolve
from metrics.cli import skips
from metrics.cli.analysis_args import names_score_threshold
from metrics.cli.commands import UserError
from metrics.cli.eval_table import report
from metrics.cli.format_options import floats_mode, load_options, say_floats, say_misfit
from metrics.core.logs import logger
from metrics.core.protocols import Params

if TYPE_CHECKING:
    from metrics.core.jsonvalue import JSONValue
    from metrics.core.model import Dataset, Facts, InputError, Problem
    from metrics.core.results import Evaluation
    from metrics.declare.spec import MetricSpec
    from metrics.run.runner import Plan
    from metrics.shapes.mode import Detail

log = logger("detlens")


def _specs(names: Sequence[str] | None, ds: Dataset) -> tuple[list[MetricSpec[Params]], bool]:
    named = _named(names, ds.gt_lines_path is not None)
    return (applicable(ds), True) if named is None else (named, False)


def _named(names: Sequence[str] | None, has_gt_lines: bool) -> list[MetricSpec[Params]] | None:
    """The metrics asked for by name (None for ``all``)."""
    wanted = [n for arg in (names or ["all"]) for n in arg.split(",") if n.strip()]
    if not wanted:
        raise UserError("--metric is empty: give a metric id, several, or all")
    if any(n.strip().lower() == "all" for n in wanted):
        return None
    try:
        specs = [resolve(n) for n in wanted]
    except KeyError as exc:
        raise UserError(exc.args[0]) from None
    for s in specs:
        if s.needs_gt_lines and not has_gt_lines:
            raise UserError(f"{s.id} needs the text-line GT: add --gt-lines PATH")
    return list(dict.fromkeys(specs))


def _overrides(
    sets: Sequence[str], specs: Sequence[MetricSpec[Params]], floats: str = "as-given"
) -> dict[str, dict[str, str]]:
    """``--set`` items per metric (``--floats refuse`` first), each value checked against its
    parameter's type now, so a mistake is one line naming metric and parameter before
    anything is evaluated."""
    try:
        out = parse_sets(sets, specs, floats=floats)
    except ValueError as exc:
        raise UserError(exc.args[0]) from None
    for mid, values in out.items():
        for key, value in values.items():
            try:
                make_params(METRICS[mid], {key: value})
            except (TypeError, ValueError) as exc:
                raise UserError(f"--set {mid}.{key}={value}: {exc}") from None
    return out


def why_not(spec: MetricSpec[Params]) -> str:
    """What a metric asks of the data, in words (``requires``, else its ``applies`` rule)."""
    from metrics.run.runner import meant_for

    return meant_for(spec)


def _check_outputs(paths: Sequence[str | None], inputs: list[str | None]) -> None:
    """Refuse, before evaluating, an output path that cannot or must not be written."""
    given = [p for p in paths if p]
    if not given:
        return
    from metrics.io.atomic import output_problem

    for p in given:
        problem = output_problem(p, inputs)
        if problem:
            raise UserError(problem)
    same = [p for k, p in enumerate(given) if _same(p, given[:k])]
    if same:
        raise UserError(f"{same[0]} is named for two outputs (--json, --csv, --instances)")


def _check_pairs(args: argparse.Namespace) -> None:
    """Options that only work with another: said, not silently ignored."""
    if args.workers < 1:
        raise UserError(f"--workers {args.workers}: give 1 or more")
    if args.evidence and not args.json:
        raise UserError("--evidence goes with --json (the evidence is written into it)")
    if args.sweep_points is not None and not args.sweep:
        raise UserError("--sweep-points goes with --sweep")
    if args.images is not None and not os.path.isdir(args.images):
        raise UserError(f"--images {args.images}: not a folder (give the folder of the images)")


def _same(path: str, others: Sequence[str]) -> bool:
    import os

    return any(os.path.abspath(path) == os.path.abspath(o) for o in others)


def _notes_before(
    facts: Facts,
    specs: Sequence[MetricSpec[Params]],
    auto: bool,
    overrides: Mapping[str, Mapping[str, object]],
) -> None:
    """Say what the run will do that a user might not expect: metrics asked for that are
    meant for other inputs; with confidences, which metrics rank by them and which report
    an AP (``metrics.cli.confidence_notes``, from each ``MetricSpec.confidences``)."""
    if not auto:
        for s in specs:
            if not s.applies(facts):
                log.warning(
                    "%s is meant for %s; these inputs are not: evaluated as asked",
                    s.id,
                    why_not(s).rstrip("."),
                )
    if facts.has_confidences:
        from metrics.cli.confidence_notes import confidence_warning

        said = confidence_warning(specs, {s.id: make_params(s, overrides.get(s.id)) for s in specs})
        if said:
            log.warning("%s", said)


def _notes_after(
    args: argparse.Namespace,
    facts: Facts,
    specs: Sequence[MetricSpec[Params]],
    auto: bool,
    overrides: Mapping[str, Mapping[str, object]],
    refused: InputError | None,
) -> None:
    """The notes of named metrics (``_notes_before``; ``--metric all`` says them before it
    runs), once the run is done: none when it was refused as one fact about the whole set
    (``InputError.whole``: that line says why), nor with ``--quiet``."""
    if args.quiet or auto or (refused is not None and refused.whole):
        return
    _notes_before(facts, specs, auto, overrides)
    say_floats(facts, floats_mode(args))


def _dataset(args: argparse.Namespace) -> Dataset:
    from metrics.core.model import Severity
    from metrics.io.reader import load_dataset

    gt, det, images = args.gt, args.det, args.images
    if gt is None and det is None:
        from metrics.io.demo import demo_paths

        demo = demo_paths()
        gt, det, images = demo.gt, demo.det_b, images or demo.images
    elif gt is None:
        raise UserError("--det given without --gt")
    elif det is None:
        raise UserError("--det missing: nothing to evaluate")
    ds = load_dataset(gt, det, gt_lines=args.gt_lines, images=images, options=load_options(args))
    bad = [p for p in ds.problems if p.severity is Severity.ERROR]
    if bad and _same_file(gt, det):  # a slip, or a sanity check
        raise UserError(f"--det is the GT itself and does not read as detections: {bad[0]}")
    if images is not None:  # an image folder that does not fit the GT, said before the scores
        say_misfit(ds)
    return ds


def _first_error(found: Sequence[Problem]) -> Problem:
    """The first error of a metric's validation: the one its plan note names."""
    from metrics.core.model import Severity

    return next(p for p in found if p.severity is Severity.ERROR)


def _plan(ds: Dataset, specs: Sequence[MetricSpec[Params]], overrides: Mapping[str, Any]) -> Plan:
    """``--metric all``: the plan, its notes logged as warnings."""
    from metrics.run.runner import plan_all

    plan = plan_all(ds, specs, overrides)
    for note in plan.notes:
        log.warning("%s", note)
    return plan


def cmd_eval(args: argparse.Namespace) -> int:
    inputs = [args.gt, args.det, args.gt_lines, args.images]
    _check_outputs([args.json, args.csv, args.instances], inputs)
    _check_pairs(args)
    code = _sharded(args)
    if code is not None:
        return code
    # the loaded path: the analyses' options (and the analyses they ask for) are read here,
    # so a plain sharded run imports none of ``metrics.analysis``
    from metrics.cli import analysis
    from metrics.core.model import InputError
    from metrics.run.progress import ProgressBar

    ds = _dataset(args)
    thresholds = analysis.check(args, ds)  # takes score_threshold out of args.set
    specs, auto = _specs(args.metric, ds)
    analysis.check_targets(thresholds, specs)
    overrides = _overrides(args.set, specs, floats_mode(args))
    offered = list(specs) if auto else []
    lenient: frozenset[str] = frozenset()
    validated = None
    left_out: dict[str, str] = {}
    if not auto:  # a metric of a list meant for other inputs that they break: left out
        named = skips.plan_named(ds, specs, overrides)
        specs, validated, left_out = named.specs, named.validated, dict(named.left_out)
    if not args.quiet and auto:
        _notes_before(ds.facts, specs, auto, overrides)
        say_floats(ds.facts, floats_mode(args))
    said: list[Problem] = []  # the first problem of each note on images skipped
    if auto:
        plan = _plan(ds, specs, overrides)
        specs, lenient, validated = plan.specs, plan.lenient, plan.validated
        said = [_first_error(plan.validated[mid]) for mid in lenient]
        overrides, left_out = plan.overrides, dict(plan.left_out)
    if not specs:
        raise UserError("no metric applies to these inputs")
    bar = None if args.quiet else ProgressBar()
    notes = functools.partial(_notes_after, args, ds.facts, specs, auto, overrides)
    try:
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
            detail=_detail(args),
            results=_reads_results(args),
        )
    except InputError as exc:
        notes(exc)
        raise
    notes(None)
    if not args.quiet:
        report(ds.problems, ds.facts, evals, left_out=left_out, said=said)
        if auto:
            others = [mid for mid in METRICS if mid not in {m.id for m in offered}]
            if others:
                print(
                    f"not offered for these inputs (ask with --metric ID; --list-metrics says "
                    f"what each is for): {', '.join(others)}"
                )
    kept = analysis.after(args, evals, seen, overrides)
    _write_outputs(args, evals, kept)
    return skips.exit_code(evals)


def _detail(args: argparse.Namespace) -> Detail:
    """``Detail.SUMMARY`` when nothing of this run reads a result's GT list or match
    records (no --json, --csv, --instances, --sweep or --attribution): the summary table
    alone, e.g. ``--metric all``; else every result whole."""
    from metrics.shapes.mode import Detail

    if args.json or args.csv or args.instances or args.sweep or args.attribution:
        return Detail.FULL
    return Detail.SUMMARY


def _reads_results(args: argparse.Namespace) -> bool:
    """Whether anything of this run reads the per-sample results (--json, --csv,
    --instances, --sweep or --attribution); else the run keeps tallies only
    (``runner.run(results=False)``), e.g. ``--metric all`` for the summary table."""
    return bool(args.json or args.csv or args.instances or args.sweep or args.attribution)


def _sharded(args: argparse.Namespace) -> int | None:
    """ICDAR txt inputs, metrics named, no analysis option: each process (``--workers``)
    reads, checks and evaluates its own slices (``metrics.run.sharded``), the exit code; None
    when the run needs the dataset here (then nothing has been printed or read in full):
    also when a metric of several named is meant for other inputs and they break its rules
    (it is left out there, ``runner.plan_named``)."""
    if args.gt is None or args.det is None or args.instances or args.sweep or args.attribution:
        return None
    if args.images is not None:
        return None  # the loaded set is checked against the images' sizes (_dataset)
    if names_score_threshold(args.set) or _same_file(args.gt, args.det):
        return None  # score thresholds, or --det given the GT (the loaded path says why)
    specs = _named(args.metric, args.gt_lines is not None)
    if specs is None:
        return None
    from metrics.run import sharded
    from metrics.run.progress import ProgressBar

    overrides = _overrides(args.set, specs, floats_mode(args))
    outcome = sharded.evaluate(
        args.gt,
        args.det,
        specs,
        overrides,
        gt_lines=args.gt_lines,
        images=args.images,
        options=load_options(args),
        policy=args.policy,
        workers=args.workers,
        progress=None if args.quiet else ProgressBar(),
        results=bool(args.json or args.csv),
    )
    if outcome is None or skips.leaves_out(specs, outcome):
        return None
    _notes_after(args, outcome.facts, specs, False, overrides, outcome.refused)
    if outcome.refused is not None:
        raise outcome.refused
    if not args.quiet:
        report(outcome.problems, outcome.facts, outcome.evaluations)
    _write_outputs(args, outcome.evaluations)
    return skips.exit_code(outcome.evaluations)


def _same_file(a: str, b: str) -> bool:
    return os.path.realpath(a) == os.path.realpath(b)


def _write_outputs(
    args: argparse.Namespace,
    evals: Sequence[Evaluation[Params]],
    analyses: Mapping[str, Mapping[str, JSONValue]] | None = None,
) -> None:
    """--json (with the analyses asked for, under each metric's "analysis") and --csv."""
    if not (args.json or args.csv):
        return
    from metrics.io import atomic, writers

    with atomic.staged(*[p for p in (args.json, args.csv) if p]) as tmp:  # both, or neither
        if args.json:
            writers.write_json(tmp[0], evals, evidence=args.evidence, analyses=analyses)
        if args.csv:
            writers.write_csv(tmp[-1], evals)
    atomic.settled()
