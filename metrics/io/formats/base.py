"""What every format reader shares: the entries it produces, located problems, JSON helpers.

A reader turns the files of one side (GT or detections) into ``Entry`` records, one per
image: the sample id (from the format's own image name when it has one, else from the file
name), the instances in file order, where they came from and the image name. Problems never
stop the reading: each is located by file and 1-based line or by JSON path
(``gt.json: error: data_list[3].instances[1].polygon: ...``) and the bad item is left out.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Literal

import numpy as np

from metrics.core.jsonvalue import JSONValue
from metrics.core.model import BoxType, FloatArray, Instance, Problem, Severity
from metrics.core.records import dataclass, field
from metrics.io import numbers as nums
from metrics.io.archive import BOM, Member
from metrics.io.jsonload import JsonError, loads
from metrics.io.pairing import gt_id, stem

Role = Literal["gt", "det"]
DONT_CARE = "###"


@dataclass(frozen=True, slots=True)
class Entry:
    """One image of one side: its instances in file order."""

    sid: str
    instances: tuple[Instance, ...]
    source: str
    image: str | None = None


@dataclass
class Report:
    """Problems of one file, each located by line or JSON path."""

    source: str
    problems: list[Problem] = field(default_factory=list)

    def error(self, where: str | int | None, msg: str, sid: str | None = None) -> None:
        self._add(Severity.ERROR, where, msg, sid)

    def warning(self, where: str | int | None, msg: str, sid: str | None = None) -> None:
        self._add(Severity.WARNING, where, msg, sid)

    def _add(self, sev: Severity, where: str | int | None, msg: str, sid: str | None) -> None:
        if isinstance(where, int):
            self.problems.append(Problem(sev, self.source, where, msg, sid))
        else:
            text = f"{where}: {msg}" if where else msg
            self.problems.append(Problem(sev, self.source, None, text, sid))


@dataclass(frozen=True, slots=True)
class Format:
    """One file format: how to recognise a file of it, and how to read it.

    ``sniff(member, role)`` returns a confidence in [0, 1] (0: not this format) or None
    when the file says nothing (empty); ``read(member, role, report)`` the entries.
    """

    name: str
    title: str
    roles: tuple[Role, ...]
    sniff: Callable[[Member, Role], float | None]
    read: Callable[[Member, Role, Report], list[Entry]]
    detected_by: str = ""
    dont_care: str = ""
    attributes: str = ""


def text_of(member: Member) -> str:
    """UTF-8 text of a member (BOM removed, undecodable bytes replaced)."""
    return member.data.removeprefix(BOM).decode("utf-8", errors="replace")


def head(member: Member, size: int = 4096) -> bytes:
    return member.data[: size + len(BOM)].removeprefix(BOM).lstrip()


def is_empty(member: Member) -> bool:
    data = member.data.removeprefix(BOM)
    return not data or data.isspace()


_JSON_CACHE: dict[tuple[str, int], tuple[bytes, JSONValue]] = {}


def forget_parsed() -> None:
    """Drop the parsed JSON kept between detection and reading (call when a load ends)."""
    _JSON_CACHE.clear()


def load_json(member: Member) -> JSONValue:
    """The parsed JSON of a file, or JsonError saying where. A file is parsed once while a
    dataset is loaded (detection, then reading; the same file as GT and detections)."""
    key = (member.label, len(member.data))
    hit = _JSON_CACHE.get(key)
    if hit is not None and hit[0] == member.data:
        return hit[1]
    value = loads(text_of(member), member.data)  # bounded depth, located errors
    if len(_JSON_CACHE) > 64:
        _JSON_CACHE.clear()
    _JSON_CACHE[key] = (member.data, value)
    return value


def looks_json(member: Member) -> bool:
    """Whether a file starts as JSON (``{`` or ``[``, after a BOM and blanks)."""
    return head(member, 8).startswith((b"{", b"["))


def json_or_none(member: Member) -> JSONValue:
    """The parsed JSON when the member looks like JSON and parses, else None."""
    if not looks_json(member):
        return None
    try:
        return load_json(member)
    except ValueError:
        return None


def json_entries(member: Member, report: Report) -> JSONValue:
    """Parsed JSON for a reader; a located error and None when it does not parse."""
    try:
        return load_json(member)
    except JsonError as exc:
        report.error(exc.line, str(exc))
        return None


_number = nums.is_number


def points(value: object, *, minimum: int = 3) -> tuple[FloatArray, bool] | str:
    """(points, all integral) from ``[[x, y], ...]`` or a flat ``[x1, y1, ...]`` list, or what is
    wrong with it. JSON numbers such as ``12.0`` count as integral (the value is exact)."""
    if not isinstance(value, list | tuple):
        return "is not a list of coordinates" if value is not None else "is missing"
    if value and all(isinstance(p, list | tuple) for p in value):
        if not all(len(p) == 2 and _number(p[0]) and _number(p[1]) for p in value):
            return "must be a list of [x, y] number pairs"
        flat = [c for p in value for c in p]
    else:
        if not all(_number(v) for v in value):
            return "must hold numbers only"
        if len(value) % 2:
            return f"has an odd number of coordinates ({len(value)})"
        flat = list(value)
    if len(flat) < 2 * minimum:
        return f"has {len(flat) // 2} points (at least {minimum} needed)"
    checked = nums.coordinates(flat)  # finite, within ±1e9 (huge integers too)
    if isinstance(checked, str):
        return checked
    arr = np.array(checked, dtype=np.float64).reshape(-1, 2)
    return arr, bool(np.all(arr == np.round(arr)))


def instance(
    pts: FloatArray,
    integer: bool,
    *,
    line: int,
    text: str | None = None,
    confidence: float | None = None,
    dont_care: bool = False,
    attrs: Mapping[str, JSONValue] | None = None,
    box_type: BoxType | None = None,
) -> Instance:
    """An instance from a point array (QUAD for 4 points, POLY otherwise)."""
    kind = box_type or (BoxType.QUAD if len(pts) == 4 else BoxType.POLY)
    kept = {k: v for k, v in (attrs or {}).items() if v is not None}
    return Instance(
        points=pts,
        box_type=kind,
        text=text,
        confidence=confidence,
        dont_care=dont_care,
        line=line,
        integer=integer,
        attrs=kept or None,
    )


def sample_id(name: str, role: Role) -> str:
    """Sample id of a per-image file (``gt_img_1.txt`` -> ``img_1``; detections keep their stem,
    the pairing strips ``res_``)."""
    return gt_id(name) if role == "gt" else stem(name)


def image_id(path: str) -> str:
    """Sample id from an image path of a format (``imgs/test/img_1.jpg`` -> ``img_1``)."""
    return stem(path.replace("\\", "/"))


def confidence(value: object) -> float | str | None:
    """None, a confidence (a finite number in [0, 1]) or why the value is none."""
    return None if value is None else nums.confidence(value)


def keys_of(value: object, limit: int = 6) -> str:
    """A short description of a JSON value for "found ..." messages."""
    if isinstance(value, dict):
        keys = list(value)[:limit]
        more = ", ..." if len(value) > limit else ""
        return f"an object with keys {', '.join(map(repr, keys))}{more}"
    if isinstance(value, list):
        return f"a list of {len(value)} item(s)"
    return f"a {type(value).__name__}"


def extras(obj: Mapping[str, JSONValue], known: frozenset[str]) -> dict[str, JSONValue]:
    """The scalar fields of a JSON object that the reader does not interpret (kept as attrs)."""
    return {
        k: v
        for k, v in obj.items()
        if k not in known and (v is None or isinstance(v, str | int | float | bool))
    }


def geometry(
    obj: Mapping[str, JSONValue],
    keys: tuple[str, ...],
    path: str,
    report: Report,
    sid: str,
    minimum: int = 3,
) -> tuple[FloatArray, bool, str] | None:
    """(points, integral, key) of the first of ``keys`` present in ``obj``; a located error
    (and None) when none is present or the value is not a polygon."""
    for key in keys:
        if key in obj:
            got = points(obj[key], minimum=minimum)
            if isinstance(got, str):
                report.error(f"{path}.{key}", got, sid)
                return None
            return got[0], got[1], key
    report.error(path, f"has no {' or '.join(map(repr, keys))}", sid)
    return None


def numbers(value: object, n: int) -> list[float] | None:
    """``value`` as ``n`` coordinates (finite, within ±1e9), or None."""
    if not isinstance(value, list | tuple) or len(value) != n:
        return None
    got = nums.coordinates(value)
    return None if isinstance(got, str) else got


def unexpected(report: Report, data: object, expected: str) -> None:
    """Report a file whose top level is not what its (forced) format holds (its reader
    then gives no entries)."""
    if data is not None:
        report.error(None, f"expected {expected}, found {keys_of(data)}")
