"""ICDAR txt sets paired before they are parsed: which GT, detection and text-line file (and
image) each sample id reads, the pairing problems, and the reading of any run of pairs.

``load_dataset`` reads every pair in one go; ``metrics.run.sharded`` hands runs of pairs to
worker processes, each reading and evaluating its own, and the viewer lists the sample ids
before a single box is read. Reading a run gives the instances and problems that reading
the whole set gives for those samples, in the same order.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from metrics.core.floats import DEFAULT_FLOATS, FloatMode, settle
from metrics.core.model import BoxType, InputError, Problem, Sample, Severity
from metrics.core.records import dataclass, field
from metrics.io.archive import IMAGE_SUFFIXES, Member, read_members
from metrics.io.formats.detect import Detected
from metrics.io.icdar.det_schema import SchemaEvidence
from metrics.io.icdar.files import (
    FileText,
    det_schema,
    located_error,
    plain_files,
    read_det,
    read_gt,
)
from metrics.io.icdar.grammar import DetSchema
from metrics.io.image_files import image_files
from metrics.io.pairing import IdMatcher, gt_id, natural_key

PathLike = str | os.PathLike[str]


@dataclass(frozen=True, slots=True)
class LoadOptions:
    """Reader switches.

    gt_box_type / det_box_type:
        Force LTRB, QUAD or POLY instead of detecting the type of each line.
    gt_format / det_format:
        Force a file format by name (``metrics.io.formats.BY_NAME``) instead of detecting it.
    det_confidence / det_transcription:
        Force whether detection lines carry a confidence / transcription (None = infer from
        the whole detection set).
    floats:
        What non-integer coordinates become (``metrics.core.floats``): as given, refused by the
        metrics, rounded or truncated.
    """

    gt_box_type: BoxType | None = None
    det_box_type: BoxType | None = None
    det_confidence: bool | None = None
    det_transcription: bool | None = None
    gt_format: str | None = None
    det_format: str | None = None
    floats: FloatMode = DEFAULT_FLOATS

    @property
    def forced(self) -> tuple[bool | None, bool | None]:
        """``--det-confidence`` / ``--det-transcription`` (None: inferred)."""
        return self.det_confidence, self.det_transcription


@dataclass(frozen=True, slots=True)
class Pair:
    """The files of one sample (``lines``: its text-line GT file)."""

    id: str
    gt: Member
    det: Member | None
    lines: Member | None
    image: str | None


@dataclass(frozen=True)
class IcdarPlan:
    """The pairs in sample order (natural order of the ids), the problems of the pairing
    (in the order ``load_dataset`` reports them, the detection schema's between the GT's
    and the detections' pairing) and the detection files (paired or not)."""

    pairs: tuple[Pair, ...]
    problems: tuple[Problem, ...]
    det_members: tuple[Member, ...]
    opts: LoadOptions
    has_det: bool
    has_lines: bool
    gt_path: str
    det_path: str | None = None
    gt_lines_path: str | None = None
    images_path: str | None = None
    head: int = field(default=0)  # problems before the detection schema's (GT pairing)

    def problems_with(self, schema: Sequence[Problem]) -> list[Problem]:
        """The pairing problems with the detection schema's in their place (after the GT
        files' own, before the detections' pairing), as ``load_dataset`` reports them."""
        return [*self.problems[: self.head], *schema, *self.problems[self.head :]]


def txt_members(found: Detected) -> list[Member]:
    """The .txt files of an ICDAR set (other files are not read)."""
    return [m for m in found.members + found.ignored if m.name.lower().endswith(".txt")]


def plan_icdar(
    gt: PathLike,
    det: PathLike | None,
    gfound: Detected,
    dfound: Detected | None,
    gt_lines: PathLike | None,
    images: PathLike | None,
    opts: LoadOptions,
) -> IcdarPlan:
    """Pair the files of an ICDAR txt set (both sides detected as ICDAR) without parsing them."""
    problems: list[Problem] = []
    gt_members = txt_members(gfound)
    det_members = txt_members(dfound) if dfound is not None else []
    problems.extend(_swapped(gt, det, gt_members, det_members) or _gt_as_det(det, det_members))
    gt_by_id = _index_gt(gt_members, problems)
    if not gt_by_id:
        raise InputError([Problem(Severity.ERROR, str(gt), None, "no GT .txt files found")])
    head = len(problems)
    matcher = IdMatcher(gt_by_id)
    det_by_id = _pair(det_members, matcher, "detection", problems)
    lines_by_id = (
        _pair(read_members(gt_lines), matcher, "text-line GT", problems)
        if gt_lines is not None
        else {}
    )
    image_by_id = images_by_id(images, matcher, problems) if images is not None else {}
    pairs = tuple(
        Pair(sid, gt_by_id[sid], det_by_id.get(sid), lines_by_id.get(sid), image_by_id.get(sid))
        for sid in sorted(gt_by_id, key=natural_key)
    )
    return IcdarPlan(
        pairs,
        tuple(problems),
        tuple(det_members),
        opts,
        has_det=dfound is not None,
        has_lines=gt_lines is not None,
        gt_path=str(gt),
        det_path=None if det is None else str(det),
        gt_lines_path=None if gt_lines is None else str(gt_lines),
        images_path=None if images is None else str(images),
        head=head,
    )


@dataclass
class Schema:
    """The detection schema and what finding it left: the evidence it was inferred from
    (which parts of a set found in other processes add up), each detection file as it was
    read for it (decoded, scanned, its lines split: reading them goes on from there), and
    the problems met on the way."""

    schema: DetSchema = field(default_factory=DetSchema)
    evidence: SchemaEvidence = field(default_factory=SchemaEvidence)
    texts: dict[str, FileText] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)

    def forget(self, pairs: Sequence[Pair]) -> None:
        """Drop what was kept for the detection files of ``pairs`` once they are read
        (freeing 25,000 scans at once held the interpreter 0.17 s)."""
        for pair in pairs:
            if pair.det is not None:
                self.texts.pop(pair.det.label, None)


