"""Sample ids from file names, and pairing of GT, detection, text-line and image files.

The canonical id (spec 0.1) is the GT file stem without a leading ``gt_`` / ``poly_gt_``:
``gt_img_12.txt`` -> ``img_12``, ``poly_gt_img7.txt`` -> ``img7``, ``1001.txt`` -> ``1001``.
Detection stems lose a leading ``res_``; image stems are used as they are. When a name does
not give an id directly, the number in it is used if it points at exactly one GT id
(``res_12.txt`` ~ ``gt_img_12.txt``). No preset needs to be named.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_GT_PREFIXES = ("poly_gt_", "gt_")
_DET_PREFIXES = ("res_", "det_", "pred_")
_NUMBER = re.compile(r"(\d+)")


def stem(name: str) -> str:
    base = name.rsplit("/", 1)[-1]
    return base.rsplit(".", 1)[0] if "." in base else base


def gt_id(name: str) -> str:
    s = stem(name)
    for prefix in _GT_PREFIXES:
        if s.startswith(prefix) and len(s) > len(prefix):
            return s[len(prefix) :]
    return s


def _number(s: str) -> str | None:
    found = _NUMBER.findall(s)
    return str(int(found[-1])) if found else None


class IdMatcher:
    """Maps other file names onto a fixed set of GT ids."""

    def __init__(self, ids: Iterable[str]) -> None:
        self.ids = set(ids)
        by_number: dict[str, list[str]] = {}
        for i in self.ids:
            n = _number(i)
            if n is not None:
                by_number.setdefault(n, []).append(i)
        self._by_number = {n: v[0] for n, v in by_number.items() if len(v) == 1}

    def match(self, name: str, prefixes: tuple[str, ...] = _DET_PREFIXES) -> str | None:
        s = stem(name)
        candidates = [s] + [s[len(p) :] for p in (*prefixes, *_GT_PREFIXES) if s.startswith(p)]
        for c in candidates:
            if c in self.ids:
                return c
        n = _number(s)
        return None if n is None else self._by_number.get(n)


def natural_key(sample_id: str) -> tuple[object, ...]:
    """Sort key that puts img_2 before img_10."""
    return tuple(int(t) if t.isdigit() else t for t in _NUMBER.split(sample_id))
