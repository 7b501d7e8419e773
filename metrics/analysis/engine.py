"""Evaluating lists of (modified) samples with one metric, through the runner's loop.

The analysis re-evaluates samples it has changed (filtered at a threshold, fixed by an
oracle) with ``metrics.run.runner.evaluate_samples``, the one loop over samples (blocks
sharing a geometry cache, every metric behind the guard), and applies the metric's
``finalize`` when it has one; it never changes a formula. A sample the metric cannot
evaluate refuses the analysis with a located error (``InputError``), never a traceback.
"""

from __future__ import annotations

from collections.abc import Sequence

from metrics.core.model import InputError, Sample
from metrics.core.protocols import Params
from metrics.core.results import SampleResult
from metrics.declare.spec import MetricSpec
from metrics.run.runner import evaluate_samples


def evaluate_versions(
    spec: MetricSpec[Params], params: Params, samples: Sequence[Sample], *, finalize: bool = True
) -> list[SampleResult | None]:
    """The metric's results for ``samples`` (None where the protocol drops a sample).

    Samples may share an id (several versions of one image); ``finalize`` is applied to
    each distinct id set only when ids are unique. ``spec`` is the registered metric of
    its id (the loop finds it there, as worker processes do).
    """
    rows, failed = evaluate_samples(samples, [spec.id], [params], {spec.id: set()})
    if failed:  # a version the analysis made: skip_sample would not leave it out
        raise InputError(
            [p for _, p in failed],
            f"the analysis could not evaluate {len(failed)} version(s) of images it changed; "
            "nothing is reported",
        )
    out = [row[0] for row in rows]
    ids = [s.id for s in samples]
    if finalize and spec.finalize is not None and len(set(ids)) == len(ids):
        done = {r.sample_id: r for r in out if r is not None}
        if done:
            fixed = spec.finalize(done, params)
            out = [None if r is None else fixed[r.sample_id] for r in out]
    return out
