"""The geometry cache is per block of a run (``metrics/shapes/cache.py``), passed to each
metric in its ``Mode``: two runs in two threads at once (as the viewer evaluates two sides)
each get the results of a serial run, and nothing of a block is kept after it."""

from __future__ import annotations

import threading
from typing import Any

import pytest

import metrics.run.guard as guard
from metrics.catalogue.registry import METRICS
from metrics.core.model import Dataset
from metrics.core.results import Evaluation
from metrics.io.demo import demo_paths
from metrics.io.reader import load_dataset
from metrics.io.writers import evaluation_dict
from metrics.run.runner import run

SPECS = ["ic15_iou", "tiou", "tedeval", "cleval_det", "cleval_legacy_det"]


def _datasets() -> list[Dataset]:
    demo = demo_paths()
    return [load_dataset(demo.gt, demo.det_a), load_dataset(demo.gt, demo.det_b)]


def _specs(ds: Dataset) -> list:
    """Metrics that share the run's cache (CLEval's memoized preparation among them);
    TedEval skips the curved demo image (skip_sample)."""
    return [METRICS[m] for m in SPECS]


def _dicts(evals: list[Evaluation]) -> list[dict]:
    return [evaluation_dict(e, evidence=True) for e in evals]


def test_two_threads_running_at_once_get_serial_results() -> None:
    datasets = _datasets()
    serial = [_dicts(run(ds, _specs(ds), policy="skip_sample")) for ds in datasets]
    rounds = 3
    got: dict[tuple[int, int], list[dict]] = {}
    errors: list[BaseException] = []
    barrier = threading.Barrier(len(datasets))

    def work(k: int) -> None:
        try:
            for n in range(rounds):
                barrier.wait(timeout=60)
                got[(k, n)] = _dicts(run(datasets[k], _specs(datasets[k]), policy="skip_sample"))
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(len(datasets))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not errors, errors
    assert serial[0] != serial[1]  # the two detectors really differ
    for (k, _), result in got.items():
        assert result == serial[k], k
    assert len(got) == rounds * len(datasets)


def test_no_cache_outlives_its_block(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every metric of a block gets the block's one cache; each run makes its own, and
    what the metrics memoized in it is dropped when the block is done."""
    ds = _datasets()[0]
    seen: list[Any] = []
    real = guard.evaluate

    def spy(spec: Any, samples: Any, prm: Any, mode: Any) -> Any:
        seen.append(mode.cache)
        return real(spec, samples, prm, mode)

    monkeypatch.setattr(guard, "evaluate", spy)
    run(ds, _specs(ds), policy="skip_sample")
    assert len(seen) == len(SPECS) * 2  # a block of 1, then the rest
    assert len({id(c) for c in seen}) == 2  # one cache per block, shared by its metrics
    assert all(not c._memo and not c._items for c in seen)
    before = list(seen)
    seen.clear()
    run(ds, [METRICS["tiou"]])
    assert seen and not any(c is b for c in seen for b in before)  # a run's own caches
