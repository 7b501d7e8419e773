"""The one JSON parser of the readers: bounded nesting, bounded integers, located errors.

``json.loads`` recurses once per level of nesting (100,000 levels: a RecursionError) and
refuses integers of more than 4,300 digits with a bare ValueError. Here the nesting is
measured first, without parsing (brackets outside strings, counted by numpy), and any
failure is a ``JsonError`` with the 1-based line of the fault where it is known.
"""

from __future__ import annotations

import re

import numpy as np

from metrics.core.jsonvalue import JSONValue

MAX_DEPTH = 64
"""Deepest nesting of arrays and objects read (HierText, the deepest format, uses 7)."""
_OTHER = bytes(b for b in range(256) if b not in b'"[]{}')
_ESCAPE = rb"\\."  # patterns of rare paths: compiled (and cached by ``re``) when first used
_LONG_INT = r"\d{4000,}"


class JsonError(ValueError):
    """A file that is not valid JSON (or too deep), with the 1-based line of the fault
    (None when it is not known)."""

    def __init__(self, message: str, line: int | None) -> None:
        super().__init__(message)
        self.line = line


def depth(data: bytes) -> int:
    """The deepest nesting of arrays and objects in JSON text (brackets inside strings are
    not counted; escapes are removed first)."""
    if data.count(b"[") + data.count(b"{") <= MAX_DEPTH:
        return MAX_DEPTH  # cannot be deeper
    if b"\\" in data:
        data = re.sub(_ESCAPE, b"", data, flags=re.DOTALL)
    kept = data.translate(None, _OTHER)
    brackets = b"".join(kept.split(b'"')[0::2])  # outside strings
    if not brackets:
        return 0
    codes = np.frombuffer(brackets, dtype=np.uint8)
    steps = np.where((codes == ord("[")) | (codes == ord("{")), 1, -1).astype(np.int32)
    return int(np.cumsum(steps).max())


def loads(text: str, data: bytes | None = None) -> JSONValue:
    """The parsed JSON of ``text`` (``data``: the same text as bytes, for the depth scan),
    or JsonError saying where and why."""
    raw = text.encode("utf-8", errors="replace") if data is None else data
    deepest = depth(raw)
    if deepest > MAX_DEPTH:
        raise JsonError(f"nested {deepest} levels deep (at most {MAX_DEPTH} are read)", None)
    import json  # here: a run that reads no JSON never loads it (some 3 ms of a start)

    try:
        value: JSONValue = json.loads(text)
        return value
    except json.JSONDecodeError as exc:
        raise JsonError(f"not valid JSON: {exc.msg} (column {exc.colno})", exc.lineno) from None
    except RecursionError:  # cannot happen after the depth scan; never a traceback
        raise JsonError("nested too deeply", None) from None
    except ValueError:  # an integer of more than 4,300 digits
        m = re.search(_LONG_INT, text)
        line = text.count("\n", 0, m.start()) + 1 if m else None
        raise JsonError(
            "a number of more than 4,300 digits (no value detlens reads)", line
        ) from None
