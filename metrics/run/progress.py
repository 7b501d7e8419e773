"""The one progress bar of the command lines (``eval``, ``compare``, ``export``)."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class ProgressBar:
    """A progress bar on stderr that appears only once a run has taken more than a second."""

    def __init__(self, stream: TextIO | None = None, delay: float = 1.0) -> None:
        self.stream, self.delay = stream or sys.stderr, delay
        self.start = time.perf_counter()
        self.shown = False
        self.last = 0.0

    def __call__(self, done: int, total: int) -> None:
        if not getattr(self.stream, "isatty", lambda: False)():
            return  # a log file or a pipe gets no carriage-return animation
        now = time.perf_counter()
        if not self.shown and (now - self.start < self.delay or done >= total):
            return
        if done < total and now - self.last < 0.1:
            return
        self.shown, self.last = True, now
        width = 30
        filled = int(width * done / max(total, 1))
        self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} images")
        if done >= total:
            self.stream.write("\n")
        self.stream.flush()
