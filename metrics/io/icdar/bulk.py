"""Many plain files at once: ``filelines.scan_plain``, ``plain_quads`` and ``plain_det_shape``
over a run of files, each file's outcome the one its own call gives.

Reading a set file by file pays, per file, a regex scan, a numpy parse and a few checks of
each line in Python; for IC15's 500 small files that cost more than the numbers. Here the
files that the same pattern takes (told by their first line, as ``scan_plain`` tells it)
are scanned with one ``findall`` over their texts joined, their tails checked with one
regex, every coordinate parsed in one numpy call; each file gets its slice. Where the joined
run says that some file is not plain (a line the pattern leaves, a tail with more numbers,
a number beyond the limit, a tail the grammar must read), each file of that run is read by
its own call instead, so every outcome (None included) is that call's.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from metrics.core.model import BoxType, Instance, new_instance
from metrics.io.archive import Decoded
from metrics.io.icdar.det_schema import SchemaEvidence
from metrics.io.icdar.filelines import (
    _PLAIN,
    Scan,
    _first_fits,
    _odd_or_short,
    _polygons,
    _tails,
    plain_det_shape,
    plain_poly,
    plain_quads,
    scan_plain,
)
from metrics.io.icdar.grammar import DONT_CARE, DetSchema, dequote
from metrics.io.icdar.plainpoly import LTRB_CORNERS, _det_confidence, scanned_floats

_SP = r"[ \t\f\v]*"
_MORE_LINE = re.compile(rf"^{_SP}-?\d+{_SP},", re.MULTILINE | re.ASCII)  # ``_MORE`` per line
# a tail that is neither empty nor a lone confidence (``CONF``, blanks within the line)
_NOT_CONF_LINE = re.compile(
    r"^(?!(?:[ \t\r\f\v]*(?:[01](?:\.\d*)?|0?\.\d+)[ \t\r\f\v]*)?$)", re.MULTILINE | re.ASCII
)
# a GT tail the grammar reads itself: none, or a number first (``NUM`` on its first field)
_GT_ASKS = re.compile(
    r"^(?:$|[ \t\r\f\v]*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?[ \t\r\f\v]*(?:,|$))",
    re.MULTILINE | re.ASCII,
)


@functools.cache
def _bare(key: int) -> re.Pattern[str]:
    """``_PLAIN[key]`` (``plain_poly`` for 0) without its blanks: the same matches in a text
    that has none, found faster (half the time for a polygon file); compiled on first use."""
    if key:
        return re.compile("^" + ",".join([r"(-?\d+)"] * key) + r"(?:,([^\n]*))?$", re.M | re.A)
    return re.compile(r"^((?:-?\d+,)*-?\d+)(?:,([^\n]*))?$", re.MULTILINE | re.ASCII)


def scan_many(decoded: Sequence[Decoded]) -> list[Scan | None]:
    """``[scan_plain(d) for d in decoded]``, the files of one pattern scanned together."""
    out: list[Scan | None] = [None] * len(decoded)
    groups: dict[int, list[tuple[int, str, int]]] = {8: [], 4: [], 0: []}
    for k, d in enumerate(decoded):
        found = d.plain()
        if found is None:
            continue
        text, n = found
        key = 8 if _first_fits(_PLAIN[8], text) else 4 if _first_fits(_PLAIN[4], text) else 0
        groups[key].append((k, text, n))
    for key, files in groups.items():
        if files and not _scan_group(key, files, out):
            for k, _, _ in files:
                out[k] = scan_plain(decoded[k])
    return out


def _scan_group(key: int, files: list[tuple[int, str, int]], out: list[Scan | None]) -> bool:
    """Scan files whose first line fits pattern ``key`` (0: polygons) together; False when
    some file is not all of that pattern (each is then scanned on its own)."""
    joined = "\n".join(t[:-1] if t.endswith("\n") else t for _, t, _ in files)
    bare = not any(c in joined for c in " \t\f\v")  # then the blanks' ``*`` match nothing
    pattern = _bare(key) if bare else _PLAIN[key] if key else plain_poly()
    rows = pattern.findall(joined)
    if len(rows) != sum(n for _, _, n in files):
        return False
    if key and _MORE_LINE.search("\n".join([r[-1] for r in rows])):
        return False
    start = 0
    for k, text, n in files:
        out[k] = (text, rows[start : start + n])
        start += n
    return True


def det_shapes(scans: Sequence[Scan | None]) -> list[SchemaEvidence | None]:
    """``[plain_det_shape(s) ...]`` (None for no scan): every file's tails checked with one
    regex; when one gives no evidence, each file is asked on its own."""
    tails = "\n".join([r[-1] for s in scans if s is not None for r in s[1]])
    polys = [r[0] for s in scans if s is not None and len(s[1][0]) == 2 for r in s[1]]
    if _NOT_CONF_LINE.search(tails) or any(_odd_or_short(p) for p in polys):
        return [None if s is None else plain_det_shape(s) for s in scans]
    return [None if s is None else _shape(s) for s in scans]


def _shape(scan: Scan) -> SchemaEvidence:
    tails = [r[-1] for r in scan[1]]
    return SchemaEvidence(conf_like=any("." in t for t in tails), odd=any(tails))


def plain_many(
    scans: Sequence[Scan | None], box_type: BoxType | None, schema: DetSchema | None = None
) -> list[list[Instance] | None]:
    """``[plain_quads(s, box_type, schema) ...]`` (None for no scan), the QUAD / LTRB files
    read together, as are the polygon files."""
    out: list[list[Instance] | None] = [None] * len(scans)
    groups: dict[int, list[tuple[int, Scan]]] = {9: [], 5: [], 2: []}
    for k, s in enumerate(scans):
        if s is not None:
            groups[len(s[1][0])].append((k, s))
    for width, files in groups.items():
        if not files:
            continue
        group = [s for _, s in files]
        done = (
            _polys(group, box_type, schema)
            if width == 2
            else _quads(group, width, box_type, schema)
        )
        for j, (k, s) in enumerate(files):
            out[k] = plain_quads(s, box_type, schema) if done is None else done[j]
    return out


def _quads(
    scans: list[Scan], width: int, box_type: BoxType | None, schema: DetSchema | None
) -> list[list[Instance] | None] | None:
    """The files of integer QUAD (``width`` 9) or LTRB (5) rows; where a file needs
    ``plain_quads``'s own look, its call; None when every file does."""
    kind = BoxType.QUAD if width == 9 else BoxType.LTRB
    if box_type not in (None, kind):
        return None
    rows = [r for s in scans for r in s[1]]
    ends = np.cumsum([len(s[1]) for s in scans])
    tails = [r[-1] for r in rows]
    ok = [True] * len(scans)
    extra = (
        _gt_texts(tails, ends, ok) if schema is None else _confs(scans, tails, box_type, schema, ok)
    )
    values = scanned_floats(",".join([",".join(r[:-1]) for r in rows]), len(rows) * (width - 1))
    if values is None:
        return None
    values = values.reshape(len(rows), width - 1)
    if kind is BoxType.LTRB:
        reversed_ = (values[:, 2] < values[:, 0]) | (values[:, 3] < values[:, 1])
        for j in np.searchsorted(ends, np.flatnonzero(reversed_), side="right").tolist():
            ok[j] = False
        pts = values[:, LTRB_CORNERS]
    else:
        pts = values.reshape(len(rows), 4, 2)
    out: list[list[Instance] | None] = []
    start = 0
    for j, (scan, end) in enumerate(zip(scans, ends.tolist(), strict=True)):
        got = zip(pts[start:end], extra[start:end], strict=True)
        if not ok[j]:
            out.append(plain_quads(scan, box_type, schema))
        elif schema is None:
            out.append(
                [
                    new_instance(p, kind, t, None, t == DONT_CARE, k, True, None)
                    for k, (p, t) in enumerate(got, start=1)
                ]
            )
        else:
            out.append(
                [
                    new_instance(p, kind, None, c, False, k, True, None)
                    for k, (p, c) in enumerate(got, start=1)
                ]
            )
        start = end
    return out


