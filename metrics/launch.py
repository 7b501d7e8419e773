"""The ``detlens`` process entry (the console script): Ctrl-C at any moment gives one line
and exit 130, never a traceback.

This module is light (``metrics`` imports its public names lazily): the command line, and
with it numpy, shapely and the metrics, is imported inside the guard, so an interrupt in the
first second (while they load) is caught too. After an interrupt the process exits at once
with 130, so that an interrupt caught while an extension module was being imported cannot
make the interpreter re-raise it at shutdown (exit -2).
"""

from __future__ import annotations

import importlib
import os
import signal
import sys


def entry() -> int:
    """Run ``metrics.cli.main`` with the interrupt guard."""
    try:
        code = int(importlib.import_module("metrics.cli.main").main())
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # done: not while the interpreter exits
    except KeyboardInterrupt:
        code = 130
        print("detlens: interrupted", file=sys.stderr)
    if code == 130:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(130)
    return code
