"""The failure gallery's work off the UI thread: making, filtering and sorting the crop list
(``CropLister``) and drawing the crops the view shows (``CropRenderer``).

Both run on daemon threads (as the Analysis panel's worker: a process that ends meanwhile
must neither wait for them nor abort on a running QThread) and report through Qt signals,
which reach the UI thread queued. Making the list of a 50,000-crop set takes seconds of
Python (``viewer.scene.gallery.build``); it is made once per pair of evaluations and kept,
so a filter or a sort only selects and sorts it again, on the thread too.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QImage

from metrics.core.model import Sample
from metrics.core.results import SampleResult
from viewer.gallery.crops import render_crop
from viewer.jobs.quiet_gc import quiet_gc
from viewer.scene.gallery import Crop, SideInput, build, order, select

log = logging.getLogger(__name__)
PENDING = 256  # crop drawings waiting at most (the oldest, scrolled past, are dropped)


@dataclass(frozen=True)
class Query:
    """What the gallery shows: classes (any of; none: all), text, owners, images (None:
    every image), sort key."""

    classes: frozenset[str] = frozenset()
    text: str = ""
    owners: tuple[int, ...] = (0, 1)
    images: frozenset[str] | None = None
    sort: str = "credit"

    def apply(self, crops: Sequence[Crop]) -> list[Crop]:
        chosen = select(crops, self.classes, self.text, self.owners)
        if self.images is not None:
            chosen = [c for c in chosen if c.sample in self.images]
        return order(chosen, self.sort)


class CropLister(QObject):
    """Makes the crop list of a pair of evaluations (once, kept) and answers queries on it,
    on a thread; ``listed(generation, crops, made)``: the latest query's answer and how many
    crops the evaluations gave in all."""

    listed = Signal(int, object, int)
    failed = Signal(str)

    def __init__(self) -> None:
        super().__init__()
        self._lock = threading.Lock()  # one list made at a time; the next query reuses it
        self._key: tuple[object, ...] | None = None
        self._crops: list[Crop] = []
        self.generation = 0
        self._threads: list[threading.Thread] = []

    def ask(
        self, key: tuple[object, ...], sides: list[SideInput], detectors: bool, q: Query
    ) -> int:
        """Start answering ``q`` on the crops of ``sides`` (made again when ``key``
        changed); returns the answer's generation (older answers are stale)."""
        self.generation += 1
        gen = self.generation
        t = threading.Thread(
            target=self._run, args=(gen, key, sides, detectors, q), name="detlens-gallery"
        )
        t.daemon = True
        self._threads = [x for x in self._threads if x.is_alive()] + [t]
        t.start()
        return gen

    def crops(self, key: tuple[object, ...], sides: list[SideInput], detectors: bool) -> list[Crop]:
        with self._lock:
            if key != self._key:
                self._crops, self._key = [], None
                self._crops = build(sides, detectors)
                self._key = key
            return self._crops

    def _run(
        self, gen: int, key: tuple[object, ...], sides: list[SideInput], detectors: bool, q: Query
    ) -> None:
        try:
            with quiet_gc():  # 50,000 crops made: no collection holding the interpreter
                made = self.crops(key, sides, detectors)
                shown = q.apply(made) if gen == self.generation else []
        except Exception as exc:  # an engine bug must not take the window down
            log.warning("gallery failed", exc_info=True)
            with contextlib.suppress(RuntimeError):
                self.failed.emit(f"gallery failed ({type(exc).__name__}: {exc})")
            return
        if gen == self.generation:
            with contextlib.suppress(RuntimeError):  # the window went away
                self.listed.emit(gen, shown, len(made))

    def wait(self, timeout_s: float = 60.0) -> bool:
        for t in list(self._threads):
            t.join(timeout_s)
        return not any(t.is_alive() for t in self._threads)


Job = tuple[object, Crop, Sample, SampleResult | None]


class CropRenderer(QObject):
    """Draws requested crops on one thread, the latest request first (what the view shows
    now, not what it showed while scrolling past); ``rendered(key, image)``."""

    rendered = Signal(object, QImage)

    def __init__(self, render: Callable[[Crop, Sample, SampleResult | None], QImage] | None = None):
        super().__init__()
        self._render = render or render_crop
        self._jobs: list[Job] = []
        self._queued: set[object] = set()
        self._cond = threading.Condition()
        self.drawn = 0  # crops drawn (a test checks that only visible ones are)
        self._thread = threading.Thread(target=self._loop, name="detlens-crops", daemon=True)
        self._thread.start()

    def request(
        self, key: object, crop: Crop, sample: Sample, result: SampleResult | None
    ) -> list[object]:
        """Queue a drawing; returns the keys of the oldest requests dropped to make room."""
        dropped = []
        with self._cond:
            if key in self._queued:
                return []
            self._jobs.append((key, crop, sample, result))
            self._queued.add(key)
            while len(self._jobs) > PENDING:
                dropped.append(self._jobs.pop(0)[0])
                self._queued.discard(dropped[-1])
            self._cond.notify()
        return dropped

    def clear(self) -> None:
        """Forget the requests not drawn yet (a new list is shown)."""
        with self._cond:
            self._jobs.clear()
            self._queued.clear()

    def idle(self) -> bool:
        with self._cond:
            return not self._jobs and not self._busy

    _busy = False

    def _loop(self) -> None:
        while True:
            with self._cond:
                while not self._jobs:
                    self._busy = False
                    self._cond.wait()
            with quiet_gc():  # while drawing: no collection here, the UI thread served often
                while self._draw_next():
                    pass

    def _draw_next(self) -> bool:
        with self._cond:
            if not self._jobs:
                return False
            key, crop, sample, result = self._jobs.pop()
            self._busy = True
        try:
            image = self._render(crop, sample, result)
        except Exception:  # a bad image file: the placeholder stays
            log.warning("crop not drawn", exc_info=True)
            image = QImage()
        self.drawn += 1
        with self._cond:
            self._queued.discard(key)
        with contextlib.suppress(RuntimeError):
            self.rendered.emit(key, image)
        return True
