"""The ``detlens`` process entry (the console script): Ctrl-C at any moment gives one line
and exit 130, never a traceback.

This module is light (``metrics`` imports its public names lazily): the command line, and
with it numpy, shapely and the metrics, is imported inside the guard, so an interrupt in the
first second (while they load) is caught too. After an interrupt the process exits at once
with 130, so that an interrupt caught while an extension module was being imported cannot
make the interpreter re-raise it at shutdown (exit -2). The interrupt state the commands
share lives in ``metrics.run.interrupts`` (this module imports the command line only through
``importlib``; nothing imports this module but the console script and ``python -m``).
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import os
import sys
from typing import TYPE_CHECKING

from metrics.run.interrupts import note_while_loading

if TYPE_CHECKING:
    import signal
else:  # the C module, same functions: ``signal`` builds three enums at import (~1 ms)
    import _signal as signal

# numpy's OpenBLAS starts a thread per core at import, and its threads spin waiting for work:
# about 80 ms of CPU per process here, taken from the evaluation on a small machine and from
# the other worker with ``--workers 2``. detlens does no large matrix products (a 2 x 2
# rotation, the bootstrap's weights), so one BLAS thread is enough. A value the user set wins.
BLAS_THREADS = ("OPENBLAS_NUM_THREADS",)


def entry() -> int:
    """Run ``metrics.cli.main`` with the interrupt guard (and one BLAS thread, unless the
    environment says otherwise)."""
    note_while_loading()  # first: the package noted interrupts until here (metrics/__init__)
    for name in BLAS_THREADS:
        os.environ.setdefault(name, "1")
    if len(sys.argv) > 1 and sys.argv[1] in _ENGINE:
        gc.set_threshold(*ENGINE_GC)
    try:
        code = int(importlib.import_module("metrics.cli.main").main())
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # done: not while the interpreter exits
    except KeyboardInterrupt:
        code = 130
        print("detlens: interrupted", file=sys.stderr)
    if code == 130 or (len(sys.argv) > 1 and sys.argv[1] in _ENGINE):
        _exit(code)
    return code


# An engine command makes many small objects that live until it ends (the modules' own,
# then every instance and result): with the collector's default rhythm (a pass over the
# young objects every 700 allocations, the older generations as they grow) some 10 % of an
# IC15 evaluation went to walking them (instructions counted, imports included). A young
# generation of 10,000 and rarer older passes still free every cycle the run leaves behind.
ENGINE_GC = (10_000, 50, 100)

# Engine commands end with everything written and closed: they leave at once, without the
# interpreter freeing every instance and result one by one (tens of ms on a large set). The
# viewer's commands end normally (Qt and its settings are torn down in order).
_ENGINE = frozenset({"eval", "compare", "check", "convert"})


def _exit(code: int) -> None:
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a closed pipe: nothing more to say
            stream.flush()
    os._exit(code)
