"""Samples from the entries of any formats: GT, detections and text-line GT paired by sample id.

The ICDAR-only path (``metrics.io.reader``) is untouched; this one serves every other
combination (e.g. GT in TextOCR JSON, detections as an MMOCR folder). Ids come from each
format's own image names (or file names); detections are paired with the GT ids as ICDAR
files are (``res_`` stripped, the number in the name as a last resort).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from metrics.core.model import Dataset, InputError, Problem, Sample, Severity
from metrics.core.records import dataclass
from metrics.io.archive import Member
from metrics.io.formats.base import Entry, Report, Role
from metrics.io.formats.detect import Detected, detect, expected
from metrics.io.image_files import image_files
from metrics.io.pairing import IdMatcher, natural_key

PathLike = str | os.PathLike[str]

IcdarReader = Callable[[list[Member], Role, list[Problem]], list[Entry]]


def read_side(
    found: Detected, role: Role, icdar: IcdarReader, problems: list[Problem]
) -> dict[str, Entry]:
    """Every entry of one side by sample id (a repeated id is an error; the first is kept)."""
    for m in found.ignored:
        problems.append(
            Problem(
                Severity.WARNING,
                m.label,
                None,
                f"ignored: not a file of the {found.format.name} set",
            )
        )
    if found.format.name == "icdar":
        entries = icdar(found.members, role, problems)
    else:
        entries = []
        for m in found.members:
            report = Report(m.label)
            entries.extend(found.format.read(m, role, report))
            problems.extend(report.problems)
    out: dict[str, Entry] = {}
    for e in entries:
        if e.sid in out:
            msg = f"sample id {e.sid!r} given twice (also {out[e.sid].source}); this one is ignored"
            problems.append(Problem(Severity.ERROR, e.source, None, msg, e.sid))
        else:
            out[e.sid] = e
    return out


def nothing_read(path: object, role: Role, problems: list[Problem]) -> InputError:
    """No entry at all from a side whose files exist: what was found and what was expected."""
    what = "GT" if role == "gt" else "detections"
    errors = [p for p in problems if p.severity is Severity.ERROR]
    summary = f"{path}: no file parsed as {what} (expected one of: {expected(role)})"
    return InputError(errors or [Problem(Severity.ERROR, str(path), None, summary)], summary)


def pair(
    entries: dict[str, Entry], matcher: IdMatcher, what: str, problems: list[Problem]
) -> dict[str, Entry]:
    """Entries by GT id; those matching no GT id, or one already taken, are errors."""
    out: dict[str, Entry] = {}
    for e in entries.values():
        sid = matcher.match(f"{e.sid}.x")
        if sid is None:
            msg = (
                f"{what} for image {e.sid!r} matches no GT image (ids look like "
                f"{sorted(matcher.ids, key=natural_key)[:3]})"
            )
            problems.append(Problem(Severity.ERROR, e.source, None, msg))
        elif sid in out:
            msg = f"{what} gives sample id {sid!r} again (also {out[sid].source})"
            problems.append(Problem(Severity.ERROR, e.source, None, msg, sid))
        else:
            out[sid] = e
    return out


def image_paths(
    folder: str, gt: dict[str, Entry], matcher: IdMatcher, problems: list[Problem]
) -> dict[str, str]:
    """Image per sample: the format's own image name first, else paired by id (regular
    files only: a pipe named like an image blocks its reader; each one is a warning)."""
    files = {f.name: f for f in image_files(Path(folder), problems)}
    out: dict[str, str] = {}
    for sid, e in gt.items():
        name = None if e.image is None else e.image.replace("\\", "/").rsplit("/", 1)[-1]
        if name in files:
            out[sid] = str(files[name])
    for name, f in files.items():
        found = matcher.match(name, prefixes=())
        if found is not None:
            out.setdefault(found, str(f))
    return out


def samples(
    gt: dict[str, Entry],
    det: dict[str, Entry],
    lines: dict[str, Entry] | None,
    images: dict[str, str],
) -> list[Sample]:
    out = []
    for sid in sorted(gt, key=natural_key):
        g, d = gt[sid], det.get(sid)
        t = None if lines is None else lines.get(sid)
        out.append(
            Sample(
                id=sid,
                gt=g.instances,
                det=d.instances if d else (),
                gt_source=g.source,
                det_source=d.source if d else None,
                gt_lines=None if lines is None else (t.instances if t else ()),
                gt_lines_source=t.source if t else None,
                image=images.get(sid),
            )
        )
    return out


@dataclass(frozen=True)
class Sources:
    """The paths a dataset is read from."""

    gt: PathLike
    det: PathLike | None = None
    gt_lines: PathLike | None = None
    images: PathLike | None = None


def load_formats(
    src: Sources,
    found: tuple[Detected, Detected | None],
    icdar: IcdarReader,
    warnings: Callable[[list[Sample]], list[Problem]],
) -> Dataset:
    """A dataset from sides of any formats (``warnings``: the reader's geometry checks)."""
    problems: list[Problem] = []
    gt_e = read_side(found[0], "gt", icdar, problems)
    if not gt_e:
        raise nothing_read(src.gt, "gt", problems)
    matcher = IdMatcher(gt_e)
    det_e: dict[str, Entry] = {}
    if found[1] is not None:
        got = read_side(found[1], "det", icdar, problems)
        if not got:
            raise nothing_read(src.det, "det", problems)
        det_e = pair(got, matcher, "detections", problems)
    lines_e = None
    if src.gt_lines is not None:
        got_lines = read_side(detect(src.gt_lines, "gt"), "gt", icdar, problems)
        lines_e = pair(got_lines, matcher, "text-line GT", problems)
    imgs = {} if src.images is None else image_paths(str(src.images), gt_e, matcher, problems)
    found_samples = samples(gt_e, det_e, lines_e, imgs)
    problems.extend(warnings(found_samples))
    return Dataset(
        tuple(found_samples),
        tuple(problems),
        gt_path=str(src.gt),
        det_path=None if src.det is None else str(src.det),
        gt_lines_path=None if src.gt_lines is None else str(src.gt_lines),
        images_path=None if src.images is None else str(src.images),
    )
