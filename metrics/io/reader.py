"""Load a dataset: GT, detections, optional text-line GT and images, paired by sample id.

Problems never stop the reading: every bad line is reported (archive member + 1-based line)
and left out, and the caller applies the policy of spec 6.1 (``strict`` refuses the whole
evaluation, ``skip_sample`` drops the samples that have errors).
"""

from __future__ import annotations

import dataclasses
import functools
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import shapely

from metrics.geometry import polygons, signed_areas
from metrics.io.archive import IMAGE_SUFFIXES, Line, Member, read_members
from metrics.io.detect import Detected, detect
from metrics.io.filelines import Scan, scan_plain
from metrics.io.formats import HIERTEXT, ICDAR, Entry, Role
from metrics.io.formats import load as formats
from metrics.io.formats.base import forget_parsed
from metrics.io.hiertext import load_hiertext
from metrics.io.icdar_files import det_schema, located_error, read_det, read_gt
from metrics.io.lines import (
    DetSchema,
)
from metrics.io.pairing import IdMatcher, gt_id, natural_key, stem
from metrics.model import (
    BoxType,
    Dataset,
    FloatArray,
    InputError,
    Problem,
    Sample,
    Severity,
)
from metrics.quads import is_convex_quad

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
    """

    gt_box_type: BoxType | None = None
    det_box_type: BoxType | None = None
    det_confidence: bool | None = None
    det_transcription: bool | None = None
    gt_format: str | None = None
    det_format: str | None = None


def _forced(opts: LoadOptions) -> tuple[bool | None, bool | None]:
    return opts.det_confidence, opts.det_transcription


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


def _images(path: PathLike, matcher: IdMatcher, problems: list[Problem]) -> dict[str, str]:
    p = Path(path)
    if not p.is_dir():
        problems.append(Problem(Severity.ERROR, str(p), None, "images: not a folder"))
        return {}
    out: dict[str, str] = {}
    try:
        files = sorted(p.iterdir())
    except OSError as exc:
        problems.append(Problem(Severity.ERROR, str(p), None, f"images: cannot read: {exc}"))
        return {}
    for f in files:
        if f.suffix.lower() in IMAGE_SUFFIXES:
            sid = matcher.match(f.name, prefixes=())
            if sid is not None:
                out.setdefault(sid, str(f))
    return out


def _suspect(rings: list[FloatArray]) -> tuple[np.ndarray, np.ndarray]:
    """Zero-area rings, and rings that may self-intersect (all but convex quads); the quads
    stacked once for both (their areas as ``signed_areas`` computes them)."""
    quads = np.fromiter((len(r) == 4 for r in rings), dtype=bool, count=len(rings))
    convex = np.zeros(len(rings), dtype=bool)
    area = np.zeros(len(rings))
    if quads.any():
        stack = np.stack([r for r, q in zip(rings, quads, strict=True) if q])
        convex[quads] = is_convex_quad(stack)
        x, y = stack[:, :, 0], stack[:, :, 1]
        nxt = (np.arange(4) + 1) % 4
        area[quads] = 0.5 * np.sum(x * y[:, nxt] - x[:, nxt] * y, axis=1)
    if not quads.all():
        area[~quads] = signed_areas([r for r, q in zip(rings, quads, strict=True) if not q])
    return area == 0, ~convex


def geometry_warnings(samples: list[Sample]) -> list[Problem]:
    """Warnings for zero-area and self-intersecting polygons (evaluated anyway, spec 6.1).

    Convex quads (nearly every box) are cleared with array arithmetic; GEOS checks the rest.
    """
    items = [
        (s, src, inst)
        for s in samples
        for src, insts in (
            (s.gt_source, s.gt),
            (s.det_source, s.det),
            (s.gt_lines_source, s.gt_lines or ()),
        )
        for inst in insts
    ]
    if not items:
        return []
    rings = [inst.points for _, _, inst in items]
    zero, check = _suspect(rings)
    invalid = np.zeros(len(rings), dtype=bool)
    idx = np.flatnonzero(check)
    if len(idx):
        _, bad = polygons([rings[k] for k in idx])
        invalid[idx] = bad
    out = []
    for k in np.flatnonzero(invalid | zero):
        s, src, inst = items[k]
        parts = ["has zero area"] if zero[k] else []
        if invalid[k]:
            reason = shapely.is_valid_reason(shapely.Polygon(inst.points))
            parts.append(f"is self-intersecting ({reason})")
        what = (
            " and ".join(parts) + " - evaluated with the official semantics (cancelled "
            "area, even-odd clipping)"
        )
        out.append(
            Problem(
                Severity.WARNING,
                src or s.id,
                inst.line,
                f"{inst.box_type.value} polygon {what}",
                s.id,
            )
        )
    return out


def load_dataset(
    gt: PathLike,
    det: PathLike | None = None,
    *,
    gt_lines: PathLike | None = None,
    images: PathLike | None = None,
    options: LoadOptions | None = None,
    name: str = "",
) -> Dataset:
    """Read GT (and detections, text lines, images) from zips or folders.

    Raises InputError only when a path itself cannot be read; line-level problems are
    returned in ``Dataset.problems``. A GT file holding a JSON object is read as HierText
    JSON (``metrics.io.hiertext``; the detections then in the same format).
    Each side's format is detected from its content (``metrics.io.detect``) unless forced
    in ``options``; ICDAR txt on both sides is read here exactly as before, HierText JSON on
    both by ``metrics.io.hiertext``, every other combination by ``metrics.io.formats.load``.
    """
    try:
        return _load(gt, det, gt_lines, images, options or LoadOptions(), name)
    finally:
        forget_parsed()


def _load(
    gt: PathLike,
    det: PathLike | None,
    gt_lines: PathLike | None,
    images: PathLike | None,
    opts: LoadOptions,
    name: str,
) -> Dataset:
    gfound = detect(gt, "gt", opts.gt_format)
    dfound = None if det is None else detect(det, "det", opts.det_format)
    if gfound.format is HIERTEXT and (dfound is None or dfound.format is HIERTEXT):
        return _with_images(load_hiertext(gt, det, name=name), images)
    if gfound.format is not ICDAR or (dfound is not None and dfound.format is not ICDAR):
        icdar = functools.partial(_icdar_entries, opts=opts)
        sources = formats.Sources(gt, det, gt_lines, images)
        ds = formats.load_formats(sources, (gfound, dfound), icdar, geometry_warnings)
        return dataclasses.replace(ds, name=name, _index={})
    problems: list[Problem] = []
    gt_by_id = _index_gt(_txt(gfound), problems)
    if not gt_by_id:
        raise InputError([Problem(Severity.ERROR, str(gt), None, "no GT .txt files found")])
    matcher = IdMatcher(gt_by_id)
    det_by_id: dict[str, Member] = {}
    schema = DetSchema()
    det_lines: dict[str, list[Line]] = {}
    scans: dict[str, Scan | None] = {}
    if det is not None:
        det_members = _txt(dfound) if dfound is not None else []
        scans = {m.label: scan_plain(m.data) for m in det_members}
        schema, det_lines = det_schema(det_members, scans, _forced(opts), problems)
        det_by_id = _pair(det_members, matcher, "detection", problems)
    lines_by_id = (
        _pair(read_members(gt_lines), matcher, "text-line GT", problems)
        if gt_lines is not None
        else {}
    )
    image_by_id = _images(images, matcher, problems) if images is not None else {}
    samples = []
    for sid in sorted(gt_by_id, key=natural_key):
        g, d, t = gt_by_id[sid], det_by_id.get(sid), lines_by_id.get(sid)
        samples.append(
            Sample(
                id=sid,
                gt=read_gt(g, sid, opts.gt_box_type, problems),
                det=read_det(
                    d,
                    det_lines.get(d.label),
                    sid,
                    schema,
                    opts.det_box_type,
                    problems,
                    scans[d.label],
                )
                if d
                else (),
                gt_source=g.label,
                det_source=d.label if d else None,
                gt_lines=read_gt(t, sid, opts.gt_box_type, problems)
                if t
                else (() if gt_lines is not None else None),
                gt_lines_source=t.label if t else None,
                image=image_by_id.get(sid),
            )
        )
    problems.extend(geometry_warnings(samples))
    return Dataset(
        tuple(samples),
        tuple(problems),
        gt_path=str(gt),
        det_path=None if det is None else str(det),
        gt_lines_path=None if gt_lines is None else str(gt_lines),
        images_path=None if images is None else str(images),
        name=name,
    )


def _with_images(ds: Dataset, images: PathLike | None) -> Dataset:
    """The dataset with each sample's image (paired by sample id) when a folder is given."""
    if images is None:
        return ds
    problems = list(ds.problems)
    found = _images(images, IdMatcher(s.id for s in ds), problems)
    samples = tuple(dataclasses.replace(s, image=found.get(s.id)) for s in ds)
    return dataclasses.replace(
        ds, samples=samples, problems=tuple(problems), images_path=str(images), _index={}
    )


def _txt(found: Detected) -> list[Member]:
    """The .txt files of an ICDAR set (other files are not read, as before)."""
    return [m for m in found.members + found.ignored if m.name.lower().endswith(".txt")]


def _icdar_entries(
    members: list[Member], role: Role, problems: list[Problem], opts: LoadOptions
) -> list[Entry]:
    """ICDAR files as entries, for a side paired with another format."""
    if role == "gt":
        out = []
        for m in members:
            sid = gt_id(m.name)
            out.append(Entry(sid, read_gt(m, sid, opts.gt_box_type, problems), m.label))
        return out
    scans = {m.label: scan_plain(m.data) for m in members}
    schema, lines = det_schema(members, scans, _forced(opts), problems)
    return [
        Entry(
            stem(m.name),
            read_det(
                m,
                lines.get(m.label),
                stem(m.name),
                schema,
                opts.det_box_type,
                problems,
                scans[m.label],
            ),
            m.label,
        )
        for m in members
    ]
