"""Loggers that import ``logging`` when they first have something to say.

``logging`` (with ``traceback``, ``string`` and ``atexit``) is some 14 M instructions of
every detlens start, and a plain evaluation logs nothing. ``logger(name)`` stands for
``logging.getLogger(name)``: ``warning`` and ``error`` go to that logger (``logging`` is
imported then); ``debug`` and ``info`` records are dropped without importing it while
nothing in the process has (no handler or level set could have let them through: the root
logger's level is WARNING until someone configures it). A command line hands its
configuration to ``configure_later``: it is applied before the first record is passed on.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import logging

__all__ = ["Logger", "configure_later", "logger"]

_pending: list[Callable[[], None]] = []


def configure_later(setup: Callable[[], None]) -> None:
    """Run ``setup`` (which configures ``logging``) before the first record is logged; it
    replaces a setup not yet run (a command line run again in one process)."""
    _pending[:] = [setup]


def _configured() -> None:
    while _pending:
        _pending.pop()()


class Logger:
    """``logging.getLogger(name)``, imported on first use (see the module)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def real(self) -> logging.Logger:
        """The logger itself (``logging`` imported and the pending setup applied)."""
        import logging

        _configured()
        return logging.getLogger(self.name)

    def debug(self, msg: str, *args: object, exc_info: object = None) -> None:
        if "logging" in sys.modules:
            self.real().debug(msg, *args, exc_info=exc_info)  # type: ignore[arg-type]

    def info(self, msg: str, *args: object, exc_info: object = None) -> None:
        if "logging" in sys.modules:
            self.real().info(msg, *args, exc_info=exc_info)  # type: ignore[arg-type]

    def warning(self, msg: str, *args: object, exc_info: object = None) -> None:
        self.real().warning(msg, *args, exc_info=exc_info)  # type: ignore[arg-type]

    def error(self, msg: str, *args: object, exc_info: object = None) -> None:
        self.real().error(msg, *args, exc_info=exc_info)  # type: ignore[arg-type]


def logger(name: str) -> Logger:
    """The logger ``name`` (``logging.getLogger(name)`` once it has a record)."""
    return Logger(name)
