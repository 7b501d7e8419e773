"""The plan of a set (``metrics.run.runner.plan_all``: the metrics that apply, their fallback
values, the images each must skip) made in runs of samples, on the thread that read it.

Each metric's validation is array work over every box it is given; over a whole
TextOCR-size set one call held the interpreter (and the window) for up to 0.65 s. A metric
whose validation splits over samples (``MetricSpec.shardable``: concatenated over any split
it gives what it gives over the whole set) validates here 250 samples at a time; the plan
is the one ``plan_all`` makes, naming the registry's metrics.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import TypeVar

from metrics.catalogue.registry import applicable
from metrics.core.model import Dataset, Problem, Sample
from metrics.declare.spec import ValidateBatch
from metrics.run.runner import Plan, plan_all

RUN = 250  # samples validated at a time
P = TypeVar("P")


def plan_in_runs(ds: Dataset, overrides: Mapping[str, Mapping[str, object]] | None = None) -> Plan:
    """``plan_all(ds, applicable(ds), overrides)``, validating in runs where that is the same."""
    specs = applicable(ds)
    runs = [
        dataclasses.replace(s, validate=_in_runs(s.validate)) if s.shardable else s for s in specs
    ]
    plan = plan_all(ds, runs, overrides)
    own = {s.id: s for s in specs}
    return dataclasses.replace(plan, specs=[own[s.id] for s in plan.specs])


def _in_runs(validate: ValidateBatch[P]) -> ValidateBatch[P]:
    def runs(samples: Sequence[Sample], params: P) -> list[Problem]:
        found: list[Problem] = []
        for k in range(0, len(samples), RUN):
            found.extend(validate(samples[k : k + RUN], params))
        return found

    return runs
