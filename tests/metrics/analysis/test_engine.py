"""The analyses re-evaluate through the runner's loop (``metrics.analysis.engine``): behind
its guard, so a sample the metric fails on is a located error, never a traceback."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import pytest

from metrics.analysis.engine import evaluate_versions
from metrics.catalogue.registry import METRICS
from metrics.core.model import InputError, Sample
from metrics.io.demo import demo_paths
from metrics.io.reader import load_dataset
from metrics.run.guard import FAILURE


def test_versions_are_evaluated_as_the_runner_evaluates_them() -> None:
    ds = load_dataset(demo_paths().gt, demo_paths().det_b)
    spec = METRICS["tiou"]
    samples = list(ds.samples)
    got = evaluate_versions(spec, spec.params_type(), [*samples, samples[0]], finalize=False)
    whole = spec.evaluate(samples, spec.params_type())
    assert [r.tally for r in got if r] == [r.tally for r in [*whole, whole[0]] if r]


def test_a_failing_version_is_a_located_error(monkeypatch: pytest.MonkeyPatch) -> None:
    ds = load_dataset(demo_paths().gt, demo_paths().det_b)
    spec = METRICS["tiou"]
    bad = ds.samples[1]
    real = spec.evaluate

    def evaluate(samples: Sequence[Sample], params: Any, mode: Any = None, /) -> Any:
        if any(s is bad for s in samples):
            raise RuntimeError("boom")
        return real(samples, params, mode)

    monkeypatch.setitem(METRICS._loaded, "tiou", dataclasses.replace(spec, evaluate=evaluate))  # type: ignore[attr-defined]
    with pytest.raises(InputError) as caught:
        evaluate_versions(METRICS["tiou"], spec.params_type(), list(ds.samples))
    (problem,) = caught.value.problems
    assert FAILURE in problem.message and problem.sample_id == bad.id
    assert "skip_sample" not in str(caught.value)  # it would not leave out a changed version
