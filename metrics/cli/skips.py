"""What ``eval`` does about metrics that cannot score the set: a metric of a ``--metric``
list meant for other inputs that they break is left out (``runner.plan_named``) and the
others run; a metric that read fewer than half of the images has a row without a figure,
the reason and the fix under it, and the run exits 1 (``metrics.core.partial``).

Imports nothing heavy at module level (``eval --help`` stays light)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, TextIO

from metrics.cli.commands import UserError
from metrics.core.logs import logger
from metrics.core.protocols import Params

if TYPE_CHECKING:
    from metrics.core.model import Dataset
    from metrics.core.partial import Coverage
    from metrics.core.results import Evaluation
    from metrics.declare.spec import MetricSpec
    from metrics.run.runner import Plan
    from metrics.run.sharded import Outcome

log = logger("detlens")


def exit_code(evals: Sequence[Evaluation[Params]]) -> int:
    """1 when a metric read fewer than half of the images (its row has no score), else 0."""
    from metrics.core.partial import coverage

    return 0 if all(coverage(ev).scored for ev in evals) else 1


def plan_named(
    ds: Dataset, specs: Sequence[MetricSpec[Params]], overrides: Mapping[str, Mapping[str, object]]
) -> Plan:
    """``--metric a,b,c``: the plan (``runner.plan_named``), its notes logged as warnings;
    a list of which no metric is left is refused with every reason."""
    from metrics.run.runner import plan_named as plan_of

    plan = plan_of(ds, specs, overrides)
    if not plan.specs:
        raise UserError(f"no metric of --metric reads these inputs: {'; '.join(plan.notes)}")
    for note in plan.notes:
        log.warning("%s", note)
    return plan


def leaves_out(specs: Sequence[MetricSpec[Params]], outcome: Outcome) -> bool:
    """Whether a metric of several named is meant for other inputs and refused (some of)
    them: then the loaded path runs, which leaves it out and runs the others."""
    if len(specs) < 2:
        return False
    wrong = {s.id for s in specs if not s.applies(outcome.facts)}
    return bool(wrong) and (
        outcome.refused is not None
        or any(ev.excluded for ev in outcome.evaluations if ev.metric in wrong)
    )


def no_score(cov: Coverage, w: int, out: TextIO) -> bool:
    """The row of a metric that read fewer than half of the images of the set (but some
    were read): no figure, then how much was read, the first problem, the fix; False (and
    nothing printed) for any other metric."""
    if cov.scored or not cov.partial:
        return False
    dash = "–"
    print(f"{cov.metric:<{w}}{dash:>8}{dash:>11}{dash:>9}  {cov.label()}: no score", file=out)
    print(f"{'':<{w}}  fewer than half of the images read ({cov.skipped} skipped)", file=out)
    if cov.first is not None:
        print(f"{'':<{w}}  first problem: {cov.first}", file=out)
    print(f"{'':<{w}}  fix: {cov.fix()}", file=out)
    return True
