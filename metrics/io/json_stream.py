"""``--json`` written as it is made: byte for byte what ``json.dumps(data, indent=1)`` gives,
without holding the whole document (or its dictionaries) in memory.

With ``--evidence`` the document of every metric over a TextOCR-size set runs to gigabytes:
2,500 images and seven metrics gave a 1 GB string and a 10 GB peak when built in one piece
(the dictionaries, then the pure-Python indenting encoder's list of pieces). Here each
image's entry is made, encoded and written in turn; the result is the same bytes, since an
entry encoded alone at the top level only lacks the indentation of its depth, and the
encoder writes no raw line break but its own (line breaks inside strings are escaped).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import IO, Any, TypeAlias

from metrics.core.jsonvalue import JSONValue
from metrics.io.atomic import atomic_file

_FLUSH = 1 << 20  # bytes gathered before a write


class Entries:
    """A mapping written entry by entry: ``(key, make)`` pairs, ``make()`` builds the value
    when it is written (and it is dropped after)."""

    def __init__(self, items: Iterable[tuple[str, Callable[[], JSONValue]]], empty: bool) -> None:
        self.items, self.empty = items, empty


# What ``write_document`` writes: JSON values, with ``Entries`` as values of its objects.
DocumentObject: TypeAlias = "dict[str, JSONValue | Entries]"
Document: TypeAlias = "JSONValue | Entries | Mapping[str, JSONValue | Entries] | Sequence[Document]"


def _dumps(obj: Any, level: int) -> str:
    text = json.dumps(obj, indent=1, ensure_ascii=False, allow_nan=False)
    return text.replace("\n", "\n" + " " * level) if level else text


class _Out:
    def __init__(self, fh: IO[bytes]) -> None:
        self.fh = fh
        self.parts: list[str] = []
        self.size = 0

    def write(self, text: str) -> None:
        self.parts.append(text)
        self.size += len(text)
        if self.size >= _FLUSH:
            self.flush()

    def flush(self) -> None:
        self.fh.write("".join(self.parts).encode("utf-8"))
        self.parts, self.size = [], 0


def _value(out: _Out, obj: Any, level: int) -> None:
    if isinstance(obj, Entries):
        _entries(out, obj, level)
    elif isinstance(obj, Mapping) and any(isinstance(v, Entries) for v in obj.values()):
        _mapping(out, obj, level)
    else:
        out.write(_dumps(obj, level))


def _mapping(out: _Out, obj: Mapping[str, Any], level: int) -> None:
    pad = "\n" + " " * (level + 1)
    for k, (key, value) in enumerate(obj.items()):
        out.write(("{" if k == 0 else ",") + pad + json.dumps(key, ensure_ascii=False) + ": ")
        _value(out, value, level + 1)
    out.write("\n" + " " * level + "}")


def _entries(out: _Out, obj: Entries, level: int) -> None:
    if obj.empty:
        out.write("{}")
        return
    pad = "\n" + " " * (level + 1)
    for k, (key, make) in enumerate(obj.items):
        out.write(("{" if k == 0 else ",") + pad + json.dumps(key, ensure_ascii=False) + ": ")
        out.write(_dumps(make(), level + 1))
    out.write("\n" + " " * level + "}")


def write_document(path: str | os.PathLike[str], data: Document) -> None:
    """``data`` (dicts, lists, JSON values and ``Entries``) written atomically as
    ``json.dumps(data, indent=1, ensure_ascii=False, allow_nan=False) + "\\n"``."""
    with atomic_file(path) as fh:
        out = _Out(fh)
        if isinstance(data, list) and data:
            for k, item in enumerate(data):
                out.write(("[" if k == 0 else ",") + "\n ")
                _value(out, item, 1)
            out.write("\n]")
        else:
            _value(out, data, 0)
        out.write("\n")
        out.flush()
