"""No garbage collection while a background thread reads or evaluates a dataset.

An automatic collection runs in whichever thread allocates at that moment and holds the
interpreter for its whole length: while a worker thread builds the million objects of a
TextOCR-size set, the full collections it triggers (each over everything made so far) froze
the window for up to 3.5 s (measured by ``benchmarks/probe_viewer.py``). So while any
background job runs, automatic collection is off; when the last one ends, everything alive
is frozen (``gc.freeze``: later collections skip it, the results stay while shown) and
collection is on again.

Freed objects are still released by reference counting at once; only cyclic garbage made
during a job waits (the engine makes almost none: ``metrics.run.pool.paused_gc``).

Meanwhile the interpreter is also handed over more often (``sys.setswitchinterval``: 1 ms,
not 5): Qt calls back into Python once per table cell, per resize and per timer, and each
call waited up to a whole interval for a busy worker to let go (a table fit took 80 ms
instead of 7 while a set was evaluated).
"""

from __future__ import annotations

import gc
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_running = 0
_was_enabled = True
_was_interval = 0.005
SWITCH_INTERVAL = 0.001  # s, while a background job runs


@contextmanager
def quiet_gc() -> Iterator[None]:
    """Automatic collection off for the block (nested and concurrent blocks allowed)."""
    global _running, _was_enabled, _was_interval
    with _lock:
        if _running == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
            _was_interval = sys.getswitchinterval()
            sys.setswitchinterval(min(_was_interval, SWITCH_INTERVAL))
        _running += 1
    try:
        yield
    finally:
        with _lock:
            _running -= 1
            if _running == 0:
                sys.setswitchinterval(_was_interval)
                gc.freeze()
                if _was_enabled:
                    gc.enable()


def active() -> int:
    """How many background jobs hold collection off now."""
    return _running
