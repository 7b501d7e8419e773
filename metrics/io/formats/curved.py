"""The curved-text datasets' own GT files: Total-Text txt, CTW1500 XML / test txt / 32-value
txt, and MSRA-TD500 ``.gt`` rotated rectangles.

- Total-Text (``Groundtruth/Text``): ``x: [[x1 x2 ...]], y: [[y1 y2 ...]], ornt: [u'c'],
  transcriptions: [u'text']``, one record per line (a record wrapped over several lines is
  joined back); ``#`` as transcription or orientation is don't-care; ``ornt`` is kept as
  ``orientation``.
- CTW1500 train XML: ``<image file=...><box ...><label>text</label><segs>x1,y1,...</segs>``;
  test txt: ``x1,y1,...,x14,y14,####text`` (the text follows ``####``; ``###`` is
  don't-care); the original train txt: 32 values ``xmin,ymin,xmax,ymax`` then 14 offsets
  ``dx,dy`` from (xmin, ymin).
- MSRA-TD500: ``index difficult x y w h angle``: the rectangle with top-left (x, y) and size
  (w, h), turned by ``angle`` radians about its centre; ``difficult`` 1 is don't-care.
"""

from __future__ import annotations

import functools
import math
import re

import numpy as np

from metrics.core.model import FloatArray, Instance
from metrics.io.archive import Member, split_lines
from metrics.io.formats.base import (
    DONT_CARE,
    Entry,
    Format,
    Report,
    Role,
    head,
    image_id,
    instance,
    is_empty,
    sample_id,
    text_of,
)
from metrics.io.formats.textsets import _NUM, _first_lines, majority
from metrics.io.numbers import text_numbers


@functools.cache
def _tt() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """A Total-Text line and a Python string in it, compiled when a Total-Text file is read."""
    line = re.compile(
        r"x:\s*\[\[(?P<x>[^\]]*)\]\],\s*y:\s*\[\[(?P<y>[^\]]*)\]\],\s*ornt:\s*\[(?P<o>.*?)\],"
        r"\s*transcriptions:\s*\[(?P<t>.*)\]\s*\Z",
        re.DOTALL,
    )
    return line, re.compile(r"""\s*u?(?:'(?P<a>.*)'|"(?P<b>.*)")\s*\Z""", re.DOTALL)


def _pystr(value: str) -> str:
    m = _tt()[1].match(value)
    return value.strip() if m is None else (m.group("a") if m.group("a") is not None else m["b"])


def _numbers(text: str) -> FloatArray | str:
    """The numbers of a list written with commas or blanks, or why one is no coordinate
    (the rule of every reader: finite, within ±1e9, not too long)."""
    return text_numbers(text.replace(",", " ").split())


def sniff_totaltext(member: Member, role: Role) -> float | None:
    if role != "gt" or is_empty(member):
        return None if is_empty(member) else 0.0
    return 1.0 if head(member, 16).startswith(b"x:") else 0.0


def _records(member: Member, report: Report) -> list[tuple[int, str]]:
    """(first line, text) of each record; continuation lines joined to their record."""
    out: list[tuple[int, str]] = []
    for ln in split_lines(member, report.problems):
        if ln.text.lstrip().startswith("x:") or not out:
            out.append((ln.number, ln.text.strip()))
        else:
            out[-1] = (out[-1][0], out[-1][1] + " " + ln.text.strip())
    return out


def read_totaltext(member: Member, role: Role, report: Report) -> list[Entry]:
    sid = sample_id(member.name, role)
    out = []
    pattern = _tt()[0]
    for number, rec in _records(member, report):
        m = pattern.match(rec)
        if m is None:
            report.error(
                number, "expected x: [[...]], y: [[...]], ornt: [...], transcriptions: [...]"
            )
            continue
        xs, ys = _numbers(m["x"]), _numbers(m["y"])
        if isinstance(xs, str) or isinstance(ys, str):
            report.error(number, str(xs if isinstance(xs, str) else ys), sid)
            continue
        if len(xs) != len(ys) or len(xs) < 1:
            report.error(number, "x and y must be lists of numbers of the same length", sid)
            continue
        ornt, text = _pystr(m["o"]), _pystr(m["t"])
        pts = np.stack([xs, ys], axis=1)
        out.append(
            instance(
                pts,
                bool(np.all(pts == np.round(pts))),
                line=number,
                text=text,
                dont_care=text == "#" or ornt == "#",
                attrs={"orientation": ornt},
            )
        )
    return [Entry(sid, tuple(out), member.label)]


