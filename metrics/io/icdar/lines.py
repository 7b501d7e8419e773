"""Grammar of one ICDAR-style text line (spec section 0.2-0.3), box type detected per line.

A line is comma separated: coordinates, an optional confidence, an optional transcription.
The transcription is everything after the last numeric field (commas included); a quoted
transcription (``"word"``, IC13 style) is dequoted with the escapes ``\\\\`` and ``\\"`` undone.
Coordinates always come in x,y pairs, which resolves most ambiguities: an odd number of
leading numeric fields means the last one is a confidence or a numeric transcription, and an
odd number followed by text is a QUAD (or LTRB) box whose transcription starts with a number
(``...,1,959`` + text: ``"1,959..."``), as the official QUAD / LTRB grammars read it. A file
whose lines with text are all QUADs (all LTRB boxes) reads its other lines as that box too
(``box_hint``): the numbers after the box begin the transcription, as in CLEval's test data.
"""

from __future__ import annotations

import numpy as np

from metrics.core.model import BoxType, FloatArray, Instance, ltrb_points
from metrics.io.icdar.grammar import (
    ALL_INT,
    CONF,
    COORD_LIMIT,
    DONT_CARE,
    FAST_LTRB,
    FAST_QUAD,
    MIN_BOX_NUMBERS,
    NON_FINITE,
    NUM,
    DetSchema,
    LineError,
    Split,
    dequote,
    split_fields,
)

__all__ = ["COORD_LIMIT", "DONT_CARE", "DetSchema", "LineError", "dequote"]


def _confidence(text: str) -> float:
    """A detection confidence: a number from 0 to 1 as the official grammar writes it,
    ``[0-1].?[0-9]*`` (0.95 and 1 are read; 2, -0.5 and nan are not). The official pattern
    also lets 1.5 through; a confidence above 1 is refused here too (issue 30: a confidence
    is a number in [0, 1] or the line is an error)."""
    if not CONF.match(text):
        raise LineError(
            f"confidence {text.strip()[:20]!r} is not a number from 0 to 1 "
            "(the official pattern is [0-1].xx)"
        )
    value = float(text)
    if value > 1:
        raise LineError(
            f"confidence {text.strip()[:20]!r} is above 1 (a confidence is a number from 0 "
            "to 1; the official pattern [0-1].xx would let it through)"
        )
    return value


def _no_word_confidence(rest: list[str], schema: DetSchema) -> None:
    """In a set whose detections carry confidences, ``nan`` or ``inf`` where the confidence
    goes is a confidence that is no number, never the transcription "nan"."""
    if schema.confidence and rest and NON_FINITE.match(rest[0]):
        raise LineError(
            f"confidence {rest[0].strip()[:20]!r} is not a number from 0 to 1 "
            "(--det-confidence no reads the field after the box as text)"
        )


def _clean(line: str) -> None:
    if "\x00" in line:
        raise LineError("NUL byte in the line (a binary or UTF-16 file?)")


def _finite(values: FloatArray) -> None:
    if not np.all(np.isfinite(values)):
        raise LineError("coordinates must be finite numbers")
    if np.abs(values).max() > COORD_LIMIT:
        raise LineError(f"a coordinate beyond ±{COORD_LIMIT:g} is no image coordinate")


def _numeric_text(nums: list[str]) -> bool:
    """10 or more integers, an even count and no text (see ``parse_gt_line``)."""
    return len(nums) >= 10 and len(nums) % 2 == 0 and ALL_INT.match(",".join(nums)) is not None


def _float(text: str) -> float:
    try:
        return float(text)
    except ValueError as exc:
        raise LineError(f"not a number: {text.strip()[:20]!r}") from exc


def _integers(nums: list[str]) -> bool:
    """Every field an integer (no decimal point, no exponent)."""
    return not nums or ALL_INT.match(",".join(nums)) is not None


def _floats(nums: list[str]) -> list[float]:
    try:
        return [float(v) for v in nums]
    except ValueError:
        return [_float(v) for v in nums]  # raises, naming the field


def _box_text(nums: list[str], rest: list[str], hint: int) -> tuple[list[str], list[str]]:
    """A line's coordinates and transcription fields (no forced box type): with a file's
    ``box_hint``, an odd count of numbers is that box and the others begin the text; else
    an odd count of numbers followed by text is a QUAD (9 or more numbers) or LTRB box (5
    or 7) whose text starts with the others; 10 or more integers and no text are a QUAD
    whose transcription is the rest."""
    n = len(nums)
    if hint and n > hint and n % 2 == 1:  # an even count stays a polygon
        return nums[:hint], nums[hint:] + rest
    if n % 2 == 1 and n >= 5 and rest:
        k = 8 if n >= 9 else 4
        return nums[:k], nums[k:] + rest
    if not rest and _numeric_text(nums):
        return nums[:8], nums[8:]
    return nums, rest


