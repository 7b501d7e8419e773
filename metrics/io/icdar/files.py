"""ICDAR txt files of one side: GT and detection files read into instances, the detection
schema inferred over the whole set. Each file is read once (``FileText``): its bytes decoded
once, scanned with one regex when its lines are plain integer boxes (``filelines.plain_quads``),
else split into lines once and each line read once (``filelines.gt_file`` /
``parse_det_file``), with located errors."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from metrics.core.model import BoxType, Instance, Problem, Severity
from metrics.core.records import dataclass
from metrics.io.archive import Decoded, Line, Member, decode
from metrics.io.icdar.bulk import det_shapes, plain_many, scan_many
from metrics.io.icdar.det_schema import SchemaEvidence, det_evidence, shape_and_split
from metrics.io.icdar.filelines import (
    Scan,
    gt_file,
    parse_det_file,
    plain_quads,
    scan_plain,
)
from metrics.io.icdar.grammar import DetSchema, LineError, Split

_NUMBER_RUN = r"\s*-?\d+(?:\s*,\s*-?\d+)+\s*"  # compiled (and kept) by ``re`` when first used


@dataclass(slots=True)
class FileText:
    """One file read once: its bytes decoded, its one-regex scan (None unless every line is
    a plain integer box line), its lines, split at most once (``split``), and the fields of
    each line as the detection schema split them (``split_fields``; None where it did not)."""

    decoded: Decoded
    scan: Scan | None
    lines: list[Line] | None = None
    splits: list[Split | None] | None = None

    def split(self, problems: list[Problem]) -> list[Line]:
        """The file's numbered lines (split from the decoded text on the first call, its
        warnings added to ``problems`` then)."""
        if self.lines is None:
            self.lines = self.decoded.split(problems)
        return self.lines


def read_text(member: Member) -> FileText:
    """``member`` decoded and scanned (``FileText``)."""
    decoded = decode(member)
    return FileText(decoded, scan_plain(decoded))


def located_error(member: Member, line: int | None, msg: str, sid: str | None) -> Problem:
    return Problem(Severity.ERROR, member.label, line, msg, sid)


def read_gt(
    member: Member, sid: str, box_type: BoxType | None, problems: list[Problem]
) -> tuple[Instance, ...]:
    text = read_text(member)
    plain = None if text.scan is None else plain_quads(text.scan, box_type)
    if plain is not None:  # integer QUADs and their texts (never a run of numbers)
        return tuple(plain)
    lines = text.split(problems)
    parsed, hint = gt_file(lines, box_type)
    quads = box_type is None and hint == 8  # the file's lines with text are QUADs: no doubt
    out = []
    for ln, got in zip(lines, parsed, strict=True):
        if isinstance(got, LineError):
            problems.append(_line_error(member, ln, got, sid))
            continue
        out.append(got)
        if not quads and got.box_type is BoxType.QUAD and re.fullmatch(_NUMBER_RUN, got.text or ""):
            problems.append(_number_run(member, ln, got, sid))
    return tuple(out)


def _number_run(member: Member, ln: Line, inst: Instance, sid: str) -> Problem:
    return Problem(
        Severity.WARNING,
        member.label,
        ln.number,
        f"transcription {inst.text!r} is a run of numbers: read as the text of "
        "a QUAD (ICDAR grammar); if they are more vertices, the file is a "
        "polygon format that needs a transcription at the end",
        sid,
    )


def _line_error(member: Member, ln: Line, exc: LineError, sid: str) -> Problem:
    """A line's error: file and line named, the start of the line quoted."""
    return located_error(member, ln.number, f"{exc}: {ln.text[:80]!r}", sid)


def read_det(
    member: Member,
    sid: str,
    schema: DetSchema,
    box_type: BoxType | None,
    problems: list[Problem],
    text: FileText | None = None,
) -> tuple[Instance, ...]:
    """The instances of a detection file (``text``: what finding the schema read of it, if
    kept; else it is read here)."""
    if text is None:
        text = read_text(member)
    plain = None if text.scan is None else plain_quads(text.scan, box_type, schema)
    if plain is not None:
        return tuple(plain)
    lines = text.split(problems)
    out = []
    parsed = parse_det_file(lines, schema, box_type, text.splits)
    text.splits = None  # the fields may have been consumed: never read twice
    for ln, got in zip(lines, parsed, strict=True):
        if isinstance(got, LineError):
            problems.append(_line_error(member, ln, got, sid))
        else:
            out.append(got)
    return tuple(out)


def plain_files(
    members: Sequence[Member | None],
    box_type: BoxType | None,
    schema: DetSchema | None = None,
    texts: Mapping[str, FileText] | None = None,
) -> list[tuple[Instance, ...] | None]:
    """What ``read_gt`` (``schema`` None) or ``read_det`` gives for each plain file of
    ``members`` (``metrics.io.icdar.bulk``: read together), without problems; None for a
    file that is not plain (or no member), which those functions read on their own.
    ``texts``: files already read (``det_schema``), whose scans are taken as they are."""
    kept = texts or {}
    scans: list[Scan | None] = [None] * len(members)
    fresh: list[tuple[int, Member]] = []
    for k, m in enumerate(members):
        if m is not None and m.label in kept:
            scans[k] = kept[m.label].scan
        elif m is not None:
            fresh.append((k, m))
    for (k, _), scan in zip(fresh, scan_many([decode(m) for _, m in fresh]), strict=True):
        scans[k] = scan
    return [None if got is None else tuple(got) for got in plain_many(scans, box_type, schema)]


def det_schema(
    members: list[Member], problems: list[Problem]
) -> tuple[SchemaEvidence, dict[str, FileText]]:
    """What the detection lines say about their optional fields, over the whole set (the
    schema is ``evidence.schema(forced)``, forced by the caller once every file's evidence
    is in), and each file as it was read for it: the plain files' scans decide without
    splitting them (``bulk.det_shapes``, all at once); any other file's lines are split once
    and kept for reading."""
    decoded = [decode(m) for m in members]
    scans = scan_many(decoded)
    texts: dict[str, FileText] = {}
    evidence = SchemaEvidence()
    for m, d, scan, shape in zip(members, decoded, scans, det_shapes(scans), strict=True):
        text = texts[m.label] = FileText(d, scan)
        if shape is None:
            found = [shape_and_split(ln.text) for ln in text.split(problems)]
            text.splits = [sp for _, sp in found]
            shape = det_evidence([sh for sh, _ in found])
        evidence |= shape
    return evidence, texts
