"""File names made from sample ids: the one place that turns an id into a name to write.

A sample id comes from the input (a file name, a detlens-JSON ``id``, a HierText
``image_id``) and may be ``../../escape``, an absolute path, or hold control characters.
``safe_name`` makes it one plain file name (separators, control and reserved characters
and leading dots become ``_``), or refuses it (empty, or too long for a file system);
``sample_files`` names every per-sample file of an output folder at once, refusing two ids
that come out as one name and any name that is one of the inputs. So every file written
lies inside the folder the user named and none replaces an input. Used by ``export``,
``report`` (its thumbnails) and ``convert --to icdar`` (the members of its zip).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from pathlib import Path

MAX_NAME_BYTES = 200
"""Longest name made from an id, in UTF-8 bytes (file systems take 255, and the writers add
a prefix, a suffix and a temporary extension)."""
_UNSAFE = re.compile(r'[\x00-\x1f\x7f-\x9f/\\:*?"<>|]')
_LEADING_DOTS = re.compile(r"^\.+")


class UnsafeName(ValueError):
    """A sample id that cannot be made a file name, or a name that would replace an input."""


def safe_name(sample_id: str) -> str:
    """``sample_id`` as one file name inside a folder (no separator, no ``..``, no control
    character), or UnsafeName when it cannot be made one."""
    name = _UNSAFE.sub("_", sample_id).strip()
    name = _LEADING_DOTS.sub(lambda m: "_" * len(m.group()), name)
    if not name:
        raise UnsafeName(f"sample id {sample_id!r} cannot be made a file name")
    if len(name.encode("utf-8", errors="replace")) > MAX_NAME_BYTES:
        raise UnsafeName(
            f"sample id {sample_id[:40]!r}... is longer than {MAX_NAME_BYTES} bytes: "
            "too long for a file name"
        )
    return name


def unique_names(ids: Iterable[str], pattern: str = "{}") -> dict[str, str]:
    """Each id's file name (``pattern`` filled with its ``safe_name``); UnsafeName when two
    ids come out as one name (``a/b`` and ``a_b``), whatever the case of the letters."""
    out: dict[str, str] = {}
    seen: dict[str, str] = {}
    for sid in ids:
        name = pattern.format(safe_name(sid))
        other = seen.setdefault(name.casefold(), sid)
        if other != sid:
            raise UnsafeName(f"sample ids {other!r} and {sid!r} would both be written as {name!r}")
        out[sid] = name
    return out


def sample_files(
    folder: Path, ids: Sequence[str], suffixes: Sequence[str], inputs: Iterable[str | None]
) -> dict[str, Path]:
    """``folder / (safe name + suffix)`` of each id (the first suffix's path is returned; the
    others are checked too), refused when one would be an input file."""
    names = unique_names(ids)
    protected = {_real(p) for p in inputs if p}
    for sid, name in names.items():
        for suffix in suffixes:
            target = folder / f"{name}{suffix}"
            if _real(target) in protected:
                raise UnsafeName(
                    f"{target} (sample {sid!r}) is an input: detlens never writes its inputs"
                )
    return {sid: folder / f"{name}{suffixes[0]}" for sid, name in names.items()}


def check_not_inputs(targets: Iterable[Path], inputs: Iterable[str | None]) -> None:
    """UnsafeName when one of ``targets`` is one of the ``inputs``."""
    protected = {_real(p) for p in inputs if p}
    for target in targets:
        if _real(target) in protected:
            raise UnsafeName(f"{target} is an input: detlens never writes its inputs")


def _real(path: str | os.PathLike[str]) -> str:
    return os.path.normcase(os.path.realpath(path))
