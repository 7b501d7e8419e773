"""The geometry cache of one run: bulk geometry and memoized values shared by its metrics.

The one loop over samples (``metrics.run.runner``) makes one for every block of samples it
evaluates and hands it to each metric in its ``Mode`` (``metrics.shapes.mode``), so two runs
never share one (the viewer evaluates two sides in two threads at once) and nothing
outlives its block. A metric called on its own gets a fresh one (``Mode()``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from metrics.shapes.geometry import (
    FlatGeometry,
    RingMode,
    SampleGeometry,
    bulk_geometry,
    flat_geometry,
)
from metrics.shapes.lazy import LazyPairs, lazy_pairs

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

    def lazy(self, samples: Sequence[object], mode: RingMode) -> LazyPairs:
        """The candidate pairs of a block, clipped on demand (shared by the run's metrics,
        so a pair one of them clipped is not clipped again)."""
        return self.memo(
            ("lazy", mode, *map(id, samples)),
            samples[0] if samples else None,
            lambda: lazy_pairs(
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
