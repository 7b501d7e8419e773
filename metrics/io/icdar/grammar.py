"""The pieces of the ICDAR line grammar that the line parser, the whole-file scans and the
detection schema share: the field patterns, the detection schema, the dequoting of a
transcription, the split of a line into its leading numbers and the rest, and the box
hint of a file (``box_hint``), found from those splits.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from metrics.core.records import dataclass

NUM_FIELD = r"\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s*"
NUM = re.compile(NUM_FIELD + r"\Z", re.ASCII)
"""One numeric field (blanks around it allowed)."""
# the numeric fields at the start of a line, in one match (each followed by "," or the end)
NUM_PREFIX = re.compile(rf"(?:{NUM_FIELD}(?:,|\Z))*", re.ASCII)
INT_RUN = re.compile(r"\s*-?\d+\s*(?:,\s*-?\d+\s*)*", re.ASCII)
ALL_INT = re.compile(r"\s*-?\d+\s*(?:,\s*-?\d+\s*)*\Z", re.ASCII)
CONF = re.compile(r"\s*(?:[01](?:\.\d*)?|0?\.\d+)\s*\Z", re.ASCII)
"""A confidence as the official grammar writes it: ``[0-1].?[0-9]*``."""
NON_FINITE = re.compile(r"\s*[-+]?(?:nan|inf(?:inity)?)\s*\Z", re.ASCII | re.IGNORECASE)
DONT_CARE = "###"
MIN_BOX_NUMBERS = 4  # a detection box: an LTRB box, or at least two x,y points
COORD_LIMIT = 1e9  # |coordinate| above this is no image coordinate (areas would overflow)
_I = r"\s*(-?\d+)\s*"
FAST_QUAD = re.compile(",".join([_I] * 8) + r"(?:,(.*))?\Z", re.DOTALL | re.ASCII)
"""An integer QUAD line: its eight numbers and its raw tail, in one match."""
FAST_LTRB = re.compile(",".join([_I] * 4) + r"(?:,(.*))?\Z", re.DOTALL | re.ASCII)

Split = tuple[list[str], list[str]]
"""A line's leading numeric fields and the rest (``split_fields``)."""


class LineError(ValueError):
    """A line that cannot be read; the message says why."""


@dataclass(frozen=True, slots=True)
class DetSchema:
    """Which optional fields detection lines carry (inferred over the whole det set)."""

    confidence: bool = False
    transcription: bool = False


def confidence_shaped(field: str) -> bool:
    """A field that can only be meant as a confidence when it ends a detection's numbers:
    a decimal number (``0.9``, ``1.5``, ``-0.2``, ``1e-3``) or ``nan`` / ``inf``. Integers
    (``154``) stay the official grammar's numeric transcriptions."""
    if NON_FINITE.match(field):
        return True
    return NUM.match(field) is not None and any(c in field for c in ".eE")


def dequote(text: str) -> str:
    """Remove IC13 quotes and undo their escapes; other text is returned unchanged."""
    stripped = text.strip()
    if len(stripped) >= 2 and stripped[0] == '"' and stripped[-1] == '"':
        return stripped[1:-1].replace('\\"', '"').replace("\\\\", "\\")
    return text


def split_fields(line: str) -> Split:
    """The leading numeric fields and the rest (one regex match for the whole prefix).

    A leading run of integers followed by the end or by a non-numeric field (nearly every
    line) is found with a simpler pattern first; anything else takes the full grammar.
    """
    fields = line.split(",")
    run = INT_RUN.match(line)
    if run is not None:
        end = run.end()
        if end == len(line):
            return fields, []
        if line[end] == ",":
            k = line.count(",", 0, end) + 1
            if not NUM.match(fields[k]):
                return fields[:k], fields[k:]
    prefix = NUM_PREFIX.match(line)
    numeric = prefix.group() if prefix is not None else ""
    k = numeric.count(",") + (1 if numeric and not numeric.endswith(",") else 0)
    return fields[:k], fields[k:]


def hint_of(splits: Iterable[Split]) -> int:
    """8 when the lines of a file that carry text are all QUADs (8 numbers, or 9 with a
    confidence, before the text), 4 when all LTRB boxes; 0 otherwise (polygons, a mix, or
    no text): the numbers of that file's other lines that follow the box begin their
    transcription, as the official QUAD / LTRB grammars read them. A line with fewer than
    4 numbers and text other than ``###`` is no box (an error, ``200,10,300,abc,...``): it
    says nothing of the file's box."""
    kinds = set()
    for nums, rest in splits:
        joined = ",".join(rest)
        if rest and joined.strip():
            n = len(nums)
            if n < MIN_BOX_NUMBERS and dequote(joined) != DONT_CARE:
                continue
            kinds.add(8 if n in (8, 9) else 4 if n in (4, 5) else 0)
            if len(kinds) > 1 or 0 in kinds:
                return 0
    return kinds.pop() if kinds else 0


def box_hint(texts: Iterable[str]) -> int:
    """``hint_of`` the lines ``texts``."""
    return hint_of(split_fields(t) for t in texts)
