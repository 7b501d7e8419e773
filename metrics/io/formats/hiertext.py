"""HierText JSON (GT and predictions): words as the samples' instances, lines and paragraphs
as their ``Hierarchy`` (HIERTEXT.md section 1).

GT: ``{"annotations": [{image_id, image_width, image_height, paragraphs: [{vertices,
legible, lines: [{vertices, legible, text, words: [{vertices, legible, text}]}]}]}]}``;
predictions the same without sizes, legibility and line / paragraph vertices.

The rules of the official loader and parser (``eval.py``) become located problems, never
exceptions: what the word level (always evaluated officially) breaks is a reader error;
what only the line or paragraph evaluation breaks is a problem of that ``Level``, reported
by the metric of that level. Every problem names its file and JSON path, e.g.
``gt.json: error: annotations[3].paragraphs[0].lines[1].words[2]: word polygon has 2
vertices``. Indices are document order (paragraph by paragraph, line by line, word by
word), the order in which the official code builds its lists.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Hashable
from pathlib import Path
from typing import Any

import numpy as np
import shapely

from metrics.core.model import (
    BoxType,
    Dataset,
    FloatArray,
    Group,
    Hierarchy,
    InputError,
    Instance,
    Level,
    Problem,
    Sample,
    Severity,
)
from metrics.core.records import dataclass, field
from metrics.io.archive import read_file
from metrics.io.jsonload import JsonError, loads
from metrics.io.numbers import array_problem
from metrics.shapes.geometry import polygons

PathLike = str | os.PathLike[str]
BOM = b"\xef\xbb\xbf"
LINE, PARAGRAPH = "line", "paragraph"
_ATTRS = ("legible", "vertical", "handwritten")  # kept on each word


def is_hiertext(path: PathLike) -> bool:
    """A regular file whose content is a JSON object (HierText JSON); decided by content."""
    p = Path(path)
    if not p.is_file():
        return False
    with p.open("rb") as f:
        head = f.read(64)
    return head.removeprefix(BOM).lstrip().startswith(b"{")


def _load(path: PathLike) -> list[Any]:
    """The ``annotations`` list of a HierText file; InputError when the file cannot be used."""
    source = str(path)

    def fail(msg: str, line: int | None = None) -> InputError:
        return InputError([Problem(Severity.ERROR, source, line, msg)])

    try:
        raw = read_file(Path(path)).removeprefix(BOM)  # the size limit first
        data = loads(raw.decode("utf-8"), raw)  # bounded depth, located errors
    except (OSError, UnicodeDecodeError) as exc:
        raise fail(f"cannot read: {exc}") from exc
    except JsonError as exc:
        raise fail(str(exc), exc.line) from exc
    if not isinstance(data, dict) or not isinstance(data.get("annotations"), list):
        raise fail("HierText JSON needs an object with a list 'annotations'")
    entries: list[Any] = data["annotations"]
    return entries


def _vertices(value: Any, minimum: int) -> tuple[FloatArray, bool] | str:
    """(points, all integers) of a ``vertices`` list, or what is wrong with it.

    Read as ``np.array(vertices)`` is in the official parser: integers stay integers (what
    OpenCV's fillPoly needs), one float makes the whole polygon float.
    """
    if not isinstance(value, list):
        return "has no 'vertices' list" if value is None else "'vertices' is not a list"
    try:
        arr = np.array(value) if value else np.zeros((0, 2), dtype=np.int64)
    except (ValueError, TypeError, OverflowError):
        arr = np.zeros(0, dtype=object)
    if arr.ndim != 2 or arr.shape[1] != 2 or arr.dtype.kind not in "biuf":
        return "'vertices' must be a list of [x, y] number pairs"
    if len(arr) < minimum:
        return f"polygon has {len(arr)} vertices (at least {minimum} needed)"
    pts = arr.astype(np.float64)
    problem = array_problem(pts)  # finite, within ±1e9: the rule of every reader
    if problem is not None:
        return f"'vertices': {problem}"
    return pts, arr.dtype.kind != "f"


@dataclass
class _Side:
    """One annotation of one file as it is parsed: words, groups and problems."""

    source: str
    sid: str
    gt: bool
    words: list[Instance] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)
    lines: list[Group] = field(default_factory=list)
    paragraphs: list[Group] = field(default_factory=list)
    errors: list[Problem] = field(default_factory=list)
    level_problems: dict[str, list[Problem]] = field(
        default_factory=lambda: {LINE: [], PARAGRAPH: []}
    )

    def error(self, path: str, msg: str, level: str | None = None) -> None:
        p = Problem(Severity.ERROR, self.source, None, f"{path}: {msg}", self.sid)
        (self.errors if level is None else self.level_problems[level]).append(p)

    def items(self, obj: Any, key: str, path: str) -> list[tuple[str, Any]]:
        """The children ``obj[key]`` with their paths (an error when it is not a list)."""
        value = obj.get(key) if isinstance(obj, dict) else None
        if not isinstance(obj, dict):
            self.error(path, "is not a JSON object")
            return []
        if not isinstance(value, list):
            self.error(path, f"has no '{key}' list")
            return []
        return [(f"{path}.{key}[{k}]", v) for k, v in enumerate(value)]

    def word(self, obj: Any, path: str) -> None:
        if not isinstance(obj, dict):
            self.error(path, "is not a JSON object")
            return
        got = _vertices(obj.get("vertices"), 3)
        if isinstance(got, str):
            self.error(path, f"word {got}")
            return
        if "text" not in obj:
            self.error(path, "word has no 'text' (the official parser requires it)")
        if self.gt and "legible" not in obj:
            self.error(path, "GT word has no 'legible' flag")
        pts, integer = got
        text = obj.get("text")
        self.words.append(
            Instance(
                points=pts,
                box_type=BoxType.QUAD if len(pts) == 4 else BoxType.POLY,
                text=text if isinstance(text, str) or text is None else str(text),
                dont_care=self.gt and not obj.get("legible", True),
                line=len(self.words) + 1,
                integer=integer,
                attrs={k: obj[k] for k in _ATTRS if k in obj} or None,
            )
        )
        self.paths.append(path)

    def own_vertices(self, obj: dict[str, Any], path: str, level: str, used: bool) -> Any:
        """A GT line's / paragraph's own vertices; problems of ``level`` when they are used."""
        got = _vertices(obj.get("vertices"), 1)
        if isinstance(got, str):
            if used:
                self.error(path, f"{level} {got} (needed: {self._why(level)})", level)
            return None
        if used and not got[1]:
            self.error(path, f"{level} vertices must be integers (OpenCV fillPoly)", level)
        return got[0]

    @staticmethod
    def _why(level: str) -> str:
        return "it has no words" if level == LINE else "it is illegible or has no words"

    def flag(self, obj: dict[str, Any], path: str, key: str, level: str) -> None:
        if key not in obj:
            what = "predicted" if not self.gt else "GT"
            self.error(path, f"{what} {level} has no '{key}' (needed for the {level} level)", level)

    def line(self, obj: Any, path: str) -> tuple[int, ...]:
        first = len(self.words)
        for wpath, w in self.items(obj, "words", path):
            self.word(w, wpath)
        words = tuple(range(first, len(self.words)))
        if not isinstance(obj, dict):
            return words
        self.flag(obj, path, "text", LINE)
        if self.gt:
            self.flag(obj, path, "legible", LINE)
            points = self.own_vertices(obj, path, LINE, used=not words)
            self.lines.append(Group(words, points, not obj.get("legible", True), path))
        else:
            if not words:
                self.error(path, "predicted line has no words", LINE)
            self.lines.append(Group(words, path=path))
        return words

    def paragraph(self, obj: Any, path: str) -> None:
        words = tuple(
            w for lpath, ln in self.items(obj, "lines", path) for w in self.line(ln, lpath)
        )
        if not isinstance(obj, dict):
            return
        if self.gt:
            self.flag(obj, path, "legible", PARAGRAPH)
            illegible = not obj.get("legible", True)
            points = self.own_vertices(obj, path, PARAGRAPH, used=illegible or not words)
            self.paragraphs.append(Group(words, points, illegible, path))
        else:
            if not words:
                self.error(path, "predicted paragraph has no words", PARAGRAPH)
            self.paragraphs.append(Group(words, path=path))

    def parse(self, entry: dict[str, Any], path: str) -> _Side:
        for ppath, par in self.items(entry, "paragraphs", path):
            self.paragraph(par, ppath)
        return self


def _size(
    entry: dict[str, Any], path: str, source: str, sid: str
) -> tuple[int, int, list[Problem]]:
    w, h = entry.get("image_width"), entry.get("image_height")
    ok = all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in (w, h))
    if ok:
        return int(w), int(h), []  # type: ignore[arg-type]
    msg = f"{path}: image_width and image_height must be non-negative integers"
    return 0, 0, [Problem(Severity.ERROR, source, None, msg, sid)]


def _image_id(entry: Any) -> str | int | None:
    """The ``image_id`` of an annotation when it is a string or an integer."""
    iid = entry.get("image_id") if isinstance(entry, dict) else None
    return iid if isinstance(iid, str | int) and not isinstance(iid, bool) else None


def _index(
    entries: list[Any], source: str, problems: list[Problem], *, gt: bool
) -> dict[Hashable, int]:
    """Position of each annotation by ``image_id``. A repeated prediction id: the last one
    wins (a warning); a repeated GT id is an error (the official loader fails on it)."""
    out: dict[Hashable, int] = {}
    for k, e in enumerate(entries):
        iid = _image_id(e)
        if iid is None:
            problems.append(
                Problem(Severity.ERROR, source, None, f"annotations[{k}]: no string 'image_id'")
            )
            continue
        if iid in out:
            consequence = (
                "the official loader fails on the first one"
                if gt
                else "the last one is used, as the official loader does"
            )
            problems.append(
                Problem(
                    Severity.ERROR if gt else Severity.WARNING,
                    source,
                    None,
                    f"annotations[{k}]: image_id {iid!r} repeated (also "
                    f"annotations[{out[iid]}]); {consequence}",
                    str(iid),
                )
            )
        out[iid] = k
    return out


def _level(gt: _Side, det: _Side | None, name: str) -> Level:
    groups = gt.lines if name == LINE else gt.paragraphs
    dgroups = () if det is None else tuple(det.lines if name == LINE else det.paragraphs)
    found = gt.level_problems[name] + ([] if det is None else det.level_problems[name])
    return Level(tuple(groups), dgroups, tuple(found))


def _sample(gt: _Side, det: _Side | None, size: tuple[int, int], det_source: str | None) -> Sample:
    levels = {name: _level(gt, det, name) for name in (LINE, PARAGRAPH)}
    return Sample(
        id=gt.sid,
        gt=tuple(gt.words),
        det=() if det is None else tuple(det.words),
        gt_source=gt.source,
        det_source=det_source,
        hierarchy=Hierarchy(
            size[0],
            size[1],
            levels,
            tuple(gt.paths),
            () if det is None else tuple(det.paths),
        ),
    )


def _geometry_warnings(samples: list[Sample]) -> list[Problem]:
    """Self-intersecting words (repaired with make_valid) and words of area < 1e-5 (they
    intersect nothing at the word level; the official code logs an error)."""
    items = [
        (s, src, paths[k], inst)
        for s in samples
        if s.hierarchy is not None
        for src, insts, paths in (
            (s.gt_source, s.gt, s.hierarchy.gt_paths),
            (s.det_source, s.det, s.hierarchy.det_paths),
        )
        for k, inst in enumerate(insts)
    ]
    if not items:
        return []
    geoms, invalid = polygons([inst.points for *_, inst in items])
    tiny = shapely.area(geoms) < 1e-5
    out = []
    for k in np.flatnonzero(invalid | tiny):
        s, src, path, inst = items[k]
        what = (
            f"word polygon is self-intersecting "
            f"({shapely.is_valid_reason(shapely.Polygon(inst.points))}); evaluated as "
            "make_valid repairs it"
            if invalid[k]
            else "word polygon has zero area; it intersects nothing at the word level"
        )
        out.append(Problem(Severity.WARNING, src or s.id, None, f"{path}: {what}", s.id))
    return out


def load_hiertext(gt: PathLike, det: PathLike | None = None, *, name: str = "") -> Dataset:
    """Read HierText GT (and predictions) JSON; problems are returned in the Dataset.

    The cyclic garbage collector is paused while the many small objects are built (it would
    double the reading time); it is restored afterwards.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return _load_hiertext(gt, det, name)
    finally:
        if was_enabled:
            gc.enable()


def _load_hiertext(gt: PathLike, det: PathLike | None, name: str) -> Dataset:
    gsrc, dsrc = str(gt), None if det is None else str(det)
    problems: list[Problem] = []
    gt_entries = _load(gt)
    gt_index = _index(gt_entries, gsrc, problems, gt=True)
    det_entries = _load(det) if det is not None else []
    det_index = _index(det_entries, str(dsrc), problems, gt=False) if det is not None else {}
    for iid, k in det_index.items():
        if iid not in gt_index:
            msg = f"annotations[{k}]: image_id {iid!r} is not in the GT (the official loader fails)"
            problems.append(Problem(Severity.ERROR, str(dsrc), None, msg))
    samples = []
    for k, entry in enumerate(gt_entries):
        iid = _image_id(entry)
        if iid is None or gt_index.get(iid) != k:
            continue
        sid, path = str(iid), f"annotations[{k}]"
        w, h, bad = _size(entry, path, gsrc, sid)
        problems.extend(bad)
        g = _Side(gsrc, sid, True).parse(entry, path)
        d = None
        if det is not None:
            j = det_index.get(iid)
            if j is None:
                msg = (
                    f"{path}: image_id {iid!r} has no prediction entry (the official loader fails)"
                )
                problems.append(Problem(Severity.ERROR, gsrc, None, msg, sid))
            else:
                d = _Side(str(dsrc), sid, False).parse(det_entries[j], f"annotations[{j}]")
        problems.extend(g.errors + ([] if d is None else d.errors))
        samples.append(_sample(g, d, (w, h), dsrc))
    problems.extend(_geometry_warnings(samples))
    return Dataset(tuple(samples), tuple(problems), gt_path=gsrc, det_path=dsrc, name=name)
