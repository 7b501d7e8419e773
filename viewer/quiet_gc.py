"""No garbage collection while a background thread reads or evaluates a dataset.

An automatic collection runs in whichever thread allocates at that moment and holds the
interpreter for its whole length: while a worker thread builds the million objects of a
TextOCR-size set, the full collections it triggers (each over everything made so far) froze
the window for up to 3.5 s (``viewer.probe``). So while any background job runs, automatic
collection is off; when the last one ends, everything alive is frozen (``gc.freeze``: later
collections skip it, the results stay while shown) and collection is on again.

Freed objects are still released by reference counting at once; only cyclic garbage made
during a job waits (the engine makes almost none: ``metrics.pool.paused_gc``).
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_running = 0
_was_enabled = True


@contextmanager
def quiet_gc() -> Iterator[None]:
    """Automatic collection off for the block (nested and concurrent blocks allowed)."""
    global _running, _was_enabled
    with _lock:
        if _running == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _running += 1
    try:
        yield
    finally:
        with _lock:
            _running -= 1
            if _running == 0:
                gc.freeze()
                if _was_enabled:
                    gc.enable()


def active() -> int:
    """How many background jobs hold collection off now."""
    return _running
