"""A whole file of ICDAR lines at once: the same grammar as ``metrics.io.icdar.lines``, one array.

``parse_gt_line`` / ``parse_det_line`` build a small numpy array per line and check it; for a
file that costs more than reading it. Here (``gt_file``, ``parse_det_file``) each line is split
once (``grammar.split_fields``), the file's box hint found from those splits, each line's
fields found from the same split with the line parser's functions (``gt_fields`` /
``det_fields``), every coordinate of the file converted and checked in one array, and each
instance's points a (n, 2) view of it. A line whose fields cannot be read gives the same
``LineError`` as the line parser, at its position; in a file with anything unusual in its
coordinates (a count that does not fit the box type, a non-finite or huge value, an LTRB box
with xmax < xmin) each line's points are built by the line parser's ``coords`` from the
fields already found, so every message and every number is the line parser's own.

A file whose every line is a plain integer box line is read without splitting it:
``scan_plain`` takes its rows with one regex over the decoded text and ``plain_quads`` turns
them into instances, or says (None) that the lines must decide.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from metrics.core.model import BoxType, FloatArray, Instance, new_instance
from metrics.io.archive import Decoded, Line
from metrics.io.icdar.det_schema import SchemaEvidence
from metrics.io.icdar.grammar import (
    CONF,
    COORD_LIMIT,
    DONT_CARE,
    MIN_BOX_NUMBERS,
    NUM,
    DetSchema,
    LineError,
    Split,
    dequote,
    hint_of,
    split_fields,
)
from metrics.io.icdar.lines import coords, det_fields, gt_fields
from metrics.io.icdar.plainpoly import LTRB_CORNERS, int_floats, plain_polygons, scanned_floats

Parsed = Instance | LineError


class _LineByLine(Exception):
    """Something in the file's coordinates that the line parser words best."""


def _kind(n: int, box_type: BoxType | None, min_numbers: int) -> BoxType:
    """The box type of ``n`` coordinates, as ``lines._coords`` decides it."""
    if (box_type is BoxType.LTRB and n != 4) or (box_type is BoxType.QUAD and n != 8):
        raise _LineByLine
    if n < min_numbers or n % 2:
        raise _LineByLine
    if n == 4 and box_type in (None, BoxType.LTRB):
        return BoxType.LTRB
    return BoxType.QUAD if n == 8 and box_type is not BoxType.POLY else BoxType.POLY


def _values(nums: list[list[str]]) -> FloatArray:
    """Every coordinate of the file, checked as ``lines._finite`` checks one line.

    Integer fields (nearly all) are converted by numpy in one call, the others by ``float``;
    a written ``-0`` keeps its sign, as ``float("-0")`` does."""
    flat = [v for line in nums for v in line]
    values = int_floats(flat)
    if values is None:
        try:
            values = np.array([float(v) for v in flat], dtype=np.float64)
        except ValueError:
            raise _LineByLine from None
    if len(values) and not (np.isfinite(values).all() and np.abs(values).max() <= COORD_LIMIT):
        raise _LineByLine
    return values


def _points(nums: list[list[str]], kinds: list[BoxType]) -> list[FloatArray]:
    """Each line's (n, 2) points, LTRB boxes as the quad TL, TR, BR, BL."""
    values = _values(nums)
    counts = {len(n) for n in nums}
    if len(counts) == 1 and len(set(kinds)) == 1:  # one shape for the whole file
        rows = values.reshape(len(nums), -1)
        return list(_ltrb(rows) if kinds[0] is BoxType.LTRB else rows.reshape(len(nums), -1, 2))
    out: list[FloatArray] = []
    start = 0
    for line, kind in zip(nums, kinds, strict=True):
        row = values[start : start + len(line)]
        start += len(line)
        out.append(_ltrb(row[None])[0] if kind is BoxType.LTRB else row.reshape(-1, 2))
    return out


def _ltrb(rows: FloatArray) -> FloatArray:
    """(k, 4) boxes as (k, 4, 2) quads; a box with xmax < xmin or ymax < ymin is refused."""
    if ((rows[:, 2] < rows[:, 0]) | (rows[:, 3] < rows[:, 1])).any():
        raise _LineByLine
    return rows[:, LTRB_CORNERS]


Fields = tuple[list[str], float | None, str | None, bool]


def _batch(
    lines: Sequence[Line],
    found: list[Fields | LineError],
    make: Callable[[FloatArray, BoxType, float | None, str | None, int, bool], Instance],
    box_type: BoxType | None,
    min_numbers: int,
) -> list[Parsed]:
    """Each line's instance from its fields, every coordinate converted in one array; when
    something in the coordinates needs the line parser's words, each line's own ``coords``
    (the same fields: no line is read again)."""
    try:
        good = [f for f in found if not isinstance(f, LineError)]
        kinds = [_kind(len(f[0]), box_type, min_numbers) for f in good]
        points = iter(_points([f[0] for f in good], kinds))
    except _LineByLine:
        return [
            _each(ln, f, make, box_type, min_numbers) for ln, f in zip(lines, found, strict=True)
        ]
    kind_of = iter(kinds)
    out: list[Parsed] = []
    for ln, f in zip(lines, found, strict=True):
        if isinstance(f, LineError):
            out.append(f)
        else:
            out.append(make(next(points), next(kind_of), f[1], f[2], ln.number, f[3]))
    return out


