"""Which format a GT or detection path is in, decided from the content of its files.

``--gt`` / ``--det`` take a file, a folder or a zip. Up to ``PROBE`` non-empty files are
shown to every format that can hold that side; the format with the highest summed
confidence wins (the dataset-specific formats score above plain ICDAR txt, so a column
such as MLT's script is recognised before the line grammar could take it as text). A path
that holds nothing readable, or files that look like none of the formats, is an
``InputError`` saying what was found and what was expected.
"""

from __future__ import annotations

import itertools
import os
import zipfile
from pathlib import Path

from metrics.core.model import InputError, Problem, Severity
from metrics.core.records import dataclass, field
from metrics.io import formats
from metrics.io.archive import Member, read_file, read_members
from metrics.io.formats import ICDAR, TEXT_FORMATS, Format, Role
from metrics.io.formats.base import head, is_empty, json_or_none, keys_of, load_json, looks_json
from metrics.io.jsonload import JsonError

SUFFIXES = (".txt", ".json", ".gt", ".xml")
PROBE = 20


@dataclass(frozen=True)
class Detected:
    """A side's format and the files it is read from (``ignored``: other files beside them)."""

    format: Format
    members: list[Member]
    ignored: list[Member] = field(default_factory=list)
    forced: bool = False


def _fail(path: str | os.PathLike[str], msg: str) -> InputError:
    return InputError([Problem(Severity.ERROR, str(path), None, msg)])


def members_of(path: str | os.PathLike[str]) -> list[Member]:
    """The candidate files of a path: one file (any name), or the files of a folder / zip
    whose names end in .txt, .json, .gt or .xml."""
    p = Path(path)
    if p.is_file() and not zipfile.is_zipfile(p):
        try:
            return [Member(p.name, str(p), read_file(p))]  # the size limit first
        except OSError as exc:
            raise _fail(p, f"cannot read: {exc}") from exc
    return read_members(p, SUFFIXES)


def expected(role: Role) -> str:
    return ", ".join(f.name for f in formats.FORMATS if role in f.roles)


def _found(member: Member) -> str:
    data = json_or_none(member)
    if data is not None:
        return f"{member.label}: JSON, {keys_of(data)}"
    first = head(member, 200).split(b"\n", 1)[0].decode("utf-8", errors="replace")
    return f"{member.label}: first line {first[:60]!r}"


def _raise_if_broken_json(member: Member) -> None:
    """A file that starts as JSON but does not parse: its JSON error, at its line."""
    if not looks_json(member):
        return
    try:
        load_json(member)
    except JsonError as exc:
        raise InputError(
            [Problem(Severity.ERROR, member.label, exc.line, str(exc))],
            f"{member.label}{'' if exc.line is None else f':{exc.line}'}: {exc}",
        ) from None


def _scores(probe: list[Member], role: Role) -> list[tuple[Format, float]]:
    """Each format's summed score, in ``FORMATS``'s order; without a file that starts as
    JSON, only the ``TEXT_FORMATS``' (the others score 0: their readers are not loaded)."""
    candidates = formats.FORMATS if any(looks_json(m) for m in probe) else TEXT_FORMATS
    return [
        (fmt, sum(fmt.sniff(m, role) or 0.0 for m in probe))
        for fmt in candidates
        if role in fmt.roles
    ]


def _suffix(member: Member) -> str:
    return os.path.splitext(member.name)[1].lower()


def _split(members: list[Member], fmt: Format, probe: list[Member], role: Role) -> Detected:
    """Keep the files with a suffix that the chosen format matched among the probed ones."""
    suffixes = {_suffix(m) for m in probe if (fmt.sniff(m, role) or 0) > 0}
    suffixes = suffixes or {_suffix(m) for m in members}
    keep = [m for m in members if _suffix(m) in suffixes]
    other = [m for m in members if _suffix(m) not in suffixes]
    return Detected(fmt, keep, other)


def detect(path: str | os.PathLike[str], role: Role, forced: str | None = None) -> Detected:
    """The format of the files at ``path`` for ``role`` (``forced``: a format name)."""
    members = members_of(path)
    what = "GT" if role == "gt" else "detection"
    if not members:
        raise _fail(
            path,
            f"no {what} files found (no .txt, .json, .gt or .xml file); expected {what} "
            f"files in one of: {expected(role)}",
        )
    if forced is not None:
        fmt = formats.BY_NAME.get(forced)
        if fmt is None or role not in fmt.roles:
            raise _fail(
                path, f"format {forced!r} cannot hold {what}s; use one of: {expected(role)}"
            )
        return Detected(fmt, members, forced=True)
    probe = list(itertools.islice((m for m in members if not is_empty(m)), PROBE))
    if not probe:
        return Detected(ICDAR, _own_files(members, role))  # only empty files: images without boxes
    best, score = max(_scores(probe, role), key=lambda s: s[1])  # the first of the best
    if score <= 0:
        _raise_if_broken_json(probe[0])
        raise _fail(
            path,
            f"not a {what} file of any known format: found {_found(probe[0])}; expected "
            f"one of: {expected(role)} (or force one with --{role}-format)",
        )
    return _split(_own_files(members, role), best, probe, role)


def _own_files(members: list[Member], role: Role) -> list[Member]:
    """The files of one side in an archive holding both ``gt_*`` and ``res_*`` files (what
    ``detlens convert`` writes for GT and detections together); all files otherwise."""
    prefixes = {m.name.split("_", 1)[0] for m in members}
    if not {"gt", "res"} <= prefixes:
        return members
    own = "gt_" if role == "gt" else "res_"
    return [m for m in members if m.name.startswith(own)]