def _gt_texts(tails: list[str], ends: npt.NDArray[np.intp], ok: list[bool]) -> list[str]:
    """Each GT tail's transcription (``filelines._tails``); a file with a tail that the
    grammar must read (none, or a number first) is marked not ``ok``."""
    joined = "\n".join(tails)
    bad, row, seen = [], 0, 0
    for m in _GT_ASKS.finditer(joined):
        row += joined.count("\n", seen, m.start())
        seen = m.start()
        bad.append(row)
    for j in np.searchsorted(ends, bad, side="right").tolist():
        ok[j] = False
    return [dequote(t) if '"' in t else t for t in tails]


def _confs(
    scans: list[Scan], tails: list[str], box_type: BoxType | None, schema: DetSchema, ok: list[bool]
) -> list[Any]:
    """Each detection tail's confidence (``filelines._tails``, file by file); a file that
    needs the grammar is marked not ``ok``."""
    out: list[Any] = []
    start = 0
    for j, (text, rows) in enumerate(scans):
        mine = tails[start : start + len(rows)]
        start += len(rows)
        found = None if not any(mine) and ",\n" in text + "\n" else _tails(mine, box_type, schema)
        ok[j] = found is not None
        out.extend(found if found is not None else mine)
    return out


def _polys(
    scans: list[Scan], box_type: BoxType | None, schema: DetSchema | None
) -> list[list[Instance] | None]:
    """Each polygon file's ``plain_quads``: the files read together (one numpy parse, the
    rows of one vertex count gathered in one array); a file with a row that
    ``plain_polygons`` would not read (its ``None``) is None here too."""
    if box_type is not None or (schema is not None and schema.transcription):
        return [None] * len(scans)  # ``filelines._polygons``: the grammar decides
    rows = [r for s in scans for r in s[1]]
    ends = np.cumsum([len(s[1]) for s in scans])
    counts = np.array([r[0].count(",") + 1 for r in rows], dtype=np.intp)
    values = scanned_floats(",".join([r[0] for r in rows]), int(counts.sum()))
    if values is None:
        return [_polygons(text, rs, box_type, schema) for text, rs in scans]
    ok = [True] * len(scans)

    def refuse(bad_rows: Sequence[int] | npt.NDArray[np.intp]) -> None:
        for j in np.searchsorted(ends, np.asarray(bad_rows, dtype=np.intp), side="right"):
            ok[int(j)] = False

    refuse(np.flatnonzero((counts % 2 == 1) | (counts < (2 if schema is None else 4))))
    points = _poly_points(values, counts, refuse)
    tails = [r[-1] for r in rows]
    sizes = np.diff(ends, prepend=0)
    lines = (np.arange(len(rows)) - np.repeat(ends - sizes, sizes) + 1).tolist()
    if schema is None:
        texts = _gt_texts(tails, ends, ok)
        refuse([k for k, n in enumerate(counts.tolist()) if n < 4 and texts[k] != DONT_CARE])
        made = [
            new_instance(p, _KIND.get(n, BoxType.POLY), t, None, t == DONT_CARE, k, True, None)
            for p, n, t, k in zip(points, counts.tolist(), texts, lines, strict=True)
        ]
    else:
        confs = [_det_conf(t, schema) for t in tails]
        refuse([k for k, c in enumerate(confs) if c is False])
        made = [
            new_instance(p, _KIND.get(n, BoxType.POLY), None, c, False, k, True, None)
            for p, n, c, k in zip(points, counts.tolist(), confs, lines, strict=True)
        ]
    out: list[list[Instance] | None] = []
    start = 0
    for j, end in enumerate(ends.tolist()):
        out.append(made[start:end] if ok[j] else None)
        start = end
    return out


