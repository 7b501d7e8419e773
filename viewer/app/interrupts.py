"""Headless Qt commands (export, report): Qt offscreen or a one-line error, and Ctrl-C during
their long work noted by a signal handler and acted on at safe points. An interrupt raised
inside a paint call, or inside an import that catches everything, would be swallowed (the
command then ran to its end as if nothing was asked) or crash the painter."""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager


class Interrupts:
    """Ctrl-C while Qt paints is only noted, and acted on between two samples: an interrupt
    raised inside a paint call would be swallowed by the bindings or crash the painter."""

    def __init__(self) -> None:
        self.asked = False
        self._old = signal.signal(signal.SIGINT, self._note)

    def _note(self, signum: int, frame: object) -> None:
        self.asked = True

    def seen(self) -> bool:
        return self.asked

    def check(self) -> None:
        if self.asked:
            raise KeyboardInterrupt

    def restore(self) -> None:
        signal.signal(signal.SIGINT, self._old)

    @contextmanager
    def direct(self) -> Iterator[None]:
        """Plain Python work (no Qt): Ctrl-C interrupts it at once, as usual."""
        self.check()
        signal.signal(signal.SIGINT, signal.default_int_handler)
        try:
            yield
        finally:
            signal.signal(signal.SIGINT, self._note)


def guarded(work: Callable[[Interrupts], int]) -> int:
    """Run a command's ``work`` with Ctrl-C noted (``Interrupts``), the handler restored after."""
    interrupts = Interrupts()
    try:
        return work(interrupts)
    finally:
        interrupts.restore()


def headless_qt(needs: str) -> bool:
    """Qt for a headless command (offscreen unless a platform is set); False, with the one
    line saying what to install, when PySide6 (or what else ``needs`` names) is missing."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    try:
        import PySide6.QtWidgets  # noqa: F401
    except ImportError as exc:
        print(f"detlens: error: {needs} ({exc})", file=sys.stderr)
        return False
    return True