def coords(
    nums: list[str], box_type: BoxType | None, min_numbers: int = 4
) -> tuple[FloatArray, BoxType]:
    """Coordinates of a line. GT polygons may have a single point (Total-Text ships two such
    don't-care lines; they are evaluated with zero area and reported as warnings)."""
    n = len(nums)
    if (box_type is BoxType.LTRB and n != 4) or (box_type is BoxType.QUAD and n != 8):
        raise LineError(
            f"{box_type.value} needs {4 if box_type is BoxType.LTRB else 8} coordinates, found {n}"
        )
    if n < min_numbers or n % 2:
        raise LineError(
            f"expected x,y coordinate pairs (at least {min_numbers} numbers), found {n}"
        )
    values = np.array(_floats(nums), dtype=np.float64)
    _finite(values)
    if n == 4 and box_type in (None, BoxType.LTRB):
        xmin, ymin, xmax, ymax = values
        if xmax < xmin or ymax < ymin:
            raise LineError(
                f"LTRB box with xmax < xmin or ymax < ymin ({xmin:g},{ymin:g},{xmax:g},{ymax:g})"
            )
        return ltrb_points(xmin, ymin, xmax, ymax), BoxType.LTRB
    kind = BoxType.QUAD if n == 8 and box_type is not BoxType.POLY else BoxType.POLY
    return values.reshape(-1, 2), kind


def _fixed_split(line: str, box_type: BoxType) -> tuple[list[str], list[str]]:
    """With a known LTRB/QUAD type, coordinates are exactly the first 4 / 8 fields."""
    fields = line.split(",")
    n = 4 if box_type is BoxType.LTRB else 8
    if len(fields) < n or not all(NUM.match(f) for f in fields[:n]):
        raise LineError(f"{box_type.value} line needs {n} numeric coordinates first")
    rest = fields[n:]
    return fields[:n], rest


def parse_gt_line(
    line: str, lineno: int, box_type: BoxType | None = None, hint: int = 0
) -> Instance:
    """Parse a GT line: coordinates then the transcription (``###`` = don't care).

    A line of 10 or more integers and no text is the ICDAR grammar's QUAD whose
    transcription is a run of numbers (``12,34``): every GT line carries a transcription,
    so no polygon grammar accepts it otherwise. An odd count of numbers followed by text
    is a QUAD or LTRB box and its transcription (``...,1,959`` + text); ``hint``: the
    file's ``box_hint``. A care GT needs at least two points.
    """
    nums, text, integer = gt_fields(line, box_type, hint)
    pts, kind = coords(nums, box_type, min_numbers=2)
    return Instance(
        points=pts,
        box_type=kind,
        text=text,
        dont_care=text == DONT_CARE,
        line=lineno,
        integer=integer,
    )


def _quick(line: str, box_type: BoxType | None) -> tuple[list[str], str | None] | None:
    """An integer QUAD or LTRB line in one regex match: its numbers and raw tail; None when
    the line needs the full grammar (more numbers may follow, or the type does not fit)."""
    for kind, pattern in ((BoxType.QUAD, FAST_QUAD), (BoxType.LTRB, FAST_LTRB)):
        if box_type not in (None, kind):
            continue
        m = pattern.match(line)
        if m is None:
            continue
        *nums, tail = m.groups()
        return nums, tail
    return None


def gt_fields(
    line: str, box_type: BoxType | None = None, hint: int = 0, split: Split | None = None
) -> tuple[list[str], str | None, bool]:
    """A GT line's coordinate fields, its dequoted transcription and whether every coordinate
    is an integer (``parse_gt_line`` without building the points); ``split``: the line's
    ``split_fields``, when the file's reader found it already."""
    _clean(line)
    quick = _quick(line, box_type)
    if quick is not None and (quick[1] is None or not NUM.match(quick[1].split(",", 1)[0])):
        nums, tail = quick
        return nums, None if tail is None else dequote(tail), True
    if box_type in (BoxType.LTRB, BoxType.QUAD):
        nums, rest = _fixed_split(line, box_type)
    else:
        nums, rest = split_fields(line) if split is None else split
        if box_type is None:
            nums, rest = _box_text(nums, rest, hint)
    text: str | None = ",".join(rest) if rest else None
    if text is None and len(nums) % 2 == 1:
        text = nums.pop()
    if text is not None:
        text = dequote(text)
    if len(nums) < 4 and text != DONT_CARE:
        raise LineError(
            f"{len(nums)} coordinate(s): a care GT needs at least two points "
            "(only don't-care lines may be single points, as Total-Text ships them)"
        )
    return nums, text, _integers(nums)