def _each(
    ln: Line,
    f: Fields | LineError,
    make: Callable[[FloatArray, BoxType, float | None, str | None, int, bool], Instance],
    box_type: BoxType | None,
    min_numbers: int,
) -> Parsed:
    """One line's instance from its fields as the line parser builds it, or its error."""
    if isinstance(f, LineError):
        return f
    try:
        pts, kind = coords(f[0], box_type, min_numbers)
    except LineError as exc:
        return exc
    return make(pts, kind, f[1], f[2], ln.number, f[3])


def _splits(
    lines: Sequence[Line], wanted: bool, known: Sequence[Split | None] | None = None
) -> tuple[list[Split | None], int]:
    """Each line's ``split_fields`` as far as it is known (``known``: found already; None
    where not) and, when ``wanted``, the file's box hint (``hint_of``): the lines are split
    until the hint is decided (a polygon line with text decides it at once), and the
    splits are kept, so no line is split twice; each line's fields split the others when
    they need to."""
    splits: list[Split | None] = list(known) if known is not None else [None] * len(lines)
    if not wanted:
        return splits, 0

    def walk() -> Iterator[Split]:
        for k, ln in enumerate(lines):
            split = splits[k]
            if split is None:
                split = splits[k] = split_fields(ln.text)
            yield split

    return splits, hint_of(walk())


def gt_file(lines: Sequence[Line], box_type: BoxType | None = None) -> tuple[list[Parsed], int]:
    """Each GT line as ``parse_gt_line`` reads it (its instance, or the error it raises), and
    the file's box hint (0 with a forced box type), in one walk over the lines: each line
    split once, the hint found from the splits, its fields from the same split."""
    splits, hint = _splits(lines, box_type is None)
    found: list[Fields | LineError] = []
    for ln, split in zip(lines, splits, strict=True):
        try:
            nums, text, integer = gt_fields(ln.text, box_type, hint, split)
        except LineError as exc:
            found.append(exc)
        else:
            found.append((nums, None, text, integer))

    def make(
        pts: FloatArray, kind: BoxType, _: float | None, text: str | None, no: int, integer: bool
    ) -> Instance:
        return new_instance(
            points=pts, box_type=kind, text=text, dont_care=text == DONT_CARE, line=no,
            integer=integer,
        )  # fmt: skip

    return _batch(lines, found, make, box_type, 2), hint


def parse_gt_file(lines: Sequence[Line], box_type: BoxType | None = None) -> list[Parsed]:
    """Each GT line as ``parse_gt_line`` reads it: its instance, or the error it raises."""
    return gt_file(lines, box_type)[0]


def parse_det_file(
    lines: Sequence[Line],
    schema: DetSchema,
    box_type: BoxType | None = None,
    splits: Sequence[Split | None] | None = None,
) -> list[Parsed]:
    """Each detection line as ``parse_det_line`` reads it: its instance, or its error (the
    file's box hint decides where the box of a set with transcriptions ends), in one walk
    over the lines as ``gt_file``; ``splits``: the lines' splits that finding the detection
    schema made (None where it made none)."""
    found_splits, hint = _splits(lines, box_type is None and schema.transcription, splits)
    found: list[Fields | LineError] = []
    for ln, split in zip(lines, found_splits, strict=True):
        try:
            found.append(det_fields(ln.text, schema, box_type, hint, split))
        except LineError as exc:
            found.append(exc)

    def make(
        pts: FloatArray, kind: BoxType, conf: float | None, text: str | None, no: int, integer: bool
    ) -> Instance:
        return new_instance(
            points=pts, box_type=kind, text=text, confidence=conf, line=no, integer=integer
        )

    return _batch(lines, found, make, box_type, 4)


_SP = r"[ \t\f\v]*"  # what \s matches inside one line
_PLAIN = {
    n: re.compile(
        "^" + ",".join([rf"{_SP}(-?\d+){_SP}"] * n) + r"(?:,([^\n]*))?$", re.MULTILINE | re.ASCII
    )
    for n in (8, 4)  # QUAD, then LTRB
}
_MORE = re.compile(rf"{_SP}-?\d+{_SP},", re.ASCII)  # a tail starting with an integer and a comma


@functools.cache
def plain_poly() -> re.Pattern[str]:
    """Any number of integers, then an optional tail (a polygon line: CTW1500, Total-Text);
    compiled on first use, as a QUAD or LTRB set never asks for it."""
    return re.compile(
        rf"^((?:{_SP}-?\d+{_SP},)*{_SP}-?\d+{_SP})(?:,([^\n]*))?$", re.MULTILINE | re.ASCII
    )


Scan = tuple[str, list[tuple[str, ...]]]


