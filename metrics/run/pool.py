"""Worker processes for ``runner.run`` (``--workers N``): N processes evaluate, the caller's
own process being one of them.

The samples are cut into slices. ``N - 1`` worker processes take slices from the end of the
list, the calling process evaluates slices from the front until it meets a slice a worker
has taken, then collects the workers' results. So the caller's share is never pickled, and
two processes on two cores finish together whatever the speed of each slice.

With the fork start method (the Linux default, when no other thread runs) the workers
inherit the samples and the slice function instead of receiving them pickled, and a slice
is claimed (from a counter the processes share) only when a process starts it: the calls
the pool queues ahead hold no slice, so when the caller runs out of slices it waits for at
most the one slice each worker is on. Automatic garbage collection is paused for the run
(``paused_gc``).
"""

from __future__ import annotations

import gc
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    import signal
    from concurrent.futures import Future, ProcessPoolExecutor
    from multiprocessing.context import ForkContext
else:  # the C module, same functions: ``signal`` builds three enums at import (~1 ms)
    import _signal as signal


T = TypeVar("T")
S = TypeVar("S")  # the items: samples, or the file pairs of samples still to be read
Progress = Callable[[int, int], None]
Cancel = Callable[[], bool]

_SLICES_PER_WORKER = 8  # small enough that the two ends meet with little idle time


class Cancelled(Exception):
    """The caller's cancel callback returned True."""


# The samples, the slice function and the slices of the run in progress: forked workers read
# them from here instead of receiving them pickled. ``_CLAIMS``: the first and the last
# slice nobody has claimed yet, in memory the forked processes share, and its lock.
_SHARED: Sequence[Any] = ()
_JOB: Callable[[Sequence[Any]], Any] | None = None
_BOUNDS: list[tuple[int, int]] = []
_CLAIMS: tuple[Any, Any] | None = None


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


@contextmanager
def interrupts_held() -> Iterator[None]:
    """Ctrl-C (SIGINT), SIGTERM and SIGHUP held back during the block, delivered when it
    ends. The workers fork inside it: an interrupt that lands in fork's callbacks
    (``logging`` releasing its lock in the parent) is printed as an ignored exception there
    and lost, so the command ran on; a forked worker starts with them held and takes them
    once its own handlers are set. A no-op off the main thread or where signals cannot be
    masked."""
    import threading

    mask = getattr(signal, "pthread_sigmask", None)
    if mask is None or threading.current_thread() is not threading.main_thread():
        yield
        return
    held = {signal.SIGINT, *(getattr(signal, n) for n in ENDING if hasattr(signal, n))}
    old = mask(signal.SIG_BLOCK, held)  # the ending signals too: see ``_worker_init``
    try:
        yield
    finally:
        mask(signal.SIG_SETMASK, old)


