"""A whole file of ICDAR lines at once: the same grammar as ``metrics.io.lines``, one array.

``parse_gt_line`` / ``parse_det_line`` build a small numpy array per line and check it; for a
file that costs more than reading it. Here each line's fields are found with the same
functions (``gt_fields`` / ``det_fields``), every coordinate of the file is converted and
checked in one array, and each instance's points are a (n, 2) view of it. A line whose fields
cannot be read gives the same ``LineError`` as the line parser, at its position; a file with
anything unusual in its coordinates (a count that does not fit the box type, a non-finite or
huge value, an LTRB box with xmax < xmin) is parsed line by line instead, so every message
and every number is the line parser's own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from metrics.io.archive import Line
from metrics.io.lines import (
    COORD_LIMIT,
    DONT_CARE,
    DetSchema,
    LineError,
    det_fields,
    gt_fields,
    parse_det_line,
    parse_gt_line,
)
from metrics.model import BoxType, FloatArray, Instance

Parsed = Instance | LineError
# TL, TR, BR, BL of (xmin, ymin, xmax, ymax)
_LTRB_CORNERS = np.array([[0, 1], [2, 1], [2, 3], [0, 3]])


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
    """Every coordinate of the file, checked as ``lines._finite`` checks one line."""
    try:
        values = np.array([float(v) for line in nums for v in line], dtype=np.float64)
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
    return rows[:, _LTRB_CORNERS]


def _batch(
    lines: Sequence[Line],
    fields: Callable[[str], tuple[list[str], float | None, str | None, bool]],
    make: Callable[[FloatArray, BoxType, float | None, str | None, int, bool], Instance],
    box_type: BoxType | None,
    min_numbers: int,
) -> list[Parsed]:
    found: list[tuple[list[str], float | None, str | None, bool] | LineError] = []
    for ln in lines:
        try:
            found.append(fields(ln.text))
        except LineError as exc:
            found.append(exc)
    good = [(ln, f) for ln, f in zip(lines, found, strict=True) if not isinstance(f, LineError)]
    kinds = [_kind(len(f[0]), box_type, min_numbers) for _, f in good]
    points = iter(_points([f[0] for _, f in good], kinds))
    kind_of = iter(kinds)
    out: list[Parsed] = []
    for ln, f in zip(lines, found, strict=True):
        if isinstance(f, LineError):
            out.append(f)
        else:
            out.append(make(next(points), next(kind_of), f[1], f[2], ln.number, f[3]))
    return out


def parse_gt_file(lines: Sequence[Line], box_type: BoxType | None = None) -> list[Parsed]:
    """Each GT line as ``parse_gt_line`` reads it: its instance, or the error it raises."""

    def fields(text: str) -> tuple[list[str], float | None, str | None, bool]:
        nums, transcription, integer = gt_fields(text, box_type)
        return nums, None, transcription, integer

    def make(
        pts: FloatArray, kind: BoxType, _: float | None, text: str | None, no: int, integer: bool
    ) -> Instance:
        return Instance(
            points=pts, box_type=kind, text=text, dont_care=text == DONT_CARE, line=no,
            integer=integer,
        )  # fmt: skip

    try:
        return _batch(lines, fields, make, box_type, 2)
    except _LineByLine:
        return [_one(parse_gt_line, ln.text, ln.number, box_type) for ln in lines]


def parse_det_file(
    lines: Sequence[Line], schema: DetSchema, box_type: BoxType | None = None
) -> list[Parsed]:
    """Each detection line as ``parse_det_line`` reads it: its instance, or its error."""

    def make(
        pts: FloatArray, kind: BoxType, conf: float | None, text: str | None, no: int, integer: bool
    ) -> Instance:
        return Instance(
            points=pts, box_type=kind, text=text, confidence=conf, line=no, integer=integer
        )

    try:
        return _batch(lines, lambda t: det_fields(t, schema, box_type), make, box_type, 4)
    except _LineByLine:
        return [_one(parse_det_line, ln.text, ln.number, schema, box_type) for ln in lines]


def _one(parse: Callable[..., Instance], *args: object) -> Parsed:
    try:
        return parse(*args)
    except LineError as exc:
        return exc