def scan_plain(decoded: Decoded) -> Scan | None:
    """The text of a file and its rows (eight integer fields and the raw tail) when every
    line is an integer QUAD line, or (four and the tail) when every line is an integer LTRB
    box, found with one regex over the whole file; None otherwise."""
    found = decoded.plain()
    if found is None:
        return None
    text, n_lines = found
    for pattern in _PLAIN.values():
        if not _first_fits(pattern, text):
            continue  # its first line rules the pattern out: no scan of the whole text
        rows = pattern.findall(text)
        if len(rows) == n_lines and not any(_MORE.match(r[-1]) for r in rows):
            return text, rows
    rows = plain_poly().findall(text)  # more integers on some line: polygons
    return (text, rows) if len(rows) == n_lines else None


def _first_fits(pattern: re.Pattern[str], text: str) -> bool:
    """Whether the first line is one ``pattern`` takes (matched, its tail not starting with
    more integers): when it is not, the whole file cannot be read with the pattern."""
    m = pattern.match(text)
    return m is not None and not _MORE.match(m.groups()[-1] or "")


def plain_det_shape(scan: Scan) -> SchemaEvidence | None:
    """What ``shape_of`` over the file's detection lines finds (``det_evidence``); None when
    a tail is more than an optional lone confidence, or a polygon line has an odd count of
    integers (its last may be no confidence) or fewer than 4 (no box: ``shape_of`` leaves
    it out)."""
    tails = [r[-1] for r in scan[1]]
    if any(t and ("," in t or not CONF.match(t)) for t in tails):
        return None
    if len(scan[1][0]) == 2 and any(_odd_or_short(r[0]) for r in scan[1]):
        return None
    return SchemaEvidence(conf_like=any("." in t for t in tails), odd=any(tails))


def _odd_or_short(numbers: str) -> bool:
    """A plain polygon line's integers (``12,34,...``) are an odd count, or fewer than a box."""
    commas = numbers.count(",")
    return commas % 2 == 0 or commas < MIN_BOX_NUMBERS - 1


def plain_quads(
    scan: Scan, box_type: BoxType | None, schema: DetSchema | None = None
) -> list[Instance] | None:
    """A file of integer QUAD or LTRB lines (a GT transcription, or a detection confidence
    after the numbers) read with one regex over the whole file: each line as ``parse_gt_line``
    (``schema`` None) or ``parse_det_line`` reads it. None when any line needs more than
    that (the caller then reads the file line by line, with the same results)."""
    text, rows = scan
    if len(rows[0]) == 2:
        return _polygons(text, rows, box_type, schema)
    kind = BoxType.QUAD if len(rows[0]) == 9 else BoxType.LTRB
    if box_type not in (None, kind):
        return None
    tails = [r[-1] for r in rows]
    if schema is not None and ",\n" in text + "\n" and not any(tails):
        return None  # a trailing comma: the full grammar decides (it may split the numbers)
    extra = _tails(tails, box_type, schema)
    if extra is None:
        return None
    values = _int_values(rows)
    if values is None:
        return None
    if kind is BoxType.LTRB:
        if ((values[:, 2] < values[:, 0]) | (values[:, 3] < values[:, 1])).any():
            return None  # the line parser words the error
        pts = values[:, LTRB_CORNERS]
    else:
        pts = values.reshape(len(rows), 4, 2)
    if schema is None:
        return [
            new_instance(p, kind, t, None, t == DONT_CARE, k, True, None)
            for k, (p, t) in enumerate(zip(pts, extra, strict=True), start=1)
        ]
    return [
        new_instance(p, kind, None, c, False, k, True, None)
        for k, (p, c) in enumerate(zip(pts, extra, strict=True), start=1)
    ]


def _polygons(
    text: str, rows: list[tuple[str, ...]], box_type: BoxType | None, schema: DetSchema | None
) -> list[Instance] | None:
    """Polygon lines in one pass, except where the grammar decides: a forced box type, or
    detections with text (``0,0,...,0`` may be a QUAD with the numeric text ``0,0``)."""
    if box_type is not None or (schema is not None and schema.transcription):
        return None
    return plain_polygons(text, rows, schema)


def _int_values(rows: list[tuple[str, ...]]) -> FloatArray | None:
    """The integer fields of each row as floats (``scanned_floats``), one row per line."""
    width = len(rows[0]) - 1
    values = scanned_floats(",".join([v for r in rows for v in r[:-1]]), len(rows) * width)
    return None if values is None else values.reshape(len(rows), width)


def _tails(
    tails: list[str], box_type: BoxType | None, schema: DetSchema | None
) -> list[Any] | None:
    """GT: each line's dequoted transcription (None without one); detections: each line's
    confidence. None when a tail needs the full grammar (more numbers, or det text)."""
    if schema is None:
        out: list[Any] = []
        for t in tails:
            if not t or NUM.match(t.split(",", 1)[0]):  # "" may be no text or an empty one
                return None
            out.append(dequote(t))
        return out
    if not any(tails):  # no tail, or a trailing comma: no confidence either way
        return [None] * len(tails)
    if box_type is not None or not schema.confidence:
        return None
    if any("," in t or not CONF.match(t) for t in tails):
        return None
    values = [float(t) for t in tails]
    return None if any(v > 1 for v in values) else values  # 1.5: the grammar refuses it
