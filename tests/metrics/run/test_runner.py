"""The one loop over samples (``metrics.run.runner.run``): worker processes change nothing in
the written JSON (evidence included), cancellation, progress reports, and the strict and
skip_sample input policies (spec 6.1)."""

from __future__ import annotations

from pathlib import Path

import pytest

from metrics.catalogue.registry import METRICS, applicable
from metrics.core.model import Dataset, InputError
from metrics.core.results import Evaluation
from metrics.io.demo import demo_paths
from metrics.io.reader import load_dataset
from metrics.io.writers import write_json
from metrics.run.runner import Cancelled, plan_all, run
from tests.support import shared_or_skip, write_zip


def _all(ds: Dataset, workers: int, **kw: object) -> list[Evaluation]:
    """Every metric that applies, as ``--metric all`` runs them."""
    plan = plan_all(ds, applicable(ds))
    return run(
        ds,
        plan.specs,
        workers=workers,
        lenient=plan.lenient,
        validated=plan.validated,
        **kw,  # type: ignore[arg-type]
    )


def _json(evals: list[Evaluation], path: Path) -> bytes:
    write_json(path, evals, evidence=True)
    return path.read_bytes()


@pytest.mark.parametrize("det", ["det_a", "det_b"])
def test_two_workers_write_the_same_json_as_one(det: str, tmp_path: Path) -> None:
    demo = demo_paths()
    ds = load_dataset(demo.gt, getattr(demo, det))
    serial, parallel = _all(ds, 1), _all(ds, 2)
    assert len(serial) >= 8  # IoU family, TedEval, CLEval (det + e2e) ...
    assert [e.metric for e in serial] == [e.metric for e in parallel]
    assert _json(serial, tmp_path / "1.json") == _json(parallel, tmp_path / "2.json")


@pytest.mark.parametrize("fork", [True, False])
def test_forked_and_pickling_workers_give_the_same_json(
    fork: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Workers that inherit the samples (fork) and workers sent them pickled (spawn
    platforms, threaded callers) write what one process writes."""
    import metrics.run.pool as pool

    if not fork:
        monkeypatch.setattr(pool, "fork_context", lambda: None)
    elif pool.fork_context() is None:
        pytest.skip("fork is not this platform's default start method (or a thread runs)")
    ds = load_dataset(demo_paths().gt, demo_paths().det_b)
    assert _json(_all(ds, 2), tmp_path / "2.json") == _json(_all(ds, 1), tmp_path / "1.json")
    assert pool._SHARED == () and pool._JOB is None  # nothing left behind


@pytest.mark.conformance
@pytest.mark.slow
def test_two_workers_on_ic15_pixellink(tmp_path: Path) -> None:
    ds = load_dataset(
        shared_or_skip("data", "ic15", "gt.zip"),
        shared_or_skip("data", "ic15", "det_pixellink.zip"),
    )
    serial, parallel = _all(ds, 1), _all(ds, 2)
    assert {e.metric for e in serial} >= {"ic15_iou", "tiou", "tedeval", "cleval_det"}
    assert _json(serial, tmp_path / "1.json") == _json(parallel, tmp_path / "2.json")


@pytest.mark.parametrize("workers", [1, 2])
def test_cancel_raises_cancelled(workers: int) -> None:
    demo = demo_paths()
    ds = load_dataset(demo.gt, demo.det_a)
    asked: list[int] = []

    def cancel() -> bool:
        asked.append(1)
        return True

    with pytest.raises(Cancelled):
        run(ds, [METRICS["tiou"]], workers=workers, cancel=cancel)
    assert asked


def test_cancel_after_the_first_block() -> None:
    demo = demo_paths()
    ds = load_dataset(demo.gt, demo.det_a)
    calls: list[tuple[int, int]] = []
    with pytest.raises(Cancelled):
        run(
            ds,
            [METRICS["tiou"]],
            progress=lambda d, t: calls.append((d, t)),
            cancel=lambda: bool(calls),
        )
    assert calls == [(1, len(ds))]  # the first block is one sample; nothing after the cancel


@pytest.mark.parametrize("workers", [1, 2])
def test_progress_counts_increase_to_the_total(workers: int) -> None:
    demo = demo_paths()
    ds = load_dataset(demo.gt, demo.det_b)
    calls: list[tuple[int, int]] = []
    run(ds, [METRICS["ic15_iou"]], workers=workers, progress=lambda d, t: calls.append((d, t)))
    done = [d for d, _ in calls]
    assert len(calls) >= 2
    assert all(t == len(ds) == 12 for _, t in calls)
    assert done == sorted(set(done)) and done[0] > 0
    assert done[-1] == len(ds)


def _dataset_with_one_bad_file(tmp_path: Path) -> Dataset:
    gt = write_zip(
        tmp_path / "gt.zip",
        {
            "gt_img_1.txt": "0,0,10,0,10,10,0,10,A\n",
            "gt_img_2.txt": "0,0,10,0,10,10,0,10,B\n0,0,10,oops\n",
            "gt_img_3.txt": "0,0,20,0,20,10,0,10,C\n",
        },
    )
    det = write_zip(
        tmp_path / "det.zip",
        {
            "res_img_1.txt": "0,0,10,0,10,10,0,10\n",
            "res_img_2.txt": "0,0,10,0,10,10,0,10\n",
            "res_img_3.txt": "0,0,10,0,10,10,0,10\n",
        },
    )
    return load_dataset(gt, det)


def test_strict_policy_refuses_with_file_and_line(tmp_path: Path) -> None:
    ds = _dataset_with_one_bad_file(tmp_path)
    with pytest.raises(InputError) as info:
        run(ds, [METRICS["ic15_iou"]], policy="strict")
    (problem,) = info.value.problems
    assert (problem.source, problem.line, problem.sample_id) == ("gt.zip:gt_img_2.txt", 2, "img_2")
    assert "gt.zip:gt_img_2.txt:2" in str(info.value)
    assert "nothing was evaluated" in str(info.value)


def test_skip_sample_policy_evaluates_the_rest(tmp_path: Path) -> None:
    ds = _dataset_with_one_bad_file(tmp_path)
    (ev,) = run(ds, [METRICS["ic15_iou"]], policy="skip_sample")
    assert ev.excluded == ("img_2",)
    assert list(ev.results) == ["img_1", "img_3"]
    assert [str(p) for p in ev.problems] == [str(p) for p in ds.errors]
    # img_1 found (IoU 1), img_3 missed (IoU 0.5 is not > 0.5): R = P = 1/2
    assert (ev.recall, ev.precision) == (0.5, 0.5)
    assert ev.summary is not None and ev.summary.n_samples == 2
