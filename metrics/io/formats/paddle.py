"""PaddleOCR: label files (GT and ``infer_det`` / ``predict_det`` results) and 3.x ``*_res.json``.

- Label file: one image per line, ``image path<TAB>[{"transcription": ..., "points": [[x, y],
  ...], "difficult"?: ...}, ...]``; ``###`` or a true ``difficult`` is don't-care. The same
  layout is what ``tools/infer_det.py`` writes (transcription empty: no text) and, with bare
  polygons ``[[[x, y], ...], ...]``, what ``tools/infer/predict_det.py`` writes; a ``score``
  is the detection's confidence.
- 3.x ``TextDetection`` / OCR results (``save_to_json``): ``{"input_path", "dt_polys",
  "dt_scores", ...}`` (possibly wrapped in ``{"res": ...}``), one file per image.
"""

from __future__ import annotations

from typing import Any

from metrics.core.model import Instance
from metrics.io.archive import Member, split_lines
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
    sample_id,
)
from metrics.io.formats.textsets import _first_lines
from metrics.io.jsonload import JsonError, loads

_KNOWN = frozenset({"transcription", "points", "difficult", "score"})


def _label_line(text: str) -> tuple[str, Any] | None:
    name, tab, rest = text.partition("\t")
    if not tab or not rest.lstrip().startswith("["):
        return None
    try:
        return name.strip(), loads(rest)  # bounded depth and digits
    except JsonError:
        return None


def sniff_label(member: Member, role: Role) -> float | None:
    del role
    lines = _first_lines(member, 1)
    if not lines:
        return None
    got = _label_line(lines[0])
    return 1.0 if got is not None and isinstance(got[1], list) else 0.0


def _box(obj: Any, path: str, k: int, role: Role, report: Report, sid: str) -> Instance | None:
    if isinstance(obj, list):
        obj = {"points": obj}
    if not isinstance(obj, dict):
        report.error(path, "is neither an object nor a polygon", sid)
        return None
    got = geometry(obj, ("points",), path, report, sid)
    if got is None:
        return None
    text = obj.get("transcription")
    text = None if text is None or (role == "det" and text == "") else str(text)
    score = confidence(obj.get("score"))
    if isinstance(score, str):
        report.error(f"{path}.score", score, sid)
        return None
    difficult = obj.get("difficult")
    dont_care = role == "gt" and (text == DONT_CARE or bool(difficult))
    attrs = extras(obj, _KNOWN)
    if difficult is not None:
        attrs["difficult"] = difficult
    return instance(
        got[0], got[1], line=k + 1, text=text, confidence=score, dont_care=dont_care, attrs=attrs
    )


def read_label(member: Member, role: Role, report: Report) -> list[Entry]:
    out = []
    for ln in split_lines(member, report.problems):
        got = _label_line(ln.text)
        if got is None or not isinstance(got[1], list):
            report.error(ln.number, "expected 'image path<TAB>[JSON list of boxes]'")
            continue
        name, boxes = got
        sid = image_id(name)
        insts = []
        for k, obj in enumerate(boxes):
            inst = _box(obj, f"line {ln.number}: [{k}]", k, role, report, sid)
            if inst is not None:
                insts.append(inst)
        out.append(Entry(sid, tuple(insts), f"{member.label}:{ln.number}", name))
    return out


def _res(data: Any) -> Any:
    if isinstance(data, dict) and isinstance(data.get("res"), dict):
        data = data["res"]
    return data if isinstance(data, dict) and "dt_polys" in data else None


def sniff_res(member: Member, role: Role) -> float | None:
    data = json_or_none(member)
    return 1.0 if role == "det" and _res(data) is not None else 0.0


def read_res(member: Member, role: Role, report: Report) -> list[Entry]:
    data = _res(json_entries(member, report))
    if data is None:
        return []
    path = data.get("input_path")
    name = path if isinstance(path, str) and path else None
    sid = image_id(name) if name else sample_id(member.name, role).removesuffix("_res")
    polys, scores = data.get("dt_polys"), data.get("dt_scores")
    if not isinstance(polys, list):
        report.error("dt_polys", "is not a list", sid)
        return []
    if scores is not None and (not isinstance(scores, list) or len(scores) != len(polys)):
        report.error("dt_scores", "must be a list as long as dt_polys", sid)
        scores = None
    insts = []
    for k, poly in enumerate(polys):
        got = geometry({"p": poly}, ("p",), f"dt_polys[{k}]", report, sid)
        score = None if scores is None else confidence(scores[k])
        if isinstance(score, str):
            report.error(f"dt_scores[{k}]", score, sid)
        elif got is not None:
            insts.append(instance(got[0], got[1], line=k + 1, confidence=score))
    return [Entry(sid, tuple(insts), member.label, name)]


LABEL = Format(
    "paddle",
    "PaddleOCR label file (image<TAB>JSON boxes; also infer_det / predict_det results)",
    ("gt", "det"),
    sniff_label,
    read_label,
    detected_by="first line 'name<TAB>[...]'",
    dont_care="transcription ### or difficult true",
    attributes="difficult, score and any other scalar field",
)
RES = Format(
    "paddle_res",
    "PaddleOCR 3.x *_res.json (dt_polys, dt_scores)",
    ("det",),
    sniff_res,
    read_res,
    detected_by="JSON object with 'dt_polys'",
    dont_care="-",
    attributes="confidence (dt_scores)",
)
