"""COCO-Text v2 and TextOCR GT JSON; ArT / LSVT and ReCTS JSON.

- COCO-Text v2 / TextOCR: ``{"imgs": {id: {"file_name", "width", "height", "set"}}, "anns":
  {id: {"image_id", "bbox": [x, y, w, h], "points" (TextOCR) or "mask" (COCO-Text):
  [x1, y1, ...], "utf8_string", "legibility"?, "language"?, "class"?}}, "imgToAnns" (COCO-Text)
  or "img2Anns" (TextOCR): {id: [ann ids]}}``. Don't-care: ``legibility`` ``illegible``
  (COCO-Text) or the text ``.`` (TextOCR's mark for illegible words). Every image of
  ``imgs`` is a sample, with or without words.
- ArT / LSVT: ``{"gt_1": [{"points": [[x, y], ...], "transcription", "language"?,
  "illegibility"}, ...]}``; illegible (or ``###``) is don't-care. Submissions use the same
  layout (``res_1``) with ``confidence``.
- ReCTS, one file per image: ``{"chars": [...], "lines": [{"points": [x1, y1, ... y4],
  "transcription", "ignore"}]}``: the lines are the detection targets; ``ignore`` 1 is
  don't-care.
"""

from __future__ import annotations

from typing import Any

from metrics.core.model import BoxType, Instance, ltrb_points
from metrics.io.archive import Member
from metrics.io.formats.base import (
    DONT_CARE,
    Entry,
    Format,
    Report,
    Role,
    confidence,
    extras,
    geometry,
    image_id,
    instance,
    json_entries,
    json_or_none,
    numbers,
    sample_id,
    unexpected,
)

_TOP = ("imgs", "anns")
_COCO_KNOWN = frozenset({"id", "image_id", "bbox", "points", "mask", "utf8_string", "area"})
_ART_KNOWN = frozenset({"points", "transcription", "illegibility", "confidence"})


def sniff_coco(member: Member, role: Role) -> float | None:
    data = json_or_none(member)
    if not isinstance(data, dict):
        return 0.0
    ok = isinstance(data.get("imgs"), dict) and isinstance(data.get("anns"), dict)
    return 1.0 if role == "gt" and ok else 0.0


def _coco_box(ann: Any, path: str, k: int, report: Report, sid: str) -> Instance | None:
    if not isinstance(ann, dict):
        report.error(path, "is not an annotation object", sid)
        return None
    text = ann.get("utf8_string")
    attrs = extras(ann, _COCO_KNOWN)
    dont_care = attrs.get("legibility") == "illegible" or text == "."
    poly = ann.get("points") or ann.get("mask")
    if poly:
        got = geometry({"points": poly}, ("points",), path, report, sid)
        if got is None:
            return None
        return instance(got[0], got[1], line=k + 1, text=text, dont_care=dont_care, attrs=attrs)
    box = numbers(ann.get("bbox"), 4)
    if box is None:
        report.error(path, "has no polygon ('points' / 'mask') and no [x, y, w, h] 'bbox'", sid)
        return None
    x, y, w, h = box
    if w < 0 or h < 0:
        report.error(f"{path}.bbox", "negative width or height", sid)
        return None
    pts = ltrb_points(x, y, x + w, y + h)
    integer = all(float(v).is_integer() for v in box)
    return instance(
        pts, integer, line=k + 1, text=text, dont_care=dont_care, attrs=attrs, box_type=BoxType.LTRB
    )


def read_coco(member: Member, role: Role, report: Report) -> list[Entry]:
    data = json_entries(member, report)
    if not isinstance(data, dict) or not all(isinstance(data.get(k), dict) for k in _TOP):
        unexpected(report, data, "a JSON object with 'imgs' and 'anns' objects")
        return []
    imgs, anns = data["imgs"], data["anns"]
    index = data.get("imgToAnns", data.get("img2Anns"))
    if not isinstance(index, dict):
        index = {}
        for aid, ann in anns.items():
            if isinstance(ann, dict):
                index.setdefault(str(ann.get("image_id")), []).append(aid)
    out = []
    for iid, img in imgs.items():
        name = img.get("file_name", img.get("filename")) if isinstance(img, dict) else None
        sid = image_id(name) if isinstance(name, str) else str(iid)
        insts = []
        for k, aid in enumerate(index.get(str(iid), [])):
            ann = anns.get(str(aid))
            path = f"anns[{str(aid)!r}]"
            if ann is None:
                report.error(f"imgToAnns[{iid!r}][{k}]", f"annotation {aid!r} is not in anns", sid)
                continue
            inst = _coco_box(ann, path, k, report, sid)
            if inst is not None:
                insts.append(inst)
        out.append(Entry(sid, tuple(insts), f"{member.label}:imgs[{str(iid)!r}]", name))
    return out


