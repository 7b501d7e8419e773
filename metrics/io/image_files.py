"""The image files of a folder, and whether a path may be opened as an image at all.

A pipe (FIFO) named like an image blocks whoever opens it until something writes to it:
``view``, ``check`` and ``export`` hung on one. So every image path is checked with
``os.stat`` before it is paired with a sample, and again before it is opened (a file can be
replaced meanwhile): only regular files (or links to them) are ever opened as images.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from metrics.core.model import Problem, Severity
from metrics.io.archive import IMAGE_SUFFIXES

_KINDS = (
    (stat.S_ISFIFO, "a pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISDIR, "a folder"),
)


def not_an_image_file(path: str | os.PathLike[str]) -> str | None:
    """Why ``path`` must not be opened as an image (None: a regular file, or a link to one)."""
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        dangling = os.path.islink(path)
        return "a dangling symbolic link" if dangling else f"cannot read: {exc.strerror}"
    if stat.S_ISREG(mode):
        return None
    kind = next((name for test, name in _KINDS if test(mode)), "not a regular file")
    return f"{kind}, not an image file: not opened"


def image_files(folder: Path, problems: list[Problem]) -> list[Path]:
    """The files of ``folder`` with an image suffix that can be opened, in name order; each
    other one (a pipe, a device, a dangling link...) is a warning naming it."""
    out = []
    for f in sorted(folder.iterdir()):
        if f.suffix.lower() not in IMAGE_SUFFIXES:
            continue
        why = not_an_image_file(f)
        if why is None:
            out.append(f)
        else:
            problems.append(Problem(Severity.WARNING, str(f), None, f"images: {why}"))
    return out
