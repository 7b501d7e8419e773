"""The one rule every reader applies to the numbers it reads (coordinates and confidences).

A coordinate is a finite number within ±``COORD_LIMIT`` (beyond it, areas and products
overflow and no image is that large); a number written with more than ``MAX_DIGITS``
characters is refused before it is converted; a confidence is a finite number in [0, 1].
Each check returns the value or the reason it is refused (a string), so that the reader
puts the reason at its own file and line (or JSON path). JSON integers of any size are
compared without being converted to float first (``float(10**400)`` raises).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TypeGuard

import numpy as np

from metrics.core.model import FloatArray

COORD_LIMIT = 1e9
"""|coordinate| above this is no image coordinate (areas would overflow)."""
MAX_DIGITS = 64
"""Characters of one number written in a text file (``1e400`` or 5,000 digits are refused)."""


def is_number(value: object) -> TypeGuard[int | float]:
    """A JSON number: an int or a float, not a bool."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def coordinate(value: object) -> float | str:
    """A JSON value as a coordinate, or why it is none."""
    if not is_number(value):
        return f"{_show(value)} is not a number"
    if isinstance(value, int):
        if abs(value) > COORD_LIMIT:
            return f"{_show(value)} lies beyond ±{COORD_LIMIT:g} (no image coordinate)"
        return float(value)
    if not math.isfinite(value):
        return f"{_show(value)} is not a finite number"
    if abs(value) > COORD_LIMIT:
        return f"{_show(value)} lies beyond ±{COORD_LIMIT:g} (no image coordinate)"
    return float(value)


def coordinates(values: Sequence[object]) -> list[float] | str:
    """JSON values as coordinates, or why the first refused one is refused."""
    out = []
    for v in values:
        got = coordinate(v)
        if isinstance(got, str):
            return got
        out.append(got)
    return out


def text_number(token: str) -> float | str:
    """A number written in a text file (``12``, ``-3.5``, ``1e3``) as a coordinate, or why it
    is none (not a number, too long, not finite, beyond the limit)."""
    text = token.strip()
    if len(text) > MAX_DIGITS:
        return f"a number of {len(text)} characters ({text[:12]}...) is no coordinate"
    try:
        value = float(text)
    except ValueError:
        return f"{text[:20]!r} is not a number"
    if not math.isfinite(value):
        return f"{text[:20]} is not a finite number"
    return coordinate(value)


def text_numbers(tokens: Sequence[str]) -> FloatArray | str:
    """Numbers written in a text file as one array of coordinates, or the first refusal."""
    out = []
    for token in tokens:
        got = text_number(token)
        if isinstance(got, str):
            return got
        out.append(got)
    return np.array(out, dtype=np.float64)


def array_problem(values: FloatArray) -> str | None:
    """Why an array of parsed coordinates is refused (not finite, beyond the limit), or None."""
    if values.size == 0:
        return None
    if not np.isfinite(values).all():
        bad = values[~np.isfinite(values)][0]
        return f"coordinates must be finite numbers (found {bad})"
    if np.abs(values).max() > COORD_LIMIT:
        return f"a coordinate beyond ±{COORD_LIMIT:g} is no image coordinate"
    return None


def confidence(value: object) -> float | str:
    """A JSON value as a confidence, or why it is none: a finite number in [0, 1]."""
    if not is_number(value):
        return f"score {_show(value)} is not a number"
    if isinstance(value, float) and not math.isfinite(value):
        return f"score {_show(value)} is not a finite number"
    if not 0 <= value <= 1:
        return f"score {_show(value)} is not in [0, 1]"
    return float(value)


def _show(value: object) -> str:
    text = repr(value) if not isinstance(value, int) or abs(value) < 10**20 else "a huge integer"
    return text if len(text) <= 40 else text[:37] + "..."
