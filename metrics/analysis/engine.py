"""Evaluating lists of (modified) samples with one metric, as the runner does.

The analysis re-evaluates samples it has changed (filtered at a threshold, fixed by an
oracle) with the metric's own batch callable, in blocks that share one geometry cache,
and applies the metric's ``finalize`` when it has one; it never changes a formula.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import metrics.shapes.cache as cache
from metrics.core.model import Sample
from metrics.core.results import SampleResult
from metrics.declare.spec import MetricSpec
from metrics.run.runner import BLOCK


def evaluate_samples(
    spec: MetricSpec[Any], params: Any, samples: Sequence[Sample], *, finalize: bool = True
) -> list[SampleResult | None]:
    """The metric's results for ``samples`` (None where the protocol drops a sample).

    Samples may share an id (several versions of one image); ``finalize`` is applied to
    each distinct id set only when ids are unique.
    """
    out: list[SampleResult | None] = []
    for start in range(0, len(samples), BLOCK):
        block = list(samples[start : start + BLOCK])
        with cache.use() as geometry:
            if spec.warm is not None:
                geometry.warm(block, spec.warm)
            out.extend(spec.evaluate(block, params))
    ids = [s.id for s in samples]
    if finalize and spec.finalize is not None and len(set(ids)) == len(ids):
        done = {r.sample_id: r for r in out if r is not None}
        if done:
            fixed = spec.finalize(done, params)
            out = [None if r is None else fixed[r.sample_id] for r in out]
    return out
