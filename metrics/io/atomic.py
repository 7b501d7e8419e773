"""The one atomic file writer of detlens (``eval --json/--csv``, exports, reports).

The data goes to a temporary file in the target's folder, which then replaces the target in
one ``os.replace``: a reader never sees half a file, and an interrupted run leaves the old
file (or none) behind, never a partial one. The file gets the mode a plain ``open`` would
give it (0666 minus the umask, usually 0644), not ``mkstemp``'s private 0600.

Only regular files are replaced: a target that is the standard output or error (``--json
/dev/stdout``, the common idiom) is written to that stream; any other device, a FIFO, a
socket or a symbolic link is refused (``OutputError``, one line), never replaced by a file.
A failed write (a full disk) names the path.
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO, Literal

Target = Literal["file", "stdout", "stderr"]


class OutputError(OSError):
    """A path that cannot take an output (a device, a FIFO, a link) or a failed write; the
    message names the path."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "cannot write"


def target_kind(path: str | os.PathLike[str]) -> Target:
    """What writing ``path`` means: replacing a regular file (or creating it), or writing to
    the standard output or error (the path is one of them, e.g. ``/dev/stdout``).
    OutputError for anything else."""
    try:
        st = os.stat(path)
    except OSError:
        st = None
    if st is not None:
        for fd, name in ((1, "stdout"), (2, "stderr")):
            try:
                out = os.fstat(fd)
            except OSError:
                continue
            if (st.st_dev, st.st_ino) == (out.st_dev, out.st_ino):
                return "stdout" if name == "stdout" else "stderr"
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return "file"
    except OSError as exc:
        raise OutputError(f"cannot write {os.fspath(path)}: {exc.strerror or exc}") from None
    if stat.S_ISREG(mode):
        return "file"
    kinds = [
        (stat.S_ISLNK, "a symbolic link"),
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a pipe (FIFO)"),
        (stat.S_ISSOCK, "a socket"),
    ]
    what = next((name for test, name in kinds if test(mode)), "a device")
    raise OutputError(
        f"{os.fspath(path)} is {what}: detlens writes regular files only and never "
        "replaces anything else (/dev/stdout writes to the standard output)"
    )


def _stream(kind: Target) -> BinaryIO:
    return sys.stdout.buffer if kind == "stdout" else sys.stderr.buffer


def _failed(path: str | os.PathLike[str], exc: OSError) -> OutputError:
    if isinstance(exc, OutputError):
        return exc
    return OutputError(f"cannot write {os.fspath(path)}: {exc.strerror or exc}")


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
    kind = target_kind(path)
    if kind != "file":  # the standard output or error: written as it comes
        stream = _stream(kind)
        try:
            yield stream
            stream.flush()
        except OSError as exc:
            raise _failed(path, exc) from None
        return
    target = Path(path)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _failed(path, exc) from None
    import tempfile  # only when something is written (start-up of engine commands)

    try:
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as exc:
        raise _failed(path, exc) from None
    try:
        with os.fdopen(fd, "wb") as fh:
            yield fh
        os.chmod(tmp, 0o666 & ~_umask())
        target_kind(target)  # still a regular file (or none): never a link or a device
        os.replace(tmp, target)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise _failed(path, exc) from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


@contextmanager
def staged(*paths: str | os.PathLike[str]) -> Iterator[list[Path]]:
    """Temporary paths beside ``paths`` for the block to write; when it ends normally they
    replace their targets together, after every one is complete; on any error or interrupt
    they are removed. So the outputs of one run (``--json`` and ``--csv``) appear together
    or not at all."""
    kinds = [target_kind(p) for p in paths]
    stage = [_stage(p, kind) for p, kind in zip(paths, kinds, strict=True)]
    try:
        yield stage
        for tmp, target, kind in zip(stage, paths, kinds, strict=True):
            try:
                if kind == "file":
                    target_kind(target)  # never a link or a device put there meanwhile
                    os.replace(tmp, target)
                else:
                    _copy(tmp, _stream(kind))
            except OSError as exc:
                raise _failed(target, exc) from None
    except OutputError:
        raise
    except OSError as exc:  # writing a stage: name the outputs, not the temporary files
        raise OutputError(
            f"cannot write {', '.join(os.fspath(p) for p in paths)}: {exc.strerror or exc}"
        ) from None
    finally:
        for tmp in stage:
            tmp.unlink(missing_ok=True)


def _stage(path: str | os.PathLike[str], kind: Target) -> Path:
    """Where an output is written before it is put in place: beside a file; in the temporary
    folder for a stream (never a new file in /dev)."""
    if kind == "file":
        return Path(path).with_name(f".{Path(path).name}.{os.getpid()}.stage.tmp")
    import tempfile

    fd, tmp = tempfile.mkstemp(prefix="detlens.", suffix=".stage.tmp")
    os.close(fd)
    return Path(tmp)


def _copy(tmp: Path, stream: BinaryIO) -> None:
    import shutil

    with open(tmp, "rb") as fh:
        shutil.copyfileobj(fh, stream)
    stream.flush()


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
    try:
        if target_kind(path) != "file":
            return None  # the standard output or error
    except OutputError as exc:
        if target.parent.is_dir():
            return str(exc)
    parent = target.parent
    if not parent.exists():
        return f"folder {parent} does not exist (create it first)"
    if not parent.is_dir():
        return f"{parent} is not a folder"
    if not os.access(parent, os.W_OK | os.X_OK):
        return f"folder {parent} is not writable"
    return _input_problem(path, inputs)


def _input_problem(path: str | os.PathLike[str], inputs: list[str | None]) -> str | None:
    resolved = Path(os.path.realpath(path))  # never raises on a link loop (Path.resolve does)
    for item in inputs:
        if item is None:
            continue
        src = Path(os.path.realpath(item))
        if resolved == src or (src.is_dir() and src in resolved.parents):
            return f"{path} is an input ({item}): detlens never writes its inputs"
    return None