def slice_bounds(n: int, workers: int, largest: int) -> list[tuple[int, int]]:
    """``[start, stop)`` of the slices: about ``_SLICES_PER_WORKER`` per process, at most
    ``largest`` samples each."""
    size = max(1, min(largest, -(-n // (workers * _SLICES_PER_WORKER))))
    return [(a, min(a + size, n)) for a in range(0, n, size)]


def _claim(front: bool) -> int | None:
    """The first (``front``) or the last slice nobody has claimed, now claimed; None when
    every slice is."""
    assert _CLAIMS is not None
    ends, lock = _CLAIMS
    with lock:
        first, last = ends[0], ends[1]
        if first > last:
            return None
        if front:
            ends[0] = first + 1
            return int(first)
        ends[1] = last - 1
        return int(last)


def _claim_none() -> None:
    """Every slice claimed: the workers start no other (cancel, or an error)."""
    assert _CLAIMS is not None
    ends, lock = _CLAIMS
    with lock:
        ends[0], ends[1] = 1, 0


def _forked_slice() -> tuple[int, Any] | None:
    """In a forked worker: the last unclaimed slice and the slice function's result on it;
    None when none is left."""
    assert _JOB is not None
    k = _claim(front=False)
    if k is None:
        return None
    start, stop = _BOUNDS[k]
    return k, _JOB(_SHARED[start:stop])


def fork_context() -> ForkContext | None:
    """The fork start method when it is the platform's default and no other thread runs
    (forking a threaded process is unsafe); None otherwise."""
    import multiprocessing
    import threading

    if multiprocessing.get_start_method() != "fork" or threading.active_count() > 1:
        return None
    return multiprocessing.get_context("fork")


ENDING = ("SIGTERM", "SIGHUP")
"""The signals that end a run: the caller forwards them to its workers, which die with it."""


def _worker_init(parent: int) -> None:
    """A worker leaves Ctrl-C to the main process (which stops it: no worker tracebacks),
    takes SIGTERM and SIGHUP as they come (not the caller's handlers, inherited by a fork;
    unblocked, as a fork inside ``interrupts_held`` inherits them blocked), and dies with the
    caller (Linux: ``PR_SET_PDEATHSIG``): the caller killed, it was left orphaned and blocked
    on a pipe nobody read."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    ending = {getattr(signal, name) for name in ENDING if hasattr(signal, name)}
    for sig in ending:
        signal.signal(sig, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, ending)
    _die_with_parent(parent)


def _die_with_parent(parent: int) -> None:
    import ctypes
    import sys

    if sys.platform.startswith("linux"):  # elsewhere the caller's forwarding still holds
        with suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:  # the caller died before the line above took effect
        os._exit(1)


@contextmanager
def ending_forwarded(pool: ProcessPoolExecutor) -> Iterator[None]:
    """SIGTERM and SIGHUP to the caller during the block are forwarded to the pool's
    workers, then end the caller as they would have (default action). Only where those
    signals are at their default and on the main thread: a handler of the program's own,
    or a signal ignored (``nohup``), is left alone (the workers still die with the caller)."""
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    ending = [getattr(signal, n) for n in ENDING if hasattr(signal, n)]
    ours = [s for s in ending if signal.getsignal(s) is signal.SIG_DFL]

    def forward(signum: int, _frame: object) -> None:
        for pid in list(getattr(pool, "_processes", None) or ()):
            with suppress(OSError):
                os.kill(pid, signum)
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)  # the default action: the caller ends here

    for sig in ours:
        signal.signal(sig, forward)
    try:
        yield
    finally:
        for sig in ours:
            signal.signal(sig, signal.SIG_DFL)


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

    global _SHARED, _JOB, _BOUNDS, _CLAIMS
    context = fork_context()
    try:
        if context is not None:  # before the first submit: the workers fork then
            _SHARED, _JOB, _BOUNDS = samples, job, bounds
            _CLAIMS = (context.RawArray("q", [0, len(bounds) - 1]), context.Lock())
        with (
            ProcessPoolExecutor(
                max_workers=workers - 1,
                mp_context=context,
                initializer=_worker_init,
                initargs=(os.getpid(),),
            ) as pool,
            ending_forwarded(pool),
        ):
            try:
                if context is not None:
                    with interrupts_held():  # the first call forks the workers
                        calls = [pool.submit(_forked_slice) for _ in bounds]
                    return _claimed(samples, job, bounds, calls, progress, cancel)
                futures = {
                    k: pool.submit(job, samples[a:b])
                    for k, (a, b) in reversed(list(enumerate(bounds)))
                }
                return _share(samples, job, bounds, futures, progress, cancel)
            except BaseException:  # Ctrl-C, cancel or an error: drop the queued slices
                if context is not None:
                    _claim_none()
                pool.shutdown(wait=True, cancel_futures=True)
                raise
    finally:
        _SHARED, _JOB, _BOUNDS, _CLAIMS = (), None, [], None


def _claimed(
    samples: Sequence[S],
    job: Callable[[Sequence[S]], T],
    bounds: list[tuple[int, int]],
    calls: list[Future[tuple[int, T] | None]],
    progress: Progress | None,
    cancel: Cancel | None,
) -> list[T]:
    """Forked workers: the caller claims slices from the front while any is left, then
    collects what the workers' calls claimed and evaluated."""
    out: dict[int, T] = {}
    waiting = list(calls)
    done = 0

    def took(k: int, result: T) -> None:
        nonlocal done
        out[k] = result
        done += bounds[k][1] - bounds[k][0]
        if progress is not None:
            progress(done, len(samples))

    def collect(block: bool) -> None:
        while waiting and (block or waiting[0].done()):
            if cancel is not None and cancel():
                raise Cancelled()
            got = waiting.pop(0).result()
            if got is not None:
                took(*got)

    while True:
        if cancel is not None and cancel():
            raise Cancelled()
        k = _claim(front=True)
        if k is None:
            break
        a, b = bounds[k]
        took(k, job(samples[a:b]))
        collect(block=False)
    collect(block=True)
    return [out[k] for k in range(len(bounds))]


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
