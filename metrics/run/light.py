"""What a summary-only run keeps of each result: the tally and what ``global_extras`` reads.

A run whose per-sample results nobody reads (``detlens eval`` without ``--json``, ``--csv``
or an analysis; ``runner.run(..., results=False)``) must not hold every instance's verdict
of every metric until the end: on 1 M GT + 1 M detections that was most of the 7.6 GB of
issue 30. Each result is cut down as soon as its block is evaluated (``strip``), and the
``Evaluation`` then carries the summary and extras but no per-sample results, as
``metrics.run.sharded`` gives them without ``results``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Literal

from metrics.core.protocols import Params
from metrics.core.results import SampleResult
from metrics.declare.spec import MetricSpec
from metrics.shapes.mode import Detail

# What a cut-down result leaves out: "full" nothing (a metric with ``finalize`` needs its
# results), "lists" the per-instance lists, "evidence" the lists and the evidence, "none"
# everything but the tally (for a metric without ``global_extras``).
Light = Literal["full", "lists", "evidence", "none"]


def light_kind(spec: MetricSpec[Params]) -> Light:
    """What ``spec``'s ``global_extras`` (and ``finalize``) need of each result."""
    if spec.finalize is not None:
        return "full"
    if spec.global_extras is None:
        return "none"
    return "lists" if spec.extras_read_evidence else "evidence"


def light_detail(kinds: Sequence[Light], asked: Detail) -> Detail:
    """What a run must build of each result when each is cut down as its block ends
    (``strip`` by ``kinds``, one per metric): ``asked``, or less when no kind keeps more."""
    if asked in (Detail.FULL, Detail.TALLIES) or "full" in kinds:
        return asked
    if "lists" in kinds:  # some extras read the evidence: all but the per-instance lists
        return Detail.EXTRAS
    return Detail.VALUES if "evidence" in kinds else Detail.TALLIES


def strip(r: SampleResult, kind: Light) -> SampleResult:
    """``r`` without what ``kind`` says nobody reads (its tally, scores, extra values and
    warnings are kept), marked ``complete=False``."""
    if kind == "full" or (_bare(r) and (kind == "lists" or r.evidence is None)):
        return r  # already without what ``kind`` leaves out
    if kind == "lists":
        return dataclasses.replace(r, gt=(), det=(), matches=(), complete=False)
    return dataclasses.replace(r, gt=(), det=(), matches=(), evidence=None, complete=False)


def _bare(r: SampleResult) -> bool:
    """Whether ``r`` is marked incomplete and has no per-instance list."""
    return not (r.complete or r.gt or r.det or r.matches)