def find_schema(members: Sequence[Member], opts: LoadOptions) -> Schema:
    """The detection schema over ``members`` (inferred over all of them unless forced by
    ``opts.det_confidence`` / ``opts.det_transcription``)."""
    out = Schema()
    out.evidence, out.texts = det_schema(list(members), out.problems)
    out.schema = out.evidence.schema(opts.forced)
    return out


# Detection files under this many bytes in all: their scans are kept between finding the
# schema and reading (about 15 bytes held per byte of plain QUAD lines); above, each file is
# scanned again when read, so that 1 M detections do not hold 500 MB of scans at once.
KEEP_SCANS = 8 * 2**20
_SCHEMA_RUN = 1024  # detection files whose scans are held at once above ``KEEP_SCANS``


def schema_of(members: Sequence[Member], opts: LoadOptions, keep: int | None = None) -> Schema:
    """``find_schema``, its files' texts kept only when the files hold at most ``keep``
    bytes (default ``KEEP_SCANS``); else found a run of files at a time, the schema,
    evidence and problems kept (the same as over all at once: ``metrics.run.sharded``
    splits it the same way)."""
    if sum(len(m.data) for m in members) <= (KEEP_SCANS if keep is None else keep):
        return find_schema(members, opts)
    evidence, problems = SchemaEvidence(), list[Problem]()
    for k in range(0, len(members), _SCHEMA_RUN):
        part = find_schema(members[k : k + _SCHEMA_RUN], opts)
        evidence = evidence | part.evidence
        problems.extend(part.problems)
    return Schema(evidence.schema(opts.forced), evidence, problems=problems)


def read_pairs(
    plan: IcdarPlan, pairs: Sequence[Pair], found: Schema
) -> tuple[list[Sample], list[Problem]]:
    """The samples of ``pairs`` and the problems met reading them (file order, then line)."""
    opts, problems, samples = plan.opts, list[Problem](), []
    gts = plain_files([p.gt for p in pairs], opts.gt_box_type)
    dets = plain_files([p.det for p in pairs], opts.det_box_type, found.schema, found.texts)
    lines = plain_files([p.lines for p in pairs], opts.gt_box_type)
    for p, g, d, t in zip(pairs, gts, dets, lines, strict=True):
        gm, dm, tm = p.gt, p.det, p.lines
        samples.append(
            Sample(
                id=p.id,
                gt=read_gt(gm, p.id, opts.gt_box_type, problems) if g is None else g,
                det=(
                    read_det(
                        dm,
                        p.id,
                        found.schema,
                        opts.det_box_type,
                        problems,
                        found.texts.get(dm.label),
                    )
                    if d is None
                    else d
                )
                if dm
                else (),
                gt_source=gm.label,
                det_source=dm.label if dm else None,
                gt_lines=(read_gt(tm, p.id, opts.gt_box_type, problems) if t is None else t)
                if tm
                else (() if plan.has_lines else None),
                gt_lines_source=tm.label if tm else None,
                image=p.image,
            )
        )
    return settle(samples, opts.floats), problems


