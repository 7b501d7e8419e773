"""Worker processes for ``runner.run`` (``--workers N``): N processes evaluate, the caller's
own process being one of them.

The samples are cut into slices. ``N - 1`` worker processes take slices from the end of the
list, the calling process evaluates slices from the front until it meets a slice a worker
has taken, then collects the workers' results. So the caller's share is never pickled, and
two processes on two cores finish together whatever the speed of each slice.

With the fork start method (the Linux default, when no other thread runs) the workers
inherit the samples and the slice function instead of receiving them pickled; automatic
garbage collection is paused for the run (``paused_gc``).
"""

from __future__ import annotations

import gc
import signal
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from concurrent.futures import Future


T = TypeVar("T")
S = TypeVar("S")  # the items: samples, or the file pairs of samples still to be read
Progress = Callable[[int, int], None]
Cancel = Callable[[], bool]

_SLICES_PER_WORKER = 8  # small enough that the two ends meet with little idle time


class Cancelled(Exception):
    """The caller's cancel callback returned True."""


# The samples and the slice function of the run in progress: forked workers read them from
# here instead of receiving them pickled.
_SHARED: Sequence[Any] = ()
_JOB: Callable[[Sequence[Any]], Any] | None = None


@contextmanager
def paused_gc() -> Iterator[None]:
    """No automatic garbage collection during the block (restored after).

    A run allocates millions of small objects (results, and their copies unpickled from the
    workers), and each automatic collection walks the young ones, and every full one the
    whole dataset: up to half the time of unpickling. The metrics leave almost no cyclic
    garbage (none for most; TedEval a few hundred objects per 500 images), so nothing
    accumulates; forked workers inherit the paused state, so they do not copy the inherited
    pages on write by walking them either."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def slice_bounds(n: int, workers: int, largest: int) -> list[tuple[int, int]]:
    """``[start, stop)`` of the slices: about ``_SLICES_PER_WORKER`` per process, at most
    ``largest`` samples each."""
    size = max(1, min(largest, -(-n // (workers * _SLICES_PER_WORKER))))
    return [(a, min(a + size, n)) for a in range(0, n, size)]


def _forked_slice(start: int, stop: int) -> Any:
    """The slice function on ``_SHARED[start:stop]`` (in a forked worker)."""
    assert _JOB is not None
    return _JOB(_SHARED[start:stop])


def fork_context() -> Any:
    """The fork start method when it is the platform's default and no other thread runs
    (forking a threaded process is unsafe); None otherwise."""
    import multiprocessing
    import threading

    if multiprocessing.get_start_method() != "fork" or threading.active_count() > 1:
        return None
    return multiprocessing.get_context("fork")


def _ignore_interrupts() -> None:
    """Workers leave Ctrl-C to the main process (which stops them): no worker tracebacks."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def run_slices(
    samples: Sequence[S],
    job: Callable[[Sequence[S]], T],
    bounds: list[tuple[int, int]],
    workers: int,
    progress: Progress | None = None,
    cancel: Cancel | None = None,
) -> list[T]:
    """``job`` of every slice, in slice order; ``job`` must pickle (a module-level function
    or a ``functools.partial`` of one) unless the workers fork."""
    from concurrent.futures import ProcessPoolExecutor  # only with workers (start-up)

    global _SHARED, _JOB
    context = fork_context()
    try:
        if context is not None:
            _SHARED, _JOB = samples, job  # before the first submit: the workers fork then
        with ProcessPoolExecutor(
            max_workers=workers - 1, mp_context=context, initializer=_ignore_interrupts
        ) as pool:
            futures = {
                k: pool.submit(_forked_slice, a, b)
                if context is not None
                else pool.submit(job, samples[a:b])
                for k, (a, b) in reversed(list(enumerate(bounds)))
            }
            try:
                return _share(samples, job, bounds, futures, progress, cancel)
            except BaseException:  # Ctrl-C or cancel: drop the queued slices, then re-raise
                pool.shutdown(wait=True, cancel_futures=True)
                raise
    finally:
        _SHARED, _JOB = (), None


def _share(
    samples: Sequence[S],
    job: Callable[[Sequence[S]], T],
    bounds: list[tuple[int, int]],
    futures: dict[int, Future[T]],
    progress: Progress | None,
    cancel: Cancel | None,
) -> list[T]:
    """The caller evaluates slices from the front while it can take them back from the
    pool's queue, then waits for the workers' slices (front to back)."""
    out: list[T] = []
    done = 0
    for k, (a, b) in enumerate(bounds):
        if cancel is not None and cancel():
            raise Cancelled()
        fut = futures[k]
        out.append(job(samples[a:b]) if fut.cancel() else fut.result())
        done += b - a
        if progress is not None:
            progress(done, len(samples))
    return out