def _ctw_txt_kind(line: str) -> str | None:
    if "####" not in line and line.count(",") != 31:
        return None  # the common case (ICDAR lines), decided without splitting
    fields = line.split(",")
    k = 0
    while k < len(fields) and _NUM.match(fields[k]):
        k += 1
    if k < len(fields) and fields[k].startswith("####"):
        return "test"
    if k == len(fields) == 32 and _is_offsets(fields):
        return "32"
    return None


def _is_offsets(fields: list[str]) -> bool:
    v = [float(f) for f in fields]
    w, h = v[2] - v[0], v[3] - v[1]
    dx, dy = v[4::2], v[5::2]
    return (
        w > 0 and h > 0 and all(-1 <= x <= w + 1 for x in dx) and all(-1 <= y <= h + 1 for y in dy)
    )


def _sniff_ctw(member: Member, role: Role, kind: str) -> float | None:
    if role != "gt" or not member.name.lower().endswith(".txt"):
        return 0.0
    lines = _first_lines(member)
    if not lines:
        return None
    kinds = [_ctw_txt_kind(ln) for ln in lines]
    if kind == "test":
        return 1.0 if "test" in kinds else 0.0
    return 0.9 if all(k == "32" for k in kinds) else 0.0


def _ctw_line(text: str, number: int, kind: str) -> Instance | str:
    fields = text.split(",")
    k = 0
    while k < len(fields) and _NUM.match(fields[k]):
        k += 1
    values = text_numbers(fields[:k])
    if isinstance(values, str):
        return values
    integer = bool(np.all(values == np.round(values)))
    if kind == "32":
        if k != 32 or k != len(fields):
            return f"expected 32 numbers (xmin,ymin,xmax,ymax and 14 offsets), found {k}"
        pts = values[4:].reshape(-1, 2) + values[:2]
        return instance(pts, integer, line=number)
    rest = ",".join(fields[k:])
    if not rest.startswith("####"):
        return "expected the coordinates then ####transcription"
    if k < 6 or k % 2:
        return f"expected x,y coordinate pairs (at least 3 points), found {k} numbers"
    word = rest[4:]
    return instance(
        values.reshape(-1, 2), integer, line=number, text=word, dont_care=word == DONT_CARE
    )


def _read_ctw(member: Member, role: Role, report: Report, kind: str) -> list[Entry]:
    sid = sample_id(member.name, role)
    out = []
    for ln in split_lines(member, report.problems):
        got = _ctw_line(ln.text, ln.number, kind)
        if isinstance(got, str):
            report.error(ln.number, f"{got}: {ln.text[:80]!r}", sid)
        else:
            out.append(got)
    return [Entry(sid, tuple(out), member.label)]


def sniff_ctw_xml(member: Member, role: Role) -> float | None:
    h = head(member, 512)
    if not h:
        return None
    return 1.0 if role == "gt" and h.startswith(b"<") and b"<Annotations" in h else 0.0


def read_ctw_xml(member: Member, role: Role, report: Report) -> list[Entry]:
    import xml.etree.ElementTree as ET  # only for CTW1500 XML (keeps the ICDAR path light)

    try:
        root = ET.fromstring(text_of(member))
    except ET.ParseError as exc:
        report.error(exc.position[0], f"not well-formed XML: {exc}")
        return []
    out = []
    for i, img in enumerate(root.iter("image")):
        name = img.get("file")
        sid = image_id(name) if name else sample_id(member.name, role)
        insts = []
        for j, box in enumerate(img.iter("box")):
            path = f"image[{i}].box[{j}]"
            segs = _numbers(box.findtext("segs") or "")
            if isinstance(segs, str):
                report.error(f"{path}.segs", segs, sid)
                continue
            if len(segs) < 6 or len(segs) % 2:
                report.error(path, "<segs> must hold at least 3 x,y pairs", sid)
                continue
            label = box.findtext("label") or ""
            pts = segs.reshape(-1, 2)
            integer = bool(np.all(pts == np.round(pts)))
            insts.append(
                instance(pts, integer, line=j + 1, text=label, dont_care=label == DONT_CARE)
            )
        out.append(Entry(sid, tuple(insts), member.label, name))
    if not out:
        report.error(None, "no <image> element")
    return out