SWAPPED = "--gt and --det look swapped"  # the viewer refuses such a set, as the CLI does


def _swapped(
    gt: PathLike, det: PathLike | None, gts: list[Member], dets: list[Member]
) -> list[Problem]:
    """Every GT file named ``res_*`` and every detection file ``gt_*`` (the ICDAR names the
    other way round): --gt and --det look swapped. Said first, as an error of the whole set,
    before the errors that reading them gives (a transcription read as a confidence)."""

    if not (_named(gts, "res_") and _named(dets, "gt_")):
        return []
    why = f"{SWAPPED}: the GT files are named res_*.txt and the detection files ({det}) gt_*.txt"
    return [Problem(Severity.ERROR, str(gt), None, why)]


GT_AS_DET = "--det looks like a GT set"


def _gt_as_det(det: PathLike | None, dets: list[Member]) -> list[Problem]:
    """Detection files all named ``gt_*`` or holding ``###`` (don't-care) lines: a GT set
    given as --det (another dataset's GT gives zeros without a word). A warning: comparing
    two annotations, or the GT with itself, is a choice."""
    names = _named(dets, "gt_")
    dc = sum(m.data.count(b"###") for m in dets)
    if not (names or dc):
        return []
    said = (["its files are named gt_*.txt"] if names else []) + (
        [f"{dc} of its lines are ### (don't care)"] if dc else []
    )
    why = f"{GT_AS_DET}: {' and '.join(said)}; its boxes are scored as detections" + (
        ", ### ones too" if dc else ""
    )
    return [Problem(Severity.WARNING, str(det), None, why)]


def _named(members: list[Member], prefix: str) -> bool:
    return bool(members) and all(Path(m.name).name.lower().startswith(prefix) for m in members)


def _index_gt(members: list[Member], problems: list[Problem]) -> dict[str, Member]:
    by_id: dict[str, Member] = {}
    for m in members:
        sid = gt_id(m.name)
        if sid in by_id:
            problems.append(
                located_error(
                    m,
                    None,
                    f"two GT files give the sample id {sid!r} (also {by_id[sid].label})",
                    sid,
                )
            )
            continue
        by_id[sid] = m
    return by_id


def _pair(
    members: list[Member], matcher: IdMatcher, what: str, problems: list[Problem]
) -> dict[str, Member]:
    out: dict[str, Member] = {}
    for m in members:
        sid = matcher.match(m.name)
        if sid is None:
            problems.append(
                located_error(
                    m,
                    None,
                    f"{what} file matches no GT file (ids look like "
                    f"{sorted(matcher.ids, key=natural_key)[:3]})",
                    None,
                )
            )
        elif sid in out:
            problems.append(
                located_error(
                    m,
                    None,
                    f"{what} file gives sample id {sid!r} again (also {out[sid].label})",
                    sid,
                )
            )
        else:
            out[sid] = m
    return out


def images_by_id(path: PathLike, matcher: IdMatcher, problems: list[Problem]) -> dict[str, str]:
    """Image files of a folder paired with the sample ids (first file of an id wins)."""
    p = Path(path)
    if not p.is_dir():
        problems.append(Problem(Severity.ERROR, str(p), None, "images: not a folder"))
        return {}
    out: dict[str, str] = {}
    try:
        images = image_files(p, problems)  # regular files only: a pipe would block its reader
    except OSError as exc:
        problems.append(Problem(Severity.ERROR, str(p), None, f"images: cannot read: {exc}"))
        return {}
    for f in images:
        sid = matcher.match(f.name, prefixes=())
        if sid is not None:
            out.setdefault(sid, str(f))
    if 2 * len(out) < len(matcher.ids):
        problems.append(_few_images(p, images, out, matcher))
    return out


def _few_images(
    folder: Path, images: list[Path], paired: dict[str, str], matcher: IdMatcher
) -> Problem:
    """Fewer than half of the GT files have an image: another dataset's images?"""
    ids = sorted(matcher.ids, key=natural_key)[:3]
    if not images:
        why = f"no image file ({', '.join(IMAGE_SUFFIXES)}) in this folder"
    else:
        names = ", ".join(f.name for f in images[:3])
        why = (
            f"{len(paired)} of {len(matcher.ids)} GT files pair with one of its "
            f"{len(images)} images (names like {names}; GT ids like {', '.join(ids)}): "
            "the images of another dataset?"
        )
    return Problem(Severity.WARNING, str(folder), None, f"images: {why}")
