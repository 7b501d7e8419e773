"""HierText JSON as words, for a GT or detection file paired with another format.

A HierText GT with HierText predictions (or none) is read by ``metrics.io.formats.hiertext``
with its lines and paragraphs; paired with another format only the words are kept (the level
metrics need both sides in HierText). The words are parsed by the same code, so the same
rules and located problems apply; illegible words are don't-care.

``--gt-format hiertext_line`` / ``hiertext_paragraph`` read a HierText GT at that level
instead: each line (paragraph) with its own vertices, text (lines) and legibility, e.g. to
evaluate a line detector with any metric. Predictions have no line or paragraph vertices.
"""

from __future__ import annotations

from typing import Any

from metrics.core.model import Instance
from metrics.io.archive import Member
from metrics.io.formats.base import (
    Entry,
    Format,
    Report,
    Role,
    geometry,
    instance,
    json_entries,
    json_or_none,
)
from metrics.io.formats.hiertext import _Side


def _annotations(data: Any) -> list[Any] | None:
    ann = data.get("annotations") if isinstance(data, dict) else None
    if not isinstance(ann, list):
        return None
    first = ann[0] if ann else {}
    return ann if isinstance(first, dict) and ("paragraphs" in first or not ann) else None


def sniff(member: Member, role: Role) -> float | None:
    del role
    return 1.0 if _annotations(json_or_none(member)) is not None else 0.0


def read(member: Member, role: Role, report: Report) -> list[Entry]:
    ann = _annotations(json_entries(member, report))
    if ann is None:
        return []
    out = []
    for k, entry in enumerate(ann):
        iid = entry.get("image_id") if isinstance(entry, dict) else None
        if not isinstance(iid, str | int) or isinstance(iid, bool):
            report.error(f"annotations[{k}]", "no string 'image_id'")
            continue
        side = _Side(member.label, str(iid), role == "gt").parse(entry, f"annotations[{k}]")
        report.problems.extend(side.errors)
        out.append(Entry(str(iid), tuple(side.words), member.label))
    return out


HIERTEXT = Format(
    "hiertext",
    "HierText JSON (paragraphs > lines > words)",
    ("gt", "det"),
    sniff,
    read,
    detected_by="JSON object whose 'annotations' hold 'paragraphs'",
    dont_care="legible false",
    attributes="legible, vertical, handwritten",
)


def _groups(entry: Any, path: str, level: str) -> list[tuple[str, Any]]:
    paragraphs = entry.get("paragraphs") if isinstance(entry, dict) else None
    out = []
    for p, par in enumerate(paragraphs if isinstance(paragraphs, list) else []):
        ppath = f"{path}.paragraphs[{p}]"
        if level == "paragraph":
            out.append((ppath, par))
            continue
        lines = par.get("lines") if isinstance(par, dict) else None
        out.extend(
            (f"{ppath}.lines[{k}]", ln)
            for k, ln in enumerate(lines if isinstance(lines, list) else [])
        )
    return out


def _group(obj: Any, path: str, k: int, report: Report, sid: str) -> Instance | None:
    if not isinstance(obj, dict):
        report.error(path, "is not a JSON object", sid)
        return None
    got = geometry(obj, ("vertices",), path, report, sid)
    if got is None:
        return None
    text = obj.get("text")
    attrs = {key: obj[key] for key in ("legible", "handwritten", "vertical") if key in obj}
    return instance(
        got[0],
        got[1],
        line=k + 1,
        text=text if isinstance(text, str) else None,
        dont_care=not obj.get("legible", True),
        attrs=attrs,
    )


def _read_level(member: Member, role: Role, report: Report, level: str) -> list[Entry]:
    ann = _annotations(json_entries(member, report))
    if ann is None:
        return []
    out = []
    for k, entry in enumerate(ann):
        iid = entry.get("image_id") if isinstance(entry, dict) else None
        if not isinstance(iid, str | int) or isinstance(iid, bool):
            report.error(f"annotations[{k}]", "no string 'image_id'")
            continue
        sid = str(iid)
        groups = _groups(entry, f"annotations[{k}]", level)
        insts = [_group(g, p, j, report, sid) for j, (p, g) in enumerate(groups)]
        out.append(Entry(sid, tuple(i for i in insts if i is not None), member.label))
    return out


def _level_format(level: str) -> Format:
    return Format(
        f"hiertext_{level}",
        f"HierText JSON GT read at the {level} level (forced only)",
        ("gt",),
        lambda m, r: 0.0,  # never detected: the words are the default
        lambda m, r, rep: _read_level(m, r, rep, level),
        detected_by=f"forced: --gt-format hiertext_{level}",
        dont_care="legible false",
        attributes="legible, vertical, handwritten",
    )


HIERTEXT_LINE = _level_format("line")
HIERTEXT_PARAGRAPH = _level_format("paragraph")
