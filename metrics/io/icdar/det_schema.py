"""What the lines of a detection set say about their optional fields (a confidence, a
transcription), decided for the whole set, never per line.
"""

from __future__ import annotations

from metrics.core.records import dataclass
from metrics.io.icdar.grammar import (
    CONF,
    FAST_QUAD,
    MIN_BOX_NUMBERS,
    NON_FINITE,
    DetSchema,
    Split,
    confidence_shaped,
    split_fields,
)


@dataclass(frozen=True, slots=True)
class LineShape:
    """What a first look at a line found, used to infer a file set's det schema."""

    n_numeric: int
    has_text: bool
    conf_like_tail: bool  # odd numeric count whose last field looks like 0.xx
    not_conf_tail: bool = False  # odd numeric count whose trailing field is no confidence
    non_finite: bool = False  # the box and a lone nan / inf: a confidence, or a word


NO_BOX = LineShape(0, False, False)
"""The shape of a line that is no box under any schema: no evidence either way."""


def shape_of(line: str) -> LineShape:
    """Numeric field count, text present, confidence-like tail (``shape_and_split``)."""
    return shape_and_split(line)[0]


def shape_and_split(line: str) -> tuple[LineShape, Split | None]:
    """Numeric field count, text present, confidence-like tail (a fast path for plain QUADs),
    and the line's ``split_fields`` when finding them split it (reading uses it again).

    The trailing field of an odd count of numbers is the confidence candidate; it is no
    confidence when it fails the official pattern (``154``), unless the line also reads as
    a box, a confidence and a numeric transcription (``x1,...,y4,0.9,9,080``). A decimal
    number or ``nan`` / ``inf`` alone after the box (``-0.2``, ``1.5``, ``nan``) is taken as
    a confidence, so that reading refuses it when it is none in [0, 1] (never silently a
    transcription; ``--det-confidence no`` reads such fields as text); a lone ``nan`` /
    ``inf`` is a word only in a set whose other detections carry words
    (``SchemaEvidence.schema``).

    A line that is no detection box whatever the schema (fewer than 4 numbers before its
    first other field, ``200,10,300,abc,...``, or a NUL byte) says nothing: it is an error
    in any set, and its trailing number or text must not decide how the set's other lines
    are read (``NO_BOX``)."""
    m = FAST_QUAD.match(line)
    if m is not None and m.group(9) is None:
        return LineShape(8, False, False), None
    split = split_fields(line)
    nums, rest = split
    n = len(nums)
    if n < MIN_BOX_NUMBERS or "\x00" in line:
        return NO_BOX, split
    text = ",".join(rest)
    odd = n % 2 == 1
    shaped = odd and confidence_shaped(nums[-1])
    tail = odd and (shaped or ("." in nums[-1] and bool(CONF.match(nums[-1]))))
    not_conf = odd and not shaped and not CONF.match(nums[-1])
    if not_conf and n >= 11 and not rest and CONF.match(nums[8]):
        not_conf = False
    if not odd and len(rest) == 1 and NON_FINITE.match(rest[0]):
        return LineShape(n, False, False, non_finite=True), split  # x1,...,y4,nan
    return LineShape(n, bool(text.strip()), tail, not_conf), split


@dataclass(frozen=True, slots=True)
class SchemaEvidence:
    """What the lines of a detection set say about its optional fields; evidence of two
    parts of a set (``|``) is the evidence of the whole."""

    conf_like: bool = False  # some odd count of numbers ends with a 0.xx value
    text: bool = False  # some line has text after its numbers
    not_conf: bool = False  # some odd count of numbers ends with no valid confidence
    odd: bool = False  # some line has an odd count of numbers (a field after the box)
    non_finite: bool = False  # some line has a lone nan / inf after its box

    def __or__(self, other: SchemaEvidence) -> SchemaEvidence:
        return SchemaEvidence(
            self.conf_like or other.conf_like,
            self.text or other.text,
            self.not_conf or other.not_conf,
            self.odd or other.odd,
            self.non_finite or other.non_finite,
        )

    def schema(self, forced: tuple[bool | None, bool | None] = (None, None)) -> DetSchema:
        """The set's schema: a trailing field that is no valid confidence in some lines
        makes that field a transcription in all of them (``...,154``: text, never a
        confidence); ``forced`` (``--det-confidence`` / ``--det-transcription``) wins, and
        with confidences forced off, the field after the box is a transcription. A lone
        ``nan`` / ``inf`` after a box is a word where other detections carry words, else a
        confidence (which reading refuses: it is no number from 0 to 1)."""
        conf, text = forced
        words = self.text or self.not_conf
        inferred_text = words or (conf is False and (self.odd or self.non_finite))
        conf_like = self.conf_like or (self.non_finite and not words)
        return DetSchema(
            confidence=(conf_like and not self.not_conf) if conf is None else conf,
            transcription=inferred_text if text is None else text,
        )


def det_evidence(shapes: list[LineShape]) -> SchemaEvidence:
    """The schema evidence of some detection lines."""
    return SchemaEvidence(
        conf_like=any(s.conf_like_tail for s in shapes),
        text=any(s.has_text for s in shapes),
        not_conf=any(s.not_conf_tail for s in shapes),
        odd=any(s.n_numeric % 2 == 1 for s in shapes),
        non_finite=any(s.non_finite for s in shapes),
    )


def infer_det_schema(shapes: list[LineShape]) -> DetSchema:
    """Confidences are present if some line ends its numbers with a 0.xx value and no line
    ends them with a field that is no confidence (``SchemaEvidence.schema``)."""
    return det_evidence(shapes).schema()
