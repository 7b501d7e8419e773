"""ICDAR txt files of one side: GT and detection files read into instances, the detection
schema inferred over the whole set. Plain integer-QUAD files take the one-regex path of
``metrics.io.filelines``; every other file is read line by line with located errors."""

from __future__ import annotations

import re

from metrics.io.archive import Line, Member, split_lines
from metrics.io.filelines import (
    Scan,
    parse_det_file,
    parse_gt_file,
    plain_det_shape,
    plain_quads,
)
from metrics.io.lines import DetSchema, LineError, infer_det_schema, shape_of
from metrics.model import BoxType, Instance, Problem, Severity

_NUMBER_RUN = re.compile(r"\s*-?\d+(?:\s*,\s*-?\d+)+\s*")


def located_error(member: Member, line: int | None, msg: str, sid: str | None) -> Problem:
    return Problem(Severity.ERROR, member.label, line, msg, sid)


def read_gt(
    member: Member, sid: str, box_type: BoxType | None, problems: list[Problem]
) -> tuple[Instance, ...]:
    plain = plain_quads(member.data, box_type)
    if plain is not None:  # integer QUADs and their texts (never a run of numbers)
        return tuple(plain)
    out = []
    lines = split_lines(member, problems)
    for ln, parsed in zip(lines, parse_gt_file(lines, box_type), strict=True):
        if isinstance(parsed, LineError):
            problems.append(located_error(member, ln.number, f"{parsed}: {ln.text[:80]!r}", sid))
            continue
        out.append(parsed)
        if out[-1].box_type is BoxType.QUAD and _NUMBER_RUN.fullmatch(out[-1].text or ""):
            problems.append(
                Problem(
                    Severity.WARNING,
                    member.label,
                    ln.number,
                    f"transcription {out[-1].text!r} is a run of numbers: read as the text of "
                    "a QUAD (ICDAR grammar); if they are more vertices, the file is a "
                    "polygon format that needs a transcription at the end",
                    sid,
                )
            )
    return tuple(out)


def read_det(
    member: Member,
    lines: list[Line] | None,
    sid: str,
    schema: DetSchema,
    box_type: BoxType | None,
    problems: list[Problem],
    scan: Scan | None = None,
) -> tuple[Instance, ...]:
    plain = plain_quads(member.data, box_type, schema, scan)
    if plain is not None:
        return tuple(plain)
    if lines is None:  # a scanned plain file the schema or box type sends line by line
        lines = split_lines(member, problems)
    out = []
    for ln, parsed in zip(lines, parse_det_file(lines, schema, box_type), strict=True):
        if isinstance(parsed, LineError):
            problems.append(located_error(member, ln.number, f"{parsed}: {ln.text[:80]!r}", sid))
        else:
            out.append(parsed)
    return tuple(out)


def det_schema(
    members: list[Member],
    scans: dict[str, Scan | None],
    forced: tuple[bool | None, bool | None],
    problems: list[Problem],
) -> tuple[DetSchema, dict[str, list[Line]]]:
    """Which optional fields the detection lines carry (inferred over the whole set unless
    forced), and the lines of the files that are not plain integer QUADs."""
    lines: dict[str, list[Line]] = {}
    confidence = transcription = False
    for m in members:
        scan = scans.get(m.label)
        shape = None if scan is None else plain_det_shape(scan)
        if shape is None:
            lines[m.label] = split_lines(m, problems)
            found = infer_det_schema([shape_of(ln.text) for ln in lines[m.label]])
            shape = found.confidence, found.transcription
        confidence, transcription = confidence or shape[0], transcription or shape[1]
    conf, text = forced  # --det-confidence / --det-transcription, None = inferred
    schema = DetSchema(
        confidence=confidence if conf is None else conf,
        transcription=transcription if text is None else text,
    )
    return schema, lines
