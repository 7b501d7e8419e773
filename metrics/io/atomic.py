"""The one atomic file writer of detlens (``eval --json/--csv``, exports, reports).

The data goes to a temporary file in the target's folder, which then replaces the target in
one ``os.replace``: a reader never sees half a file, and an interrupted run leaves the old
file (or none) behind, never a partial one. The file gets the mode a plain ``open`` would
give it (0666 minus the umask, usually 0644), not ``mkstemp``'s private 0600.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def atomic_write(path: str | os.PathLike[str], data: bytes | str) -> None:
    """Write ``data`` (text is UTF-8 encoded, newlines kept as given) to ``path`` atomically.

    Creates the parent folders. On any error or interrupt the temporary file is removed.
    """
    with atomic_file(path) as fh:
        fh.write(data.encode("utf-8") if isinstance(data, str) else data)


@contextmanager
def atomic_file(path: str | os.PathLike[str]) -> Iterator[BinaryIO]:
    """A binary file to write in pieces; it replaces ``path`` when the block ends normally
    (as ``atomic_write``: parent folders created, the temporary file removed on any error)."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    import tempfile  # only when something is written (start-up of engine commands)

    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            yield fh
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


@contextmanager
def staged(*paths: str | os.PathLike[str]) -> Iterator[list[Path]]:
    """Temporary paths beside ``paths`` for the block to write; when it ends normally they
    replace their targets together, after every one is complete; on any error or interrupt
    they are removed. So the outputs of one run (``--json`` and ``--csv``) appear together
    or not at all."""
    stage = [Path(p).with_name(f".{Path(p).name}.{os.getpid()}.stage.tmp") for p in paths]
    try:
        yield stage
        for tmp, target in zip(stage, paths, strict=True):
            os.replace(tmp, target)
    finally:
        for tmp in stage:
            tmp.unlink(missing_ok=True)


def settled() -> None:
    """The run's outputs are in place: a Ctrl-C from now on no longer interrupts it (exit 130
    would say that nothing was written). Only the main thread handles signals."""
    import signal
    import threading

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def output_problem(path: str | os.PathLike[str] | None, inputs: list[str | None]) -> str | None:
    """Why ``path`` cannot take an output (checked before any work), or None: it is a
    folder, its folder is missing or not a folder, or it is one of the ``inputs`` (inputs
    are never written) or lies inside an input folder."""
    if path is None:
        return None
    target = Path(path)
    if target.is_dir():
        return f"{path} is a folder: give a file name"
    parent = target.parent
    if not parent.exists():
        return f"folder {parent} does not exist (create it first)"
    if not parent.is_dir():
        return f"{parent} is not a folder"
    if not os.access(parent, os.W_OK | os.X_OK):
        return f"folder {parent} is not writable"
    resolved = target.resolve()
    for item in inputs:
        if item is None:
            continue
        src = Path(item).resolve()
        if resolved == src or (src.is_dir() and src in resolved.parents):
            return f"{path} is an input ({item}): detlens never writes its inputs"
    return None
