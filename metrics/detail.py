"""Whether a run keeps each result's GT list and match records.

``metrics.sharded`` evaluates for the summary alone when nothing asks for per-sample
results (no ``--json``, ``--csv``, analysis or viewer): it keeps each sample's tally and,
for ``global_extras``, the result without its per-instance lists. Inside
``tallies_only()`` a metric may leave ``SampleResult.gt`` and ``matches`` empty; everything
else (scores, tally, the detections' verdicts, evidence, extra values, warnings) must be
what it is otherwise. Building those lists is a quarter of an ICDAR-family evaluation.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_LISTS: ContextVar[bool] = ContextVar("detlens_instance_lists", default=True)


@contextmanager
def tallies_only() -> Iterator[None]:
    """Within the block, metrics may skip the GT list and the match records."""
    token = _LISTS.set(False)
    try:
        yield
    finally:
        _LISTS.reset(token)


def instance_lists() -> bool:
    """False inside ``tallies_only()``."""
    return _LISTS.get()
