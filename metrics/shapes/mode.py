"""How a metric is asked to evaluate: what of each result is read, and the geometry cache
to share. Passed as an argument from the one loop over samples (``metrics.run.runner``)
through a spec's ``evaluate`` to the family code, which reads no ambient state.

``Detail.FULL`` (the default) builds every result whole. ``Detail.SUMMARY`` is asked when
nothing reads a result's GT list or match records (the summary table alone, ``--metric
all``, a sharded run for the command line, ``global_extras`` reading the rest): a metric may
then leave ``SampleResult.gt`` and ``matches`` empty and says so with ``complete=False``;
everything else (scores, tally, the detections' verdicts, evidence, extra values, warnings)
is what it is otherwise. Building those lists is a quarter of an ICDAR-family evaluation.
``Detail.VALUES`` says that nothing reads the detections' list or the evidence either (what
``metrics.run.light`` keeps for a ``global_extras`` that does not read evidence): a metric
may leave them out too (``None`` evidence); its scores, tally and extra values stay whole.
``Detail.TALLIES`` says more: nothing but each result's tally is read (no metric of the run
has ``global_extras``), so a metric may also skip what only its results' other numbers need
(the word + text-line IoU clips no TIoU outlier). ``Detail.EXTRAS`` lies between: each
result's tally, extra values and evidence are read (what ``global_extras`` reads), but no
per-instance list, so a metric may leave ``det`` empty too (also ``complete=False``).

The ``cache`` is the geometry computed in bulk and the values memoized for the metrics of
one block of samples (``metrics.shapes.cache``); the loop opens one per block, so two runs
never share one and nothing outlives its block. ``Mode()`` outside a run: every result
whole, a fresh cache of its own.
"""

from __future__ import annotations

from enum import Enum

from metrics.core.records import dataclass, field
from metrics.shapes.cache import GeometryCache


class Detail(Enum):
    """What a run reads of each result."""

    FULL = "full"  # everything
    SUMMARY = "summary"  # all but the GT list and the match records
    EXTRAS = "extras"  # the tally, extra values and evidence: no per-instance list
    VALUES = "values"  # scores, tally, extra values and warnings
    TALLIES = "tallies"  # the tally alone


@dataclass(frozen=True)
class Mode:
    """The detail a run asks of each result and the cache its metrics share."""

    detail: Detail = Detail.FULL
    cache: GeometryCache = field(default_factory=GeometryCache, compare=False, repr=False)

    @property
    def instances(self) -> bool:
        """Whether each result's GT list and match records are built (else the result is
        marked ``complete=False``)."""
        return self.detail is Detail.FULL

    @property
    def verdicts(self) -> bool:
        """Whether each result's detection list is built (the GT list: ``instances``)."""
        return self.detail is Detail.FULL or self.detail is Detail.SUMMARY

    @property
    def evidence(self) -> bool:
        """Whether each result's evidence is read (a metric that builds its detection list
        with its evidence builds both then; else the result is marked ``complete=False``)."""
        return self.detail in (Detail.FULL, Detail.SUMMARY, Detail.EXTRAS)

    @property
    def results(self) -> bool:
        """Whether anything beyond each result's tally is read."""
        return self.detail is not Detail.TALLIES

    def fresh(self) -> Mode:
        """The same detail with a new, empty cache (a block evaluated again on its own)."""
        return Mode(self.detail)
