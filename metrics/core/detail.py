"""Whether a run keeps each result's GT list and match records.

``metrics.run.sharded`` evaluates for the summary alone when nothing asks for per-sample
results (no ``--json``, ``--csv``, analysis or viewer): it keeps each sample's tally and,
for ``global_extras``, the result without its per-instance lists. Inside
``tallies_only()`` a metric may leave ``SampleResult.gt`` and ``matches`` empty; everything
else (scores, tally, the detections' verdicts, evidence, extra values, warnings) must be
what it is otherwise. Building those lists is a quarter of an ICDAR-family evaluation.

``tallies_only(results=False)`` says more: nothing but each result's tally is read (no metric
of the run has ``global_extras``). A metric may then also skip what only its results'
other numbers need (the word + text-line IoU clips no TIoU outlier).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_LISTS: ContextVar[bool] = ContextVar("detlens_instance_lists", default=True)
_RESULTS: ContextVar[bool] = ContextVar("detlens_results_read", default=True)


@contextmanager
def tallies_only(results: bool = True) -> Iterator[None]:
    """Within the block, metrics may skip the GT list and the match records (and with
    ``results`` False everything but the tally)."""
    token, read = _LISTS.set(False), _RESULTS.set(results)
    try:
        yield
    finally:
        _LISTS.reset(token)
        _RESULTS.reset(read)


def instance_lists() -> bool:
    """False inside ``tallies_only()``."""
    return _LISTS.get()


def results_read() -> bool:
    """False inside ``tallies_only(results=False)``: only the tallies are read."""
    return _RESULTS.get()
