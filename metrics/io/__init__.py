"""Readers and writers of GT and detection files.

``load_dataset`` and ``LoadOptions`` are imported on first use, so that importing a light
module of this package (``metrics.io.atomic``) does not load the readers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from metrics.io.reader import LoadOptions, load_dataset

__all__ = ["LoadOptions", "load_dataset"]


def __getattr__(name: str) -> object:
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from metrics.io import reader

    return getattr(reader, name)
