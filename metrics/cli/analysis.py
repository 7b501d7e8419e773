"""``detlens eval``'s analysis options: ``--set score_threshold=X``, ``--sweep``,
``--attribution`` and ``--instances OUT.csv|.jsonl`` (engine in ``metrics.analysis``)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from metrics.analysis import threshold as thr
from metrics.catalogue.registry import METRICS, MetricSpec, make_params
from metrics.core.jsonvalue import JSONObject
from metrics.core.logs import logger
from metrics.core.model import Dataset, Problem
from metrics.core.protocols import Params
from metrics.core.results import Evaluation
from metrics.run.runner import Policy, Progress, run
from metrics.shapes.mode import Detail

if TYPE_CHECKING:  # the analyses are imported when an option asks for them
    from metrics.analysis.attribution import Attribution
    from metrics.analysis.sweep import Sweep

log = logger("detlens")


def check(args: argparse.Namespace, ds: Dataset) -> dict[str, float]:
    """Option mistakes of these options (ValueError, one line) and the score thresholds
    taken out of ``args.set``."""
    if args.instances and not args.instances.lower().endswith(_instance_formats()):
        raise ValueError(f"--instances {args.instances}: give a .csv or .jsonl file name")
    if args.sweep_points is None:
        args.sweep_points = 100
    if args.sweep_points < 0:
        raise ValueError("--sweep-points must be 0 (every distinct confidence) or more")
    if args.sweep and not len(thr.confidences(ds)):
        raise ValueError("--sweep needs confidences: no detection line carries one")
    args.set, found = thr.split_sets(args.set)
    return found


def _instance_formats() -> tuple[str, ...]:
    from metrics.analysis.instances import FORMATS

    return FORMATS


def _threshold_of(spec: MetricSpec[Params], found: Mapping[str, float]) -> float | None:
    for name in (spec.id, *spec.aliases):
        if name in found:
            return found[name]
    return found.get("")


def check_targets(found: Mapping[str, float], specs: Sequence[MetricSpec[Params]]) -> None:
    """A ``METRIC.score_threshold`` must name a metric being evaluated."""
    names = {n for s in specs for n in (s.id, *s.aliases)}
    for name in found:
        if name and name.lower() not in names:
            raise ValueError(f"--set {name}.score_threshold: {name} is not being evaluated")


def evaluate(
    ds: Dataset,
    specs: Sequence[MetricSpec[Params]],
    overrides: Mapping[str, Mapping[str, object]],
    found: Mapping[str, float],
    *,
    policy: Policy = "strict",
    workers: int = 1,
    progress: Progress | None = None,
    lenient: frozenset[str] = frozenset(),
    validated: Mapping[str, list[Problem]] | None = None,
    detail: Detail = Detail.FULL,
    results: bool = True,
) -> tuple[list[Evaluation[Params]], dict[str, Dataset]]:
    """``run`` (its options as there) with each metric on its detections filtered at its
    score threshold (one pass per distinct threshold); results in the order of ``specs``
    and the dataset each metric saw."""
    groups: dict[float | None, list[MetricSpec[Params]]] = {}
    for s in specs:
        groups.setdefault(_threshold_of(s, found), []).append(s)
    by_id: dict[str, Evaluation[Params]] = {}
    seen: dict[str, Dataset] = {}
    for t, members in groups.items():
        data = ds if t is None else thr.filter_dataset(ds, t)
        if t is not None:
            kept = sum(len(s.det) for s in data)
            log.warning(
                "%s: detections with confidence >= %g kept (%d of %d; lines without one kept)",
                ", ".join(m.id for m in members),
                t,
                kept,
                sum(len(s.det) for s in ds),
            )
        for ev in run(
            data,
            members,
            overrides,
            policy=policy,
            workers=workers,
            progress=progress,
            lenient=lenient,
            validated=validated,
            detail=detail,
            results=results,
        ):
            by_id[ev.metric] = ev
            seen[ev.metric] = data
    return [by_id[s.id] for s in specs], seen


def sweep_of(
    ds: Dataset, ev: Evaluation[Params], points: int, overrides: Mapping[str, Mapping[str, object]]
) -> Sweep:
    from metrics.analysis.sweep import sweep

    spec = METRICS[ev.metric]
    prm = make_params(spec, overrides.get(ev.metric))
    return sweep(ds, spec, prm, ev, thr.grid(thr.confidences(ds), points))


def print_sweep(sw: Sweep, out: TextIO, shown_rows: int = 10) -> None:
    """Best threshold, labelled for what it is, and about ``shown_rows`` of the points (the
    table says when it shows a subset; --json keeps them all)."""
    sc = sw.scores()
    best = sw.best_index
    r, p, h = sc[best]
    print(
        f"\n{sw.metric}: {len(sw.thresholds)} confidence thresholds "
        f"({sw.thresholds[0]:.4g} to {sw.thresholds[-1]:.4g}); best threshold "
        f"{sw.thresholds[best]:.4g}: recall {r:.4f}, precision {p:.4f}, hmean {h:.4f}",
        file=out,
    )
    print(
        "  (chosen on the evaluated set itself: an optimistic figure, not a held-out score; "
        "MMOCR and PaddleOCR report such a best-of-sweep H-mean as the score)",
        file=out,
    )
    n = len(sw.thresholds)
    step = max(1, n // shown_rows)
    shown = sorted({*range(0, n, step), n - 1, best})
    if len(shown) < n:
        every = f"every {_ordinal(step)}, " if step > 1 else ""
        print(
            f"  {len(shown)} of the {n} thresholds shown ({every}the last and the best; "
            "all of them in --json)",
            file=out,
        )
    print(
        f"  {'threshold':>10}{'recall':>8}{'precision':>11}{'hmean':>9}{'kept dets':>11}", file=out
    )
    for k in shown:
        mark = "  <- best" if k == best else ""
        r, p, h = sc[k]
        print(
            f"  {sw.thresholds[k]:>10.4g}{r:>8.4f}{p:>11.4f}{h:>9.4f}{int(sw.kept[k]):>11d}{mark}",
            file=out,
        )


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def attribution_of(ds: Dataset, ev: Evaluation[Params], prm: Params) -> Attribution:
    from metrics.analysis.attribution import attribute

    return attribute(ds, METRICS[ev.metric], prm, ev)


def print_attribution(a: Attribution, out: TextIO) -> None:
    """The table: each class's count in the metric's own unit, H fixed and gain; a class
    the metric cannot have is marked so, with how the metric books such an error."""
    if not a.classes:
        print(f"\n{a.metric}: no attribution ({a.note})", file=out)
        return
    print(f"\n{a.metric}: H-mean {a.hmean:.4f}; each error class fixed by an oracle:", file=out)
    print(f"  {'class':<16}{'count':>8}  {'unit':<20}{'H fixed':>9}{'gain':>9}", file=out)
    for c in a.classes:
        if c.impossible:
            print(f"  {c.name:<16}{'–':>8}  {'(not a class of it)':<20}{'–':>9}{'–':>9}", file=out)
            continue
        count = f"{c.count:g}"
        print(f"  {c.name:<16}{count:>8}  {c.unit:<20}{c.hmean:>9.4f}{c.gain:>+9.4f}", file=out)
    for c in a.classes:
        if c.impossible:
            print(f"  note: {c.impossible}", file=out)
    if a.ceiling_note():
        print(f"  note: {a.ceiling_note()}", file=out)


def after(
    args: argparse.Namespace,
    evals: Sequence[Evaluation[Params]],
    seen: Mapping[str, Dataset],
    overrides: Mapping[str, Mapping[str, object]],
) -> dict[str, JSONObject]:
    """Sweep and attribution tables (unless quiet), then the instance export. Returns the
    analyses asked for by metric id, for ``--json`` (computed for it whatever -q says)."""
    kept: dict[str, dict[str, Any]] = {}
    if not args.quiet or args.json:
        for ev in evals:
            if ev.summary is not None:
                doc = _analyses(args, ev, seen[ev.metric], overrides)
                if doc:
                    kept[ev.metric] = doc
    if args.instances:
        from metrics.analysis.instances import write_instances

        n = write_instances(args.instances, seen, evals)
        if not args.quiet:
            print(f"{n} instance rows written to {args.instances}", file=sys.stdout)
    return kept


def _analyses(
    args: argparse.Namespace,
    ev: Evaluation[Params],
    ds: Dataset,
    overrides: Mapping[str, Mapping[str, object]],
) -> JSONObject:
    from metrics.analysis import serialize

    doc: dict[str, Any] = {}
    if args.sweep:
        sw = sweep_of(ds, ev, args.sweep_points, overrides)
        doc["sweep"] = serialize.sweep_dict(sw)
        if not args.quiet:
            print_sweep(sw, sys.stdout)
    if args.attribution:
        a = attribution_of(ds, ev, make_params(METRICS[ev.metric], overrides.get(ev.metric)))
        doc["attribution"] = serialize.attribution_dict(a)
        if not args.quiet:
            print_attribution(a, sys.stdout)
    return doc


__all__ = ["after", "check", "evaluate"]
