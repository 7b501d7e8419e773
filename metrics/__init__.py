"""detlens metric engine: official-exact scene-text detection metrics with evidence.

>>> import metrics
>>> ev = metrics.evaluate("gt.zip", "det.zip", metric="tiou")      # doctest: +SKIP
>>> ev.recall, ev.precision, ev.hmean                              # doctest: +SKIP

The names below are imported on first use, so ``import metrics.cli`` (``detlens --help``)
does not load the readers, numpy or shapely.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

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
