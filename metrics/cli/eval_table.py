"""``eval``'s summary table: the problems found (grouped), one row per metric (a metric that
read fewer than half of the images has no figure but the reason, ``metrics.cli.skips``), the
metrics left out, and the table of a swept metric."""

from __future__ import annotations

import functools
import sys
from collections.abc import Collection, Mapping, Sequence
from typing import TYPE_CHECKING, TextIO

from metrics.catalogue.registry import METRICS
from metrics.cli import skips
from metrics.core.numbers import count_text, score_text
from metrics.core.protocols import Params

if TYPE_CHECKING:
    from metrics.core.model import Facts, Problem
    from metrics.core.results import Evaluation, SweepTally
    from metrics.declare.spec import MetricSpec


def _note(spec: MetricSpec[Params] | None, key: str, value: float) -> str:
    """``key value``: a count as an integer, a score or ratio with 4 decimals."""
    count = spec is not None and spec.extra_is_count(key)
    return f"{key} {count_text(value) if count else score_text(value)}"


def report(
    problems: Sequence[Problem],
    facts: Facts,
    evals: Sequence[Evaluation[Params]],
    out: TextIO | None = None,
    left_out: Mapping[str, str] | None = None,
    said: Collection[Problem] = (),
) -> None:
    """The summary table; metrics that ``--metric all`` left out follow it, with the reason.
    A metric that skipped images says on how many of the set it scored; one that read fewer
    than half of them shows no figure, but why and the fix (``metrics.core.partial``).
    The problems found are listed before it, but those ``said`` already (the first problem
    a plan's note names)."""
    from metrics.cli.confidence_notes import extra_hint
    from metrics.cli.listing import grouped
    from metrics.core.model import Severity
    from metrics.core.partial import coverage

    out = out or sys.stdout
    conf = facts.has_confidences
    found = list(dict.fromkeys([*problems, *(p for ev in evals for p in ev.problems)]))
    found = [p for p in found if p not in said]
    for severity in (Severity.ERROR, Severity.WARNING):  # errors: what skip_sample skipped
        said = [p for p in found if p.severity is severity]
        for line in grouped(said, 5, where="all in --json"):  # FILE:LINE: error: ... (and
            print(line, file=sys.stderr)  # 19 more like it: FILE:LINE, ...)
    n, n_gt, n_det = facts.n_samples, facts.n_gt, facts.n_det
    print(f"{n} images, {n_gt} GT boxes, {n_det} detections", file=out)
    w = max([19, *(len(e.metric) + 1 for e in evals), *(len(m) + 1 for m in left_out or {})])
    print(f"{'metric':<{w}}{'recall':>8}{'precision':>11}{'hmean':>9}  notes", file=out)
    for ev in evals:
        cov = coverage(ev, n, tuple(problems))
        if skips.no_score(cov, w, out):  # fewer than half read: no figure, the reason
            continue
        spec = METRICS.get(ev.metric)
        hint = functools.partial(extra_hint, spec, has_confidences=conf)
        extra = [_note(spec, k, v) + hint(k) for k, v in ev.extras.items()]
        notes = ", ".join([*extra, cov.label()] if cov.partial else extra)  # "on 101 of 500"
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


def _sweep_table(ev: Evaluation[Params], sweep: SweepTally, out: TextIO) -> None:
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
