"""The ``detlens`` command line (``main``) and its engine subcommands.

``main`` is imported on first use (``__getattr__``): ``python -m metrics.cli`` then loads the
command line inside ``metrics.launch.entry``, with its garbage collector setting and
interrupt guard, as the ``detlens`` script does, not before it."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from metrics.cli.main import main

__all__ = ["main"]


def __getattr__(name: str) -> object:
    if name != "main":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from metrics.cli.main import main

    return main