def _art_lists(data: Any) -> bool:
    if not isinstance(data, dict) or not data or "imgs" in data or "annotations" in data:
        return False
    if not all(isinstance(v, list) for v in data.values()):
        return False
    first = next((v[0] for v in data.values() if v), None)
    return isinstance(first, dict) and "points" in first


def sniff_art(member: Member, role: Role) -> float | None:
    del role
    return 0.9 if _art_lists(json_or_none(member)) else 0.0


def _art_box(obj: Any, path: str, k: int, role: Role, report: Report, sid: str) -> Instance | None:
    if not isinstance(obj, dict):
        report.error(path, "is not an object", sid)
        return None
    got = geometry(obj, ("points",), path, report, sid)
    if got is None:
        return None
    text = obj.get("transcription")
    score = confidence(obj.get("confidence"))
    if isinstance(score, str):
        report.error(f"{path}.confidence", score, sid)
        return None
    illegible = obj.get("illegibility", False) or obj.get("ignore", False)
    attrs = extras(obj, _ART_KNOWN)
    if "illegibility" in obj:
        attrs["illegibility"] = bool(obj["illegibility"])
    dont_care = role == "gt" and (bool(illegible) or text == DONT_CARE)
    return instance(
        got[0], got[1], line=k + 1, text=text, confidence=score, dont_care=dont_care, attrs=attrs
    )


def read_art(member: Member, role: Role, report: Report) -> list[Entry]:
    data = json_entries(member, report)
    if not isinstance(data, dict):
        unexpected(report, data, "a JSON object of image keys to lists of boxes")
        return []
    out = []
    for key, boxes in data.items():
        sid = sample_id(str(key), role)
        if not isinstance(boxes, list):
            report.error(f"[{key!r}]", "is not a list of boxes", sid)
            continue
        insts = [_art_box(o, f"[{key!r}][{k}]", k, role, report, sid) for k, o in enumerate(boxes)]
        out.append(
            Entry(sid, tuple(i for i in insts if i is not None), f"{member.label}:[{key!r}]")
        )
    return out


def sniff_rects(member: Member, role: Role) -> float | None:
    data = json_or_none(member)
    ok = isinstance(data, dict) and isinstance(data.get("lines"), list) and "chars" in data
    return 1.0 if role == "gt" and ok else 0.0


def read_rects(member: Member, role: Role, report: Report) -> list[Entry]:
    data = json_entries(member, report)
    if not isinstance(data, dict) or not isinstance(data.get("lines"), list):
        unexpected(report, data, "a JSON object with a 'lines' list")
        return []
    sid = sample_id(member.name, role)
    lines = data["lines"]
    insts = [_art_box(o, f"lines[{k}]", k, role, report, sid) for k, o in enumerate(lines)]
    return [Entry(sid, tuple(i for i in insts if i is not None), member.label)]


COCO = Format(
    "cocotext",
    "COCO-Text v2 / TextOCR JSON",
    ("gt",),
    sniff_coco,
    read_coco,
    detected_by="JSON object with 'imgs' and 'anns' objects",
    dont_care="legibility illegible (COCO-Text), text '.' (TextOCR)",
    attributes="legibility, language, class",
)
ART = Format(
    "art",
    "ArT / LSVT JSON (image key -> boxes)",
    ("gt", "det"),
    sniff_art,
    read_art,
    detected_by="JSON object of lists of objects with 'points'",
    dont_care="illegibility true or ###",
    attributes="language, illegibility, confidence",
)
RECTS = Format(
    "rects",
    "ReCTS JSON (one per image; text lines)",
    ("gt",),
    sniff_rects,
    read_rects,
    detected_by="JSON object with 'lines' and 'chars'",
    dont_care="ignore 1",
    attributes="ignore",
)
