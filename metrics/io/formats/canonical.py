"""detlens JSON: the canonical form ``detlens convert --to json`` writes; GT, detections or both.

``{"format": "detlens", "version": 1, "samples": [{"id", "image", "gt": [box, ...],
"det": [box, ...] or null}]}`` with ``box = {"points": [[x, y], ...], "box_type": "LTRB" |
"QUAD" | "POLY", "text"?, "confidence"?, "dont_care"?, "integer"?, "line"?, "attrs"?}``.
``det`` null means the sample had no detection file (not the same as an empty one for
metrics that treat a missing file apart). ``integer`` false marks coordinates written as
decimals in the source even when their values are whole; ``line`` is the box's line (or
position) in the source file.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from metrics.core.jsonvalue import JSONObject
from metrics.core.model import BoxType, Instance, Sample
from metrics.io.archive import Member
from metrics.io.formats.base import (
    Entry,
    Format,
    Report,
    Role,
    confidence,
    geometry,
    json_entries,
    json_or_none,
)

MARK = "detlens"


def sniff(member: Member, role: Role) -> float | None:
    del role
    data = json_or_none(member)
    return 1.0 if isinstance(data, dict) and data.get("format") == MARK else 0.0


def _box(obj: Any, path: str, k: int, report: Report, sid: str) -> Instance | None:
    if not isinstance(obj, dict):
        report.error(path, "is not a box object", sid)
        return None
    got = geometry(obj, ("points",), path, report, sid, minimum=1)
    if got is None:
        return None
    kind = _kind(obj.get("box_type"), len(got[0]))
    line = obj.get("line", k + 1)
    score = confidence(obj.get("confidence"))
    attrs = obj.get("attrs")
    if not isinstance(kind, BoxType) or isinstance(score, str):
        report.error(path, str(score) if isinstance(kind, BoxType) else kind, sid)
        return None
    if not isinstance(attrs, dict | None):
        report.error(path, "'attrs' must be an object", sid)
        return None
    if not isinstance(line, int) or isinstance(line, bool) or not 0 <= line < 2**31:
        report.error(f"{path}.line", "must be a whole number from 0 to 2**31", sid)
        return None
    text = obj.get("text")
    return Instance(
        points=got[0],
        box_type=kind,
        text=None if text is None else str(text),
        confidence=score,
        dont_care=bool(obj.get("dont_care", False)),
        line=line,
        integer=bool(obj.get("integer", got[1])) and got[1],
        attrs=attrs or None,
    )


def _kind(value: Any, n: int) -> BoxType | str:
    """The box type a box declares (or its default), or why it does not fit its points: LTRB
    and QUAD boxes are 4 points (an LTRB box stored as its corners)."""
    try:
        kind = BoxType(value or ("QUAD" if n == 4 else "POLY"))
    except (ValueError, TypeError):
        return "'box_type' must be LTRB, QUAD or POLY"
    if kind in (BoxType.LTRB, BoxType.QUAD) and n != 4:
        return f"'box_type' {kind.value} needs 4 points, found {n}"
    return kind


def read(member: Member, role: Role, report: Report) -> list[Entry]:
    data = json_entries(member, report)
    samples = data.get("samples") if isinstance(data, dict) else None
    if not isinstance(samples, list):
        report.error("samples", "must be a list")
        return []
    out = []
    for i, s in enumerate(samples):
        path = f"samples[{i}]"
        if not isinstance(s, dict) or not isinstance(s.get("id"), str):
            report.error(path, "needs a string 'id'")
            continue
        boxes = s.get(role)
        if boxes is None:
            continue
        if not isinstance(boxes, list):
            report.error(f"{path}.{role}", "must be a list", s["id"])
            continue
        insts = [_box(b, f"{path}.{role}[{k}]", k, report, s["id"]) for k, b in enumerate(boxes)]
        image = s.get("image") if isinstance(s.get("image"), str) else None
        kept = tuple(x for x in insts if x is not None)
        out.append(Entry(s["id"], kept, f"{member.label}:{path}.{role}", image))
    return out


def _num(v: float, integer: bool) -> int | float:
    return int(v) if integer and float(v).is_integer() else float(v)


def box_dict(inst: Instance) -> JSONObject:
    whole = inst.integer and all(float(v).is_integer() for v in inst.points.ravel())
    out: dict[str, Any] = {
        "points": [[_num(x, whole), _num(y, whole)] for x, y in inst.points.tolist()],
        "box_type": inst.box_type.value,
    }
    if inst.text is not None:
        out["text"] = inst.text
    if inst.confidence is not None:
        out["confidence"] = inst.confidence
    if inst.dont_care:
        out["dont_care"] = True
    if not inst.integer:
        out["integer"] = False
    out["line"] = inst.line
    if inst.attrs:
        out["attrs"] = dict(inst.attrs)
    return out


def document(samples: Iterable[Sample], *, gt: bool, det: bool) -> str:
    """The detlens JSON of ``samples`` (their GT, detections or both)."""
    items = []
    for s in samples:
        item: dict[str, Any] = {"id": s.id}
        if s.image is not None:
            item["image"] = s.image
        if gt:
            item["gt"] = [box_dict(g) for g in s.gt]
        if det:
            item["det"] = None if s.det_source is None else [box_dict(d) for d in s.det]
        items.append(item)
    data = {"format": MARK, "version": 1, "samples": items}
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


CANONICAL = Format(
    "json",
    "detlens JSON (what detlens convert --to json writes)",
    ("gt", "det"),
    sniff,
    read,
    detected_by="JSON object with format 'detlens'",
    dont_care="dont_care: true",
    attributes="all (attrs)",
)
