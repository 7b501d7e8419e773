"""Worker processes (``metrics.pool``): the caller evaluates slices too, results come back
in slice order, automatic garbage collection is paused for a run and restored."""

from __future__ import annotations

import gc
import itertools
import os
import time
from collections.abc import Sequence
from functools import partial

import pytest

from metrics import pool


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
