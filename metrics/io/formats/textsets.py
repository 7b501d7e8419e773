"""ICDAR-style text files with an extra column, recognised per file set (never per line).

- ICDAR 2017/2019 MLT GT: ``x1,y1,...,x4,y4,script,transcription``; the script (Latin,
  Arabic, ...) is kept as the ``script`` attribute, never taken as text; ``###`` don't-care.
- RCTW-17 GT: ``x1,y1,...,x4,y4,difficult,"transcription"``; ``difficult`` non-zero (or
  ``###``) is don't-care, kept as the ``difficult`` attribute.
- Plain ICDAR txt (IC13/IC15/Total-Text/CTW1500 as the official scripts take them) is only
  recognised here; it is read by ``metrics.io.icdar.lines`` exactly as before.

A set is MLT (RCTW) when most of the first lines of its first files have the column;
detection files of MLT and RCTW are plain ICDAR txt.
"""

from __future__ import annotations

import dataclasses
import re

from metrics.io.archive import Member, split_lines
from metrics.io.formats.base import DONT_CARE, Entry, Format, Report, Role, is_empty, sample_id
from metrics.io.icdar.lines import LineError, parse_gt_line

SCRIPTS = frozenset(
    [
        "Arabic",
        "Latin",
        "Chinese",
        "Japanese",
        "Korean",
        "Bangla",
        "Hindi",
        "Symbols",
        "Mixed",
        "None",
    ]
)
_NUM = re.compile(r"\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s*\Z", re.ASCII)
_ICDAR_START = re.compile(rb"\s*[-+]?\.?\d[^\n]*,")
PROBE_LINES = 5


def _first_lines(member: Member, n: int = PROBE_LINES) -> list[str]:
    data = member.data.removeprefix(b"\xef\xbb\xbf")
    text = data[:8192].decode("utf-8", errors="replace")
    parts = text.split("\n", 4 * n)
    if len(parts) > 4 * n or (len(data) > 8192 and len(parts) > 1):
        parts.pop()  # the rest of the file, or a line cut at 8 KB
    return [ln.replace("\r", "") for ln in parts if ln.strip()][:n]


def _column(line: str) -> tuple[list[str], str] | None:
    """(fields, 9th field) of a line of 8 numbers then at least two more fields."""
    fields = line.split(",")
    if len(fields) < 10 or not all(_NUM.match(f) for f in fields[:8]):
        return None
    return fields, fields[8].strip()


def _sniff_column(member: Member, role: Role, ok: frozenset[str]) -> float | None:
    if role != "gt" or not member.name.lower().endswith(".txt"):
        return 0.0
    lines = _first_lines(member)
    if not lines:
        return None
    return majority([(c := _column(ln)) is not None and c[1] in ok for ln in lines])


def majority(fits: list[bool]) -> float:
    """The share of probed lines that fit when at least half do (a stray bad line still
    leaves the file recognised, and then reported at its line), else 0."""
    share = sum(fits) / len(fits) if fits else 0.0
    return share if share >= 0.5 else 0.0


def sniff_icdar(member: Member, role: Role) -> float | None:
    """Plain ICDAR txt: a .txt file whose first line starts with a number and has a comma."""
    del role
    if not member.name.lower().endswith(".txt"):
        return 0.0
    if is_empty(member):
        return None
    first = member.data.removeprefix(b"\xef\xbb\xbf").lstrip()[:4096]
    return 0.5 if _ICDAR_START.match(first) else 0.0


def _read_column(member: Member, role: Role, report: Report, rctw: bool) -> list[Entry]:
    sid = sample_id(member.name, role)
    out = []
    for ln in split_lines(member, report.problems):
        col = _column(ln.text)
        if col is None:
            what = "difficult" if rctw else "script"
            report.error(ln.number, f"expected 8 coordinates, the {what} and a transcription", sid)
            continue
        fields, value = col
        if not rctw and _NUM.match(value):
            msg = "the script must follow the 8 coordinates (a polygon? MLT boxes are quads)"
            report.error(ln.number, msg, sid)
            continue
        if rctw and not _NUM.match(value):
            report.error(ln.number, f"difficult flag {value!r} is not a number", sid)
            continue
        if not rctw and value not in SCRIPTS:
            report.warning(ln.number, f"unknown script {value!r} (kept as given)", sid)
        try:
            inst = parse_gt_line(",".join(fields[:8] + fields[9:]), ln.number)
        except LineError as exc:
            report.error(ln.number, str(exc), sid)
            continue
        if rctw:
            difficult = float(value)
            inst = dataclasses.replace(
                inst,
                dont_care=inst.text == DONT_CARE or difficult != 0,
                attrs={"difficult": int(difficult) if difficult.is_integer() else difficult},
            )
        else:
            inst = dataclasses.replace(inst, attrs={"script": value})
        out.append(inst)
    return [Entry(sid, tuple(out), member.label)]


def read_icdar(member: Member, role: Role, report: Report) -> list[Entry]:
    """Plain ICDAR GT lines (detections are read with the set's schema by the reader)."""
    sid = sample_id(member.name, role)
    out = []
    for ln in split_lines(member, report.problems):
        try:
            out.append(parse_gt_line(ln.text, ln.number))
        except LineError as exc:
            report.error(ln.number, f"{exc}: {ln.text[:80]!r}", sid)
    return [Entry(sid, tuple(out), member.label)]


ICDAR = Format(
    "icdar",
    "ICDAR txt (one file per image, IC13/IC15/Total-Text/CTW1500 as the official scripts)",
    ("gt", "det"),
    sniff_icdar,
    read_icdar,
    detected_by=".txt lines starting with numbers",
    dont_care="transcription ###",
    attributes="-",
)
MLT = Format(
    "mlt",
    "ICDAR 2017/2019 MLT GT (script column)",
    ("gt",),
    lambda m, r: _sniff_column(m, r, SCRIPTS),
    lambda m, r, rep: _read_column(m, r, rep, rctw=False),
    detected_by="9th field of every probed line a script name",
    dont_care="transcription ###",
    attributes="script",
)
RCTW = Format(
    "rctw",
    "RCTW-17 GT (difficult column)",
    ("gt",),
    lambda m, r: _sniff_column(m, r, frozenset({"0", "1"})),
    lambda m, r, rep: _read_column(m, r, rep, rctw=True),
    detected_by="9th field of every probed line 0 or 1, then text",
    dont_care="difficult non-zero or ###",
    attributes="difficult",
)