_KIND = {4: BoxType.LTRB, 8: BoxType.QUAD}


def _poly_points(
    values: npt.NDArray[np.float64],
    counts: npt.NDArray[np.intp],
    refuse: Callable[[npt.NDArray[np.intp]], None],
) -> list[Any]:
    """Each row's vertices (LTRB rows as their four corners; an LTRB box with xmax < xmin
    refused), the rows of one count gathered at once; None for a refused count."""
    starts = np.cumsum(counts) - counts
    points: list[Any] = [None] * len(counts)
    for n in sorted(set(counts.tolist())):  # not np.unique: it imports numpy.ma
        if n % 2 or n < 2:
            continue  # refused by the caller
        idx = np.flatnonzero(counts == n)
        v = values[starts[idx][:, None] + np.arange(n)]
        if n == 4:
            refuse(idx[(v[:, 2] < v[:, 0]) | (v[:, 3] < v[:, 1])])
            pts = v[:, LTRB_CORNERS]
        else:
            pts = v.reshape(len(idx), n // 2, 2)
        for k, p in zip(idx.tolist(), pts, strict=True):
            points[k] = p
    return points


def _det_conf(tail: str, schema: DetSchema) -> float | bool | None:
    """A polygon detection's tail as ``plainpoly._det_confidence`` reads it: the confidence
    (None for none), or False where the grammar must read the line."""
    readable, value = _det_confidence(tail, schema)
    return value if readable else False
