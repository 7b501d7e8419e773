"""ICDAR txt files of one side: GT and detection files read into instances, the detection
schema inferred over the whole set. Plain integer-QUAD files take the one-regex path of
``metrics.io.icdar.filelines``; every other file is read line by line with located errors."""

from __future__ import annotations

import re

from metrics.core.model import BoxType, Instance, Problem, Severity
from metrics.io.archive import Line, Member, split_lines
from metrics.io.icdar.det_schema import SchemaEvidence, box_hint, det_evidence, shape_of
from metrics.io.icdar.filelines import (
    Scan,
    parse_det_file,
    parse_gt_file,
    plain_det_shape,
    plain_quads,
)
from metrics.io.icdar.lines import DetSchema, LineError

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
    quads: list[bool] = []  # the file's lines with text are QUADs: no doubt (found once)
    for ln, parsed in zip(lines, parse_gt_file(lines, box_type), strict=True):
        if isinstance(parsed, LineError):
            problems.append(located_error(member, ln.number, f"{parsed}: {ln.text[:80]!r}", sid))
            continue
        out.append(parsed)
        if out[-1].box_type is not BoxType.QUAD or not _NUMBER_RUN.fullmatch(out[-1].text or ""):
            continue
        if not quads:
            quads.append(box_type is None and box_hint(x.text for x in lines) == 8)
        if not quads[0]:
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
    problems: list[Problem],
) -> tuple[SchemaEvidence, dict[str, list[Line]]]:
    """What the detection lines say about their optional fields, over the whole set (the
    schema is ``evidence.schema(forced)``, forced by the caller once every file's evidence
    is in), and the lines of the files that are not plain
    integer QUADs."""
    lines: dict[str, list[Line]] = {}
    evidence = SchemaEvidence()
    for m in members:
        scan = scans.get(m.label)
        shape = None if scan is None else plain_det_shape(scan)
        if shape is None:
            lines[m.label] = split_lines(m, problems)
            shape = det_evidence([shape_of(ln.text) for ln in lines[m.label]])
        evidence |= shape
    return evidence, lines
