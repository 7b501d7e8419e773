"""Data model of the engine: instances (boxes), samples (one image) and datasets.

Everything here is immutable. Coordinates are kept exactly as parsed (float64 values of the
text fields); each metric decides how to turn them into polygons (integer truncation, float32,
inclusive pixels, ...), as the official implementations do.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from enum import StrEnum
from functools import cached_property
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from metrics.core.records import dataclass, field

FloatArray = npt.NDArray[np.float64]


class BoxType(StrEnum):
    """How a box was written in its file."""

    LTRB = "LTRB"  # xmin,ymin,xmax,ymax
    QUAD = "QUAD"  # x1,y1,...,x4,y4
    POLY = "POLY"  # x1,y1,...,xn,yn (n != 4)


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True, slots=True)
class Problem:
    """One input problem, located by file (archive member) and 1-based line number."""

    severity: Severity
    source: str
    line: int | None
    message: str
    sample_id: str | None = None

    def __str__(self) -> str:
        return printable(f"{self.where}: {self.severity.value}: {self.message}")

    @property
    def where(self) -> str:
        """``FILE:LINE``; in a JSON file, whose boxes have no line of their own, the image
        and the box's place in it (``gt.json (image img_3, box 7)``)."""
        return locate(self.source, self.line, self.sample_id)


# patterns of problem messages only: compiled (and kept) by ``re`` when first used
_JSON = r"\.jsonl?(?::|$)"
_CONTROL = r"[\x00-\x1f\x7f-\x9f]"


