"""Problems listed on stderr grouped by what they say: the same message on 8,000 lines is one
line with the first place, a count and a few more places, not 8,000 (or 20) copies.

Imports nothing heavy (``metrics.core.model`` only when a listing is made)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from metrics.core.model import Problem

PLACES = 3
"""Places shown after the first of a group."""


_PATH = re.compile(r"((?:[\w$-]+|\[\d+\])(?:\.[\w$-]+|\[\d+\])*): (.*)", re.DOTALL)


def _split(p: Problem) -> tuple[str, str]:
    """A problem's JSON path (a problem of a JSON file has no line: its message starts with
    the path, ``predictions[1]: ...``) and the message without it; "" and the message when
    it has none."""
    m = _PATH.fullmatch(p.message) if p.line is None else None
    if m is None or "[" not in m.group(1):
        return "", p.message
    return m.group(1), m.group(2)


def groups(problems: Iterable[Problem]) -> list[list[Problem]]:
    """``problems`` grouped by severity and message (a JSON path before it set aside), in
    the order each was first met."""
    out: dict[tuple[str, str], list[Problem]] = {}
    for p in dict.fromkeys(problems):
        out.setdefault((p.severity.value, _split(p)[1]), []).append(p)
    return list(out.values())


def _place(p: Problem) -> str:
    from metrics.core.model import printable

    path = _split(p)[0]
    return printable(f"{p.where} {path}" if path else p.where)


def more_like(group: Sequence[Problem]) -> str:
    """'and 19 more like it: a.txt:2, a.txt:3, b.txt:1, ...' (the group but its first;
    a JSON file's places with their path, ``det.json predictions[1]``)."""
    rest = group[1:]
    if not rest:
        return ""
    places = ", ".join(_place(p) for p in rest[:PLACES])
    dots = ", ..." if len(rest) > PLACES else ""
    return f"and {len(rest)} more like it: {places}{dots}"


def grouped(problems: Iterable[Problem], limit: int, *, where: str = "") -> list[str]:
    """One line per group, at most ``limit``: the first problem (``FILE:LINE: error: ...``)
    and how many more say the same, where; then how many are not shown (and ``where``
    they all are, e.g. "all in --json")."""
    found = groups(problems)
    lines = []
    for g in found[:limit]:
        more = more_like(g)
        lines.append(f"{g[0]} ({more})" if more else str(g[0]))
    if len(found) > limit:
        rest = found[limit:]
        n = sum(len(g) for g in rest)
        tail = f" ({where})" if where else ""
        lines.append(f"... and {n} more, of {len(rest)} other kind(s){tail}")
    return lines
