"""HierText JSON as words, for a GT or detection file paired with another format.

A HierText GT with HierText predictions (or none) is read by ``metrics.io.hiertext`` with its
lines and paragraphs; paired with another format only the words are kept (the level metrics
need both sides in HierText). The words are parsed by the same code, so the same rules and
located problems apply; illegible words are don't-care.
"""

from __future__ import annotations

from typing import Any

from metrics.io.archive import Member
from metrics.io.formats.base import Entry, Format, Report, Role, json_entries, json_or_none
from metrics.io.hiertext import _Side


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
