"""docTR's exported document (``Document.export()`` / ``result.export()`` dumped as JSON).

``{"pages": [{"page_idx", "dimensions": [height, width], "language", "orientation",
"blocks": [{"geometry", "lines": [{"geometry", "words": [{"value", "confidence",
"geometry", ...}]}]}]}]}``. Geometry is relative to the page: ``[[xmin, ymin], [xmax,
ymax]]`` (straight boxes, read as LTRB) or four points (rotated pages); it is scaled by the
page's width and height. The words are the detections (their confidence and value kept).
One page: the sample is named after the file; several: ``<file>_p<k>``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from metrics.core.model import BoxType, Instance
from metrics.io.archive import Member
from metrics.io.formats.base import (
    Entry,
    Format,
    Report,
    Role,
    confidence,
    extras,
    instance,
    json_entries,
    json_or_none,
    numbers,
    points,
    sample_id,
)
from metrics.io.numbers import array_problem

_KNOWN = frozenset({"value", "confidence", "geometry"})


def _pages(data: Any) -> list[Any] | None:
    pages = data.get("pages") if isinstance(data, dict) else None
    if not isinstance(pages, list) or not pages or not isinstance(pages[0], dict):
        return None
    return pages if "blocks" in pages[0] and "dimensions" in pages[0] else None


def sniff(member: Member, role: Role) -> float | None:
    return 1.0 if role == "det" and _pages(json_or_none(member)) is not None else 0.0


def _word(
    w: Any, path: str, k: int, size: tuple[float, float], report: Report, sid: str
) -> Instance | None:
    if not isinstance(w, dict):
        report.error(path, "is not a word object", sid)
        return None
    got = points(w.get("geometry"), minimum=2)
    if isinstance(got, str) or len(got[0]) not in (2, 4):
        why = got if isinstance(got, str) else f"has {len(got[0])} points (2 or 4 expected)"
        report.error(f"{path}.geometry", why, sid)
        return None
    rel = got[0]
    h, w_ = size
    score = confidence(w.get("confidence"))
    if isinstance(score, str):
        report.error(f"{path}.confidence", score, sid)
        return None
    if len(rel) == 2:
        (x0, y0), (x1, y1) = rel
        pts = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]) * (w_, h)
        kind = BoxType.LTRB
    else:
        pts, kind = rel * (w_, h), BoxType.QUAD
    beyond = array_problem(pts)  # relative geometry times the page size: the same limit
    if beyond is not None:
        report.error(f"{path}.geometry", beyond, sid)
        return None
    value = w.get("value")
    return instance(
        np.asarray(pts, dtype=np.float64),
        bool(np.all(pts == np.round(pts))),
        line=k + 1,
        text=None if value is None else str(value),
        confidence=score,
        attrs=extras(w, _KNOWN),
        box_type=kind,
    )


def _page_words(page: Any, path: str, report: Report, sid: str) -> list[Instance]:
    dims = numbers(page.get("dimensions"), 2) if isinstance(page, dict) else None
    if dims is None or min(dims) <= 0:
        report.error(f"{path}.dimensions", "must be [height, width] in pixels", sid)
        return []
    size = (dims[0], dims[1])
    out: list[Instance] = []
    for b, block in enumerate(page.get("blocks", [])):
        for li, line in enumerate(block.get("lines", []) if isinstance(block, dict) else []):
            words = line.get("words", []) if isinstance(line, dict) else []
            for wi, w in enumerate(words):
                where = f"{path}.blocks[{b}].lines[{li}].words[{wi}]"
                inst = _word(w, where, len(out), size, report, sid)
                if inst is not None:
                    out.append(inst)
    return out


def read(member: Member, role: Role, report: Report) -> list[Entry]:
    pages = _pages(json_entries(member, report))
    if pages is None:
        return []
    base = sample_id(member.name, role)
    out = []
    for k, page in enumerate(pages):
        sid = base if len(pages) == 1 else f"{base}_p{k}"
        out.append(Entry(sid, tuple(_page_words(page, f"pages[{k}]", report, sid)), member.label))
    return out


DOCTR = Format(
    "doctr",
    "docTR exported document JSON (pages > blocks > lines > words)",
    ("det",),
    sniff,
    read,
    detected_by="JSON object with 'pages' holding 'blocks' and 'dimensions'",
    dont_care="-",
    attributes="confidence, value, objectness_score and other scalar word fields",
)
