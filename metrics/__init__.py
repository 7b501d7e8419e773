"""detlens metric engine: official-exact scene-text detection metrics with evidence.

>>> import metrics
>>> ev = metrics.evaluate("gt.zip", "det.zip", metric="tiou")      # doctest: +SKIP
>>> ev.recall, ev.precision, ev.hmean                              # doctest: +SKIP
"""

from metrics.api import evaluate
from metrics.io.reader import LoadOptions, load_dataset
from metrics.registry import METRICS

__all__ = ["METRICS", "LoadOptions", "evaluate", "load_dataset"]