def printable(text: str) -> str:
    """``text`` with its control characters written as escapes (``\x1b``): a file name or a
    line from the input echoed to a terminal never moves its cursor or clears it."""
    return re.sub(_CONTROL, lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


def locate(source: str, line: int | None, sample_id: str | None) -> str:
    """Where a problem is: ``FILE:LINE`` for text files; for a box of a JSON file (a sample
    id and the box's number among the image's boxes) the image id and that number, never
    a line of what is often a one-line file."""
    if place(source, sample_id) == "box":
        box = "" if line is None else f", box {line}"
        return f"{source} (image {sample_id}{box})"
    return source if line is None else f"{source}:{line}"


def place(source: str, sample_id: str | None) -> Literal["line", "box"]:
    """What a problem's number counts: a line of a text file, or in a JSON file a box of
    the image ``sample_id`` (``locate``); said so when problems or boxes are counted."""
    if sample_id is not None and re.search(_JSON, source, re.IGNORECASE):
        return "box"
    return "line"


@dataclass(frozen=True, slots=True)
class Instance:
    """One box of a GT or detection file.

    Attributes
    ----------
    points:
        (n, 2) vertices as parsed. LTRB boxes are stored as the quad TL, TR, BR, BL.
    box_type:
        How the line was written.
    text:
        Transcription (dequoted) or None when the line has none.
    confidence:
        Detection confidence or None.
    dont_care:
        True for GT lines whose transcription is ``###``.
    line:
        1-based line number in ``source``.
    integer:
        True when every coordinate field was written as an integer.
    attrs:
        Every other attribute the file's format carries (script, language, legibility,
        orientation, difficulty, ...), None when it has none (ICDAR txt).
    """

    points: FloatArray
    box_type: BoxType
    text: str | None = None
    confidence: float | None = None
    dont_care: bool = False
    line: int = 0
    integer: bool = True
    attrs: Mapping[str, Any] | None = None

    @property
    def ltrb(self) -> tuple[float, float, float, float]:
        """Axis-aligned bounds (xmin, ymin, xmax, ymax) of the points."""
        p = self.points
        return (
            float(p[:, 0].min()),
            float(p[:, 1].min()),
            float(p[:, 0].max()),
            float(p[:, 1].max()),
        )


# ``Instance(...)`` sets each field through ``object.__setattr__`` (a frozen class); the
# readers make one per line, thousands per set, so ``new_instance`` sets the slots directly
# (the same object: every field given, no ``__post_init__``).
_new_object = object.__new__
_SLOTS = vars(Instance)  # its member descriptors
_set_points = _SLOTS["points"].__set__
_set_box_type = _SLOTS["box_type"].__set__
_set_text = _SLOTS["text"].__set__
_set_confidence = _SLOTS["confidence"].__set__
_set_dont_care = _SLOTS["dont_care"].__set__
_set_line = _SLOTS["line"].__set__
_set_integer = _SLOTS["integer"].__set__
_set_attrs = _SLOTS["attrs"].__set__


def new_instance(
    points: FloatArray,
    box_type: BoxType,
    text: str | None = None,
    confidence: float | None = None,
    dont_care: bool = False,
    line: int = 0,
    integer: bool = True,
    attrs: Mapping[str, object] | None = None,
) -> Instance:
    """``Instance(points, box_type, text, confidence, dont_care, line, integer, attrs)``,
    made about twice as fast (see above)."""
    obj: Instance = _new_object(Instance)
    _set_points(obj, points)
    _set_box_type(obj, box_type)
    _set_text(obj, text)
    _set_confidence(obj, confidence)
    _set_dont_care(obj, dont_care)
    _set_line(obj, line)
    _set_integer(obj, integer)
    _set_attrs(obj, attrs)
    return obj


def ltrb_points(xmin: float, ymin: float, xmax: float, ymax: float) -> FloatArray:
    """The quad TL, TR, BR, BL of an axis-aligned box."""
    return np.array([[xmin, ymin], [xmax, ymin], [xmax, ymax], [xmin, ymax]], dtype=np.float64)


@dataclass(frozen=True, slots=True, eq=False)
class Group:
    """A line or paragraph of a hierarchical annotation (HierText JSON).

    Attributes
    ----------
    words:
        Indices of its words in the sample's ``gt`` (or ``det``) list.
    points:
        Its own vertices (GT only; None when the file gives none).
    dont_care:
        True when the GT marks it illegible (its own flag, not derived from its words).
    path:
        Where it is in its file, e.g. ``annotations[3].paragraphs[0].lines[1]``.
    """

    words: tuple[int, ...]
    points: FloatArray | None = None
    dont_care: bool = False
    path: str = ""


@dataclass(frozen=True, slots=True)
class Level:
    """One level of a hierarchy (e.g. lines): GT and detection groups in document order, and
    the input problems that only an evaluation of this level has (e.g. a detected line
    without words)."""

    gt: tuple[Group, ...]
    det: tuple[Group, ...]
    problems: tuple[Problem, ...] = ()


@dataclass(frozen=True, slots=True)
class Hierarchy:
    """Words grouped into higher levels, with the image size the levels are rasterised on.

    ``gt_paths`` / ``det_paths`` locate each word of ``Sample.gt`` / ``Sample.det`` in its
    file (e.g. ``annotations[3].paragraphs[0].lines[1].words[2]``).
    """

    width: int
    height: int
    levels: Mapping[str, Level]
    gt_paths: tuple[str, ...] = ()
    det_paths: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Sample:
    """One image: its GT, its detections and where they came from (``hierarchy``: the lines
    and paragraphs of hierarchical annotations, None for word-only formats)."""

    id: str
    gt: tuple[Instance, ...]
    det: tuple[Instance, ...]
    gt_source: str | None = None
    det_source: str | None = None
    gt_lines: tuple[Instance, ...] | None = None
    gt_lines_source: str | None = None
    image: str | None = None
    hierarchy: Hierarchy | None = None

    @property
    def n_gt_care(self) -> int:
        return sum(1 for g in self.gt if not g.dont_care)


@dataclass(frozen=True)
class Dataset:
    """Samples paired by id, plus every problem the readers found."""

    samples: tuple[Sample, ...]
    problems: tuple[Problem, ...] = ()
    gt_path: str | None = None
    det_path: str | None = None
    gt_lines_path: str | None = None
    images_path: str | None = None
    name: str = ""
    _index: dict[str, int] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._index.update({s.id: i for i, s in enumerate(self.samples)})

    def __iter__(self) -> Iterator[Sample]:
        return iter(self.samples)

    def __len__(self) -> int:
        return len(self.samples)

    def __getitem__(self, sample_id: str) -> Sample:
        return self.samples[self._index[sample_id]]

    @property
    def errors(self) -> tuple[Problem, ...]:
        return tuple(p for p in self.problems if p.severity is Severity.ERROR)

    @property
    def warnings(self) -> tuple[Problem, ...]:
        return tuple(p for p in self.problems if p.severity is Severity.WARNING)

    @property
    def has_confidences(self) -> bool:
        return self.facts.has_confidences

    @property
    def has_transcriptions(self) -> bool:
        return self.facts.has_transcriptions

    @property
    def polygon_share(self) -> float:
        """Share of the GT boxes written as polygons of other than 4 vertices (0 without
        GT); counted once with the other facts, as every metric's ``applies`` asks for it."""
        return self.facts.polygon_share

    @cached_property
    def facts(self) -> Facts:
        """Counts the ``applies`` predicates ask for (``metrics.declare.offers.Facts``)."""
        return facts_of(self.samples, self.gt_lines_path is not None)

    def box_types(self) -> set[BoxType]:
        return set(self.facts.box_types)


@dataclass(frozen=True, slots=True)
class Facts:
    """What the ``applies`` predicates (``metrics.declare.offers``) and the command line's summary
    ask of a whole set: counts that
    add up over any split of its samples, so worker processes that each read a part of the
    set (``metrics.run.sharded``) give the facts of the whole by ``+``."""

    n_samples: int = 0
    n_gt: int = 0
    n_det: int = 0
    n_gt_poly: int = 0  # GT written as polygons of other than 4 vertices
    n_gt_14: int = 0  # GT with exactly 14 vertices (CTW1500's format)
    n_det_conf: int = 0
    n_det_text: int = 0
    n_hier: int = 0  # samples with a hierarchy (HierText)
    n_gt_float: int = 0  # GT boxes with a non-integer coordinate (as read)
    n_det_float: int = 0  # detections with a non-integer coordinate (as read)
    box_types: frozenset[BoxType] = frozenset()
    has_gt_lines: bool = False

    def __add__(self, other: Facts) -> Facts:
        counts = {k: getattr(self, k) + getattr(other, k) for k in _COUNTS}
        return Facts(
            **counts,
            box_types=self.box_types | other.box_types,
            has_gt_lines=self.has_gt_lines or other.has_gt_lines,
        )

    @property
    def polygon_share(self) -> float:
        return self.n_gt_poly / self.n_gt if self.n_gt else 0.0

    @property
    def has_confidences(self) -> bool:
        return self.n_det > 0 and self.n_det_conf == self.n_det

    @property
    def has_transcriptions(self) -> bool:
        return self.n_det > 0 and self.n_det_text == self.n_det


_COUNTS: tuple[str, ...] = ("n_samples", "n_gt", "n_det", "n_gt_poly", "n_gt_14")
_COUNTS += ("n_det_conf", "n_det_text", "n_hier", "n_gt_float", "n_det_float")


def facts_of(samples: Iterable[Sample], has_gt_lines: bool) -> Facts:
    """The facts of ``samples`` (one pass over their instances)."""
    poly = BoxType.POLY
    n = n_gt = n_det = n_poly = n_14 = n_conf = n_text = n_hier = n_gf = n_df = 0
    kinds: set[BoxType] = set()
    for s in samples:  # list comprehensions and counts: a tenth of an evaluation before
        gt, det = s.gt, s.det
        n += 1
        n_hier += s.hierarchy is not None
        n_gt += len(gt)
        n_det += len(det)
        if gt:
            types = [g.box_type for g in gt]
            n_poly += types.count(poly)
            n_14 += [len(g.points) for g in gt].count(14)
            n_gf += [g.integer for g in gt].count(False)
            kinds.update(types)
        if det:
            n_conf += len(det) - [d.confidence for d in det].count(None)
            n_text += len(det) - [d.text for d in det].count(None)
            n_df += [d.integer for d in det].count(False)
            kinds.update([d.box_type for d in det])
    counts = (n, n_gt, n_det, n_poly, n_14, n_conf, n_text, n_hier, n_gf, n_df)
    return Facts(*counts, box_types=frozenset(kinds), has_gt_lines=has_gt_lines)


class InputError(Exception):
    """Bad input: carries every problem found, each with file and line. ``whole``: the
    summary says it all (one fact about the whole set, its first place named in it), so
    neither the first problem is added to it nor are the problems listed after it."""

    def __init__(
        self,
        problems: list[Problem] | tuple[Problem, ...],
        summary: str = "",
        *,
        whole: bool = False,
    ) -> None:
        self.problems = tuple(problems)
        self.whole = whole
        errors = [p for p in self.problems if p.severity is Severity.ERROR]
        self.summary = summary or f"{len(errors)} input error(s)"
        first = f"; first: {errors[0]}" if errors and not whole else ""
        super().__init__(self.summary + first)
