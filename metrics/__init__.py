"""detlens metric engine: official-exact scene-text detection metrics with evidence.

>>> import metrics
>>> ev = metrics.evaluate("gt.zip", "det.zip", metric="tiou")      # doctest: +SKIP
>>> ev.recall, ev.precision, ev.hmean                              # doctest: +SKIP

The public names are imported on first use, so ``import metrics.cli`` stays light and the
``detlens`` command can take Ctrl-C (exit 130, no traceback) from its first moment.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from metrics.api import evaluate
    from metrics.io.reader import LoadOptions, load_dataset
    from metrics.registry import METRICS

__all__ = ["METRICS", "LoadOptions", "evaluate", "load_dataset"]

_HOME = {
    "evaluate": "metrics.api",
    "LoadOptions": "metrics.io.reader",
    "load_dataset": "metrics.io.reader",
    "METRICS": "metrics.registry",
}


def __getattr__(name: str) -> Any:
    if name in _HOME:
        return getattr(importlib.import_module(_HOME[name]), name)
    raise AttributeError(f"module 'metrics' has no attribute {name!r}")
