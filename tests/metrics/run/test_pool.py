"""Worker processes (``metrics.run.pool``): the caller evaluates slices too, results come back
in slice order, automatic garbage collection is paused for a run and restored."""

from __future__ import annotations

import gc
import itertools
import os
import time
from collections.abc import Sequence
from functools import partial

import pytest

from metrics.run import pool


def _who(pause: float, items: Sequence[int]) -> tuple[int, list[int]]:
    time.sleep(pause)
    return os.getpid(), list(items)


def test_slice_bounds_cover_every_sample_once() -> None:
    for n, workers, largest in [(1, 2, 256), (7, 2, 256), (2500, 2, 256), (25_000, 2, 256)]:
        bounds = pool.slice_bounds(n, workers, largest)
        assert bounds[0][0] == 0 and bounds[-1][1] == n
        assert all(b == c for (_, b), (c, _) in itertools.pairwise(bounds))
        assert max(b - a for a, b in bounds) <= largest
    assert len(pool.slice_bounds(2500, 2, 256)) == 16  # ~8 slices per process
    assert pool.slice_bounds(3, 4, 256) == [(0, 1), (1, 2), (2, 3)]


@pytest.mark.parametrize("fork", [True, False])
def test_caller_and_worker_share_the_slices_in_order(
    fork: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not fork:
        monkeypatch.setattr(pool, "fork_context", lambda: None)
    elif pool.fork_context() is None:
        pytest.skip("fork is not this platform's default start method (or a thread runs)")
    items = list(range(96))
    bounds = pool.slice_bounds(len(items), 2, 256)  # 16 slices of 6
    seen: list[tuple[int, int]] = []
    out = pool.run_slices(
        items,  # type: ignore[arg-type]
        partial(_who, 0.05),
        bounds,
        2,
        progress=lambda d, t: seen.append((d, t)),
    )
    assert [x for _, chunk in out for x in chunk] == items  # every item once, in order
    pids = [pid for pid, _ in out]
    assert pids[0] == os.getpid()  # the caller starts at the front ...
    assert pids[-1] != os.getpid()  # ... the worker at the back
    assert pids == sorted(pids, key=lambda p: p != os.getpid())  # one boundary between them
    assert [d for d, _ in seen] == [b for _, b in bounds] and {t for _, t in seen} == {96}
    assert pool._SHARED == () and pool._JOB is None


def _slow_worker(caller: int, items: Sequence[int]) -> tuple[int, list[int]]:
    time.sleep(0.01 if os.getpid() == caller else 0.6)
    return os.getpid(), list(items)


def _fails_in_worker(caller: int, items: Sequence[int]) -> list[int]:
    if os.getpid() != caller:
        raise ValueError(f"slice from {items[0]}")
    time.sleep(0.05)
    return list(items)


def _forking() -> None:
    if pool.fork_context() is None:
        pytest.skip("fork is not this platform's default start method (or a thread runs)")


def test_a_slow_worker_holds_one_slice_at_most() -> None:
    """A worker claims a slice when it starts it: the pool's calls queued ahead hold none,
    so the caller takes every slice the worker has not started (before, a worker's queue
    held three slices the caller then waited for)."""
    _forking()
    items = list(range(96))
    t0 = time.perf_counter()
    out = pool.run_slices(
        items,  # type: ignore[arg-type]
        partial(_slow_worker, os.getpid()),
        pool.slice_bounds(len(items), 2, 256),
        2,
    )
    assert [x for _, chunk in out for x in chunk] == items
    assert sum(pid != os.getpid() for pid, _ in out) <= 1
    assert time.perf_counter() - t0 < 1.7  # not three slices of 0.6 s in a row
    assert pool._CLAIMS is None and pool._BOUNDS == []


def test_a_workers_error_reaches_the_caller() -> None:
    _forking()
    with pytest.raises(ValueError, match="slice from"):
        pool.run_slices(
            list(range(40)),  # type: ignore[arg-type]
            partial(_fails_in_worker, os.getpid()),
            pool.slice_bounds(40, 2, 256),
            2,
        )
    assert pool._SHARED == () and pool._CLAIMS is None


def test_cancel_stops_the_shared_run() -> None:
    items = list(range(40))
    with pytest.raises(pool.Cancelled):
        pool.run_slices(
            items,  # type: ignore[arg-type]
            partial(_who, 0.01),
            pool.slice_bounds(40, 2, 256),
            2,
            cancel=lambda: True,
        )
    assert pool._SHARED == () and pool._JOB is None


def test_paused_gc_restores_the_callers_state() -> None:
    assert gc.isenabled()
    with pool.paused_gc():
        assert not gc.isenabled()
        with pool.paused_gc():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the inner block leaves the outer pause alone
    assert gc.isenabled()
    gc.disable()
    try:
        with pool.paused_gc():
            pass
        assert not gc.isenabled()  # a caller that had it off keeps it off
    finally:
        gc.enable()