def _text_only(
    nums: list[str], rest: list[str], hint: int
) -> tuple[list[str], float | None, str | None]:
    """A line of a set with transcriptions and no confidences, read as a GT line is."""
    nums, rest = _box_text(nums, rest, hint)
    text: str | None = ",".join(rest) if rest else None
    if text is None and len(nums) % 2 == 1:
        text = nums.pop()
    return nums, None, None if text is None else dequote(text)


def _box_conf_text(
    nums: list[str], rest: list[str], k: int
) -> tuple[list[str], float | None, str | None]:
    """A box of ``k`` numbers, its confidence, and the rest as its transcription (None
    when nothing follows the confidence)."""
    text = ",".join(nums[k + 1 :] + rest) if len(nums) > k + 1 or rest else None
    return nums[:k], _confidence(nums[k]), None if text is None else dequote(text)


def _det_tail(
    nums: list[str], rest: list[str], schema: DetSchema, hint: int = 0
) -> tuple[list[str], float | None, str | None]:
    """Split the numeric fields after the coordinates into confidence and transcription.

    Without transcriptions, one trailing comma is tolerated; with them, it is an empty
    transcription (``""``, as CLEval reads it), distinct from none (no comma)."""
    n = len(nums)
    if n < MIN_BOX_NUMBERS:  # no box whatever follows (never "unexpected text")
        raise LineError(
            f"expected x,y coordinate pairs (at least {MIN_BOX_NUMBERS} numbers), found {n}"
        )
    if schema.transcription and not schema.confidence:
        return _text_only(nums, rest, hint)
    if n % 2 == 0:
        _no_word_confidence(rest, schema)
    if schema.transcription and not rest and n >= 11 and n % 2 == 1 and _conf_then_numbers(nums):
        return _box_conf_text(nums, rest, 8)  # x1,...,y4,0.9,9,080
    text = ",".join(rest) if rest else None
    if text is not None and not schema.transcription:
        if text.strip():
            raise LineError(
                f"unexpected text after the numbers ({text[:20]!r}); detections of "
                "this set carry no transcription"
            )
        text = None  # one trailing comma is tolerated
    conf: float | None = None
    if n % 2 == 1:
        last = nums.pop()
        if not schema.confidence:
            raise LineError(
                f"{n} numbers: coordinates come in x,y pairs (a truncated box?) "
                "and no detection of this set carries a confidence"
            )
        conf = _confidence(last)
    elif text is None and schema.confidence and schema.transcription and n >= 6:
        text = nums.pop()
        conf = _confidence(nums.pop())
    return nums, conf, None if text is None else dequote(text)


def _conf_then_numbers(nums: list[str]) -> bool:
    """The last number is no confidence, the ninth is: a QUAD, its confidence and a
    transcription made of numbers."""
    return not CONF.match(nums[-1]) and CONF.match(nums[8]) is not None


def parse_det_line(
    line: str, lineno: int, schema: DetSchema, box_type: BoxType | None = None, hint: int = 0
) -> Instance:
    """Parse a detection line: coordinates, optional confidence, optional transcription
    (``hint``: the file's ``box_hint``)."""
    nums, conf, text, integer = det_fields(line, schema, box_type, hint)
    pts, kind = coords(nums, box_type)
    return Instance(
        points=pts, box_type=kind, text=text, confidence=conf, line=lineno, integer=integer
    )


def det_fields(
    line: str,
    schema: DetSchema,
    box_type: BoxType | None = None,
    hint: int = 0,
    split: Split | None = None,
) -> tuple[list[str], float | None, str | None, bool]:
    """A detection line's coordinate fields, confidence, transcription and whether every
    coordinate is an integer (``parse_det_line`` without building the points); ``split``:
    the line's ``split_fields``, when the file's reader found it already."""
    _clean(line)
    quick = _quick(line, box_type)
    if quick is not None:
        nums, tail = quick
        if tail is None:
            return nums, None, None, True
        if not tail and schema.transcription:
            return nums, None, "", True  # x1,...,y4, : an empty transcription
        if box_type is None and schema.confidence and "," not in tail and CONF.match(tail):
            return nums, _confidence(tail), None, True  # x1,...,y4,0.95: the confidence alone
    if box_type in (BoxType.LTRB, BoxType.QUAD):
        nums, rest = _fixed_split(line, box_type)
        tail_nums, tail_rest = split_fields(",".join(rest)) if rest else ([], [])
        if not tail_nums:
            _no_word_confidence(tail_rest, schema)
        conf: float | None = None
        if tail_nums and (schema.confidence or not schema.transcription):
            conf = _confidence(tail_nums.pop(0))
            rest = tail_nums + tail_rest
        joined = ",".join(rest)
        text = dequote(joined) if joined.strip() or (rest and schema.transcription) else None
    else:
        nums, rest = split_fields(line) if split is None else split
        nums, conf, text = _det_tail(nums, rest, schema, hint if box_type is None else 0)
    return nums, conf, text, _integers(nums)
