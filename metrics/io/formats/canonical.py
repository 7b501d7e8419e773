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
    try:
        kind = BoxType(obj.get("box_type") or ("QUAD" if len(got[0]) == 4 else "POLY"))
    except ValueError:
        report.error(f"{path}.box_type", "must be LTRB, QUAD or POLY", sid)
        return None
    score = confidence(obj.get("confidence"))
    attrs = obj.get("attrs")
    if isinstance(score, str) or not isinstance(attrs, dict | None):
        report.error(path, score if isinstance(score, str) else "'attrs' must be an object", sid)
        return None
    text = obj.get("text")
    return Instance(
        points=got[0],
        box_type=kind,
        text=None if text is None else str(text),
        confidence=score,
        dont_care=bool(obj.get("dont_care", False)),
        line=int(obj.get("line", k + 1)),
        integer=bool(obj.get("integer", got[1])) and got[1],
        attrs=attrs or None,
    )


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


def box_dict(inst: Instance) -> dict[str, Any]:
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
