"""Plain polygon files (CTW1500, Total-Text): integer vertices and an optional tail, each
line as the line parser reads it, every coordinate of the file converted in one array.

``metrics.io.icdar.filelines.scan_plain`` finds the rows (the run of integers and the tail) with
one regex over the whole file; here they become instances when every line is one the line
parser reads without a question: a GT line with its transcription, a detection line with
nothing or a lone confidence after its vertices. Anything else (a tail that is a number, no
GT text, an odd count, an LTRB box with xmax < xmin, a detection schema that re-reads the
last numbers) returns None, and the file is read line by line.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from metrics.core.model import BoxType, FloatArray, Instance, new_instance
from metrics.io.icdar.grammar import CONF, COORD_LIMIT, DONT_CARE, NUM, DetSchema, dequote

LTRB_CORNERS = np.array([[0, 1], [2, 1], [2, 3], [0, 3]])  # TL, TR, BR, BL of (x0, y0, x1, y1)


def int_floats(flat: list[str]) -> FloatArray | None:
    """Integer fields parsed by numpy in one call, as floats (a written ``-0`` keeps its sign,
    as ``float("-0")`` does); None when one is no integer or lies beyond ``COORD_LIMIT``."""
    try:
        ints = np.array(flat, dtype=np.int64)
    except (ValueError, OverflowError, TypeError):
        return None
    if len(ints) and np.abs(ints).max() > COORD_LIMIT:
        return None
    return _floats(ints, lambda: flat)


def scanned_floats(joined: str, n: int) -> FloatArray | None:
    """The ``n`` comma-separated integer fields of ``joined`` as floats, parsed by numpy from
    the text in one call: only for fields a ``scan_plain`` regex took, each an optional
    minus and digits between blanks (``np.fromstring`` would read ``1 2`` as two numbers
    where ``int_floats`` refuses it). None when one lies beyond ``COORD_LIMIT`` (a number too
    long for 64 bits comes out saturated, so beyond it too)."""
    try:
        ints = np.fromstring(joined, dtype=np.int64, sep=",")
    except ValueError:
        return None
    if len(ints) != n or (n and np.abs(ints).max() > COORD_LIMIT):
        return None
    return _floats(ints, lambda: joined.split(",") if "-0" in joined else [])


def _floats(ints: npt.NDArray[np.int64], fields: Callable[[], list[str]]) -> FloatArray:
    """``ints`` as floats, a zero written ``-0`` in ``fields`` (asked for only when there is
    a zero; empty: none is) keeping its sign, as ``float("-0")`` does."""
    values = ints.astype(np.float64)
    zeros = np.flatnonzero(ints == 0).tolist()
    written = fields() if zeros else []
    for k in zeros if written else ():
        if written[k].lstrip().startswith("-"):
            values[k] = -0.0
    return values


def _kind(n: int, det: bool) -> BoxType | None:
    """The box type of ``n`` integer coordinates as the line parser decides it (no forced
    type); None where it would raise or re-read the numbers."""
    if n % 2 or n < (4 if det else 2):
        return None
    return BoxType.LTRB if n == 4 else BoxType.QUAD if n == 8 else BoxType.POLY


def _gt_text(tail: str) -> str | None:
    """A GT tail's transcription; None where the line parser must decide."""
    if not tail or NUM.match(tail.split(",", 1)[0]):  # "" may be no text or an empty one
        return None
    return dequote(tail)


def _det_confidence(tail: str, schema: DetSchema) -> tuple[bool, float | None]:
    """(readable here, confidence) of a detection tail: nothing, or a lone confidence."""
    if not tail.strip():
        return True, None
    if "," in tail or not schema.confidence or not CONF.match(tail):
        return False, None
    value = float(tail)
    return (False, None) if value > 1 else (True, value)  # 1.5: the grammar refuses it


def _values(rows: list[tuple[str, ...]]) -> tuple[FloatArray, list[int]] | None:
    counts = [r[0].count(",") + 1 for r in rows]
    values = scanned_floats(",".join([r[0] for r in rows]), sum(counts))
    return None if values is None else (values, counts)


def plain_polygons(
    text: str, rows: list[tuple[str, ...]], schema: DetSchema | None
) -> list[Instance] | None:
    """The instances of a scanned polygon file (GT when ``schema`` is None), or None."""
    if schema is not None and schema.confidence and schema.transcription:
        return None  # without text, such a schema reads the last two numbers as conf and text
    if schema is not None and schema.transcription and ",\n" in text + "\n":
        return None  # a trailing comma: an empty transcription, which the line parser gives
    found = _values(rows)
    if found is None:
        return None
    values, counts = found
    out = []
    start = 0
    for k, (row, n) in enumerate(zip(rows, counts, strict=True), start=1):
        kind = _kind(n, schema is not None)
        if kind is None:
            return None
        v = values[start : start + n]
        start += n
        if kind is BoxType.LTRB and (v[2] < v[0] or v[3] < v[1]):
            return None
        pts = v[LTRB_CORNERS] if kind is BoxType.LTRB else v.reshape(-1, 2)
        inst = _instance(pts, kind, row[1], k, n, schema)
        if inst is None:
            return None
        out.append(inst)
    return out


def _instance(
    pts: FloatArray, kind: BoxType, tail: str, line: int, n: int, schema: DetSchema | None
) -> Instance | None:
    if schema is None:
        text = _gt_text(tail)
        if text is None or (n < 4 and text != DONT_CARE):
            return None
        return new_instance(pts, kind, text, None, text == DONT_CARE, line, True, None)
    ok, conf = _det_confidence(tail, schema)
    return new_instance(pts, kind, None, conf, False, line, True, None) if ok else None
