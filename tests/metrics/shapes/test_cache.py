"""The geometry cache is per run (``metrics/shapes/cache.py``): two runs in two threads at once
(as the viewer evaluates two sides) each get the results of a serial run, and nothing of
a run is left active after it."""

from __future__ import annotations

import threading

import metrics.shapes.cache as cache
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


def test_no_cache_outlives_its_run() -> None:
    ds = _datasets()[0]
    run(ds, _specs(ds), policy="skip_sample")
    assert cache._ACTIVE.get() is None
    with cache.use() as mine:
        assert cache.active() is mine
        run(ds, [METRICS["tiou"]])
        assert cache.active() is mine  # the run's own scope is closed again
    assert cache._ACTIVE.get() is None
    assert cache.active() is not cache.active()  # outside a run: throwaway caches
