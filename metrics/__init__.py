"""detlens metric engine: official-exact scene-text detection metrics with evidence.

>>> import metrics
>>> ev = metrics.evaluate("gt.zip", "det.zip", metric="tiou")      # doctest: +SKIP
>>> ev.recall, ev.precision, ev.hmean                              # doctest: +SKIP

The names below are imported on first use, so ``import metrics.cli`` (``detlens --help``)
does not load the readers, numpy or shapely.
"""

from __future__ import annotations

# the C module (no stubs): ``signal`` builds its enums in Python, slow to import
import _signal  # type: ignore[import-not-found]
import sys as _sys


def _console() -> bool:
    """Whether this process is the ``detlens`` console script (its ``__main__``)."""
    path = getattr(_sys.modules.get("__main__"), "__file__", None) or ""
    name = path.replace("\\", "/").rsplit("/", 1)[-1].lower()
    return name in ("detlens", "detlens.exe", "detlens-script.py")


# Ctrl-C while the console script starts is noted from here, the first line of detlens that
# runs, until the command line has loaded (``metrics.run.interrupts``, issue 30: an interrupt
# while ``metrics.launch`` was imported printed a traceback). Only in the ``detlens``
# process: a program that imports the engine keeps its own SIGINT handling.
_early: list[int] = []


def _note_early(signum: int, frame: object) -> None:
    _early.append(signum)


if _console() and _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler:
    _signal.signal(_signal.SIGINT, _note_early)

import importlib  # noqa: E402
from typing import TYPE_CHECKING  # noqa: E402

if TYPE_CHECKING:
    from metrics.api import evaluate, evaluate_all
    from metrics.catalogue.registry import METRICS
    from metrics.io.reader import LoadOptions, load_dataset

__all__ = ["METRICS", "LoadOptions", "evaluate", "evaluate_all", "load_dataset"]

_HOME = {
    "METRICS": "metrics.catalogue.registry",
    "LoadOptions": "metrics.io.reader",
    "evaluate": "metrics.api",
    "evaluate_all": "metrics.api",
    "load_dataset": "metrics.io.reader",
}


def __getattr__(name: str) -> object:
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_HOME[name]), name)
    globals()[name] = value
    return value
