"""The geometry cache of one run: bulk geometry and memoized values shared by its metrics.

``metrics.run.runner.run`` owns the cache: it opens a scope (``use``) around every block of
samples it evaluates, so two runs never share one (the viewer evaluates two sides in two
threads at once) and nothing outlives its run. ``active()`` is the cache of the current
scope; outside any scope (a metric called directly) it is a fresh, throwaway cache.
A ``ContextVar`` keeps scopes apart per thread.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TypeVar

from metrics.shapes.geometry import (
    FlatGeometry,
    RingMode,
    SampleGeometry,
    bulk_geometry,
    flat_geometry,
)

T = TypeVar("T")


class GeometryCache:
    """Bulk-computed geometry of the samples of one run, shared by its metrics.

    ``warm`` computes many samples in one vectorized pass; ``get`` falls back to computing
    a single sample. Entries keep a reference to their sample so ids are never reused.
    """

    def __init__(self, limit: int = 4096) -> None:
        self.limit = limit
        self._items: dict[tuple[int, str], tuple[object, SampleGeometry]] = {}
        self._memo: dict[tuple[object, ...], tuple[object, object]] = {}

    def warm(self, samples: Sequence[object], mode: RingMode) -> None:
        todo = [s for s in samples if (id(s), mode) not in self._items]
        if not todo:
            return
        if len(self._items) + len(todo) > self.limit:
            self._items.clear()
        geoms = bulk_geometry(
            [[i.points for i in s.gt] for s in todo],  # type: ignore[attr-defined]
            [[i.points for i in s.det] for s in todo],  # type: ignore[attr-defined]
            mode,
        )
        for s, g in zip(todo, geoms, strict=True):
            self._items[(id(s), mode)] = (s, g)

    def get(self, sample: object, mode: RingMode) -> SampleGeometry:
        hit = self._items.get((id(sample), mode))
        if hit is None or hit[0] is not sample:
            self.warm([sample], mode)
            hit = self._items[(id(sample), mode)]
        return hit[1]

    def flat(self, samples: Sequence[object], mode: RingMode) -> FlatGeometry:
        """FlatGeometry of a block of samples (memoized for the other metrics of the run)."""
        return self.memo(
            ("flat", mode, *map(id, samples)),
            samples[0] if samples else None,
            lambda: flat_geometry(
                [[i.points for i in s.gt] for s in samples],  # type: ignore[attr-defined]
                [[i.points for i in s.det] for s in samples],  # type: ignore[attr-defined]
                mode,
            ),
        )

    def memo(self, key: tuple[object, ...], sample: object, compute: Callable[[], T]) -> T:
        """Value computed once per (sample, key) within a run (e.g. shared matchings)."""
        full = (id(sample), *key)
        hit = self._memo.get(full)
        if hit is None or hit[0] is not sample:
            if len(self._memo) > self.limit:
                self._memo.clear()
            hit = (sample, compute())
            self._memo[full] = hit
        return hit[1]  # type: ignore[return-value]

    def clear(self) -> None:
        self._items.clear()
        self._memo.clear()


_ACTIVE: ContextVar[GeometryCache | None] = ContextVar("detlens_geometry_cache", default=None)


def active() -> GeometryCache:
    """The cache of the current run's scope, or a throwaway one outside any run."""
    cache = _ACTIVE.get()
    return cache if cache is not None else GeometryCache()


@contextmanager
def use(cache: GeometryCache | None = None) -> Iterator[GeometryCache]:
    """Make ``cache`` (or a new one) the active cache within the block; cleared after it."""
    cache = cache if cache is not None else GeometryCache()
    token = _ACTIVE.set(cache)
    try:
        yield cache
    finally:
        _ACTIVE.reset(token)
        cache.clear()