_MSRA = re.compile(r"\s*(?:[-+]?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?\s+){6}[-+]?[\d.eE+-]+\s*\Z")


def sniff_msra(member: Member, role: Role) -> float | None:
    lines = _first_lines(member)
    if not lines:
        return None
    if role != "gt":
        return 0.0
    share = majority([bool(_MSRA.match(ln)) for ln in lines])
    return share if member.name.lower().endswith(".gt") else 0.8 * share


def rotated_rect(x: float, y: float, w: float, h: float, angle: float) -> FloatArray:
    """Corners TL, TR, BR, BL of the rectangle turned by ``angle`` radians about its centre."""
    cx, cy = x + w / 2, y + h / 2
    corners = np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]]) - (cx, cy)
    c, s = math.cos(angle), math.sin(angle)
    rot = np.array([[c, -s], [s, c]])
    return np.asarray(corners @ rot.T + (cx, cy), dtype=np.float64)


def read_msra(member: Member, role: Role, report: Report) -> list[Entry]:
    sid = sample_id(member.name, role)
    out = []
    for ln in split_lines(member, report.problems):
        parts = ln.text.split()
        values = text_numbers(parts) if len(parts) == 7 else "not 7 fields"
        if isinstance(values, str):
            what = f"expected 'index difficult x y w h angle', found {ln.text[:60]!r}"
            report.error(ln.number, f"{what}: {values}", sid)
            continue
        _, difficult, x, y, w, h, angle = values.tolist()
        pts = rotated_rect(x, y, w, h, angle)
        out.append(
            instance(
                pts,
                bool(np.all(pts == np.round(pts))),
                line=ln.number,
                dont_care=difficult != 0,
                attrs={"difficult": int(difficult), "angle": angle},
            )
        )
    return [Entry(sid, tuple(out), member.label)]


TOTALTEXT = Format(
    "totaltext",
    "Total-Text txt GT (x: [[...]], y: [[...]], ornt, transcriptions)",
    ("gt",),
    sniff_totaltext,
    read_totaltext,
    detected_by="file starts with 'x:'",
    dont_care="transcription or orientation #",
    attributes="orientation",
)
CTW1500_TXT = Format(
    "ctw1500_txt",
    "CTW1500 test txt GT (coordinates,####text)",
    ("gt",),
    lambda m, r: _sniff_ctw(m, r, "test"),
    lambda m, r, rep: _read_ctw(m, r, rep, "test"),
    detected_by="a probed line's text starts with ####",
    dont_care="text ### after ####",
    attributes="-",
)
CTW1500_32 = Format(
    "ctw1500_32",
    "CTW1500 train txt GT (32 values: box and 14 offsets)",
    ("gt",),
    lambda m, r: _sniff_ctw(m, r, "32"),
    lambda m, r, rep: _read_ctw(m, r, rep, "32"),
    detected_by="every probed line 32 numbers whose offsets fit the box",
    dont_care="none",
    attributes="-",
)
CTW1500_XML = Format(
    "ctw1500_xml",
    "CTW1500 train XML GT",
    ("gt",),
    sniff_ctw_xml,
    read_ctw_xml,
    detected_by="XML with <Annotations>",
    dont_care="label ###",
    attributes="-",
)
MSRA = Format(
    "msra_td500",
    "MSRA-TD500 .gt (index difficult x y w h angle)",
    ("gt",),
    sniff_msra,
    read_msra,
    detected_by="lines of 7 numbers (.gt files)",
    dont_care="difficult 1",
    attributes="difficult, angle",
)
