"""Load a dataset: GT, detections, optional text-line GT and images, paired by sample id.

Problems never stop the reading: every bad line is reported (archive member + 1-based line)
and left out, and the caller applies the policy of spec 6.1 (``strict`` refuses the whole
evaluation, ``skip_sample`` drops the samples that have errors).
"""

from __future__ import annotations

import dataclasses
import functools
import operator
import os

import numpy as np
import shapely

from metrics.core.arrays import stacked
from metrics.core.floats import settle
from metrics.core.model import Dataset, FloatArray, Instance, Problem, Sample, Severity
from metrics.io.archive import Member
from metrics.io.formats import ICDAR, Entry, Role
from metrics.io.formats import load as formats
from metrics.io.formats.base import forget_parsed
from metrics.io.formats.detect import Detected, detect
from metrics.io.icdar.files import read_det, read_gt
from metrics.io.icdar.plan import (
    IcdarPlan,
    LoadOptions,
    Schema,
    find_schema,
    images_by_id,
    plan_icdar,
    read_pairs,
    schema_of,
)
from metrics.io.pairing import IdMatcher, gt_id, stem
from metrics.shapes.geometry import signed_areas
from metrics.shapes.quads import is_convex_quad
from metrics.shapes.validity import valid_of

PathLike = str | os.PathLike[str]

__all__ = ["LoadOptions", "geometry_warnings", "load_dataset", "read_planned"]

_READ_RUN = 1024  # pairs read (and their scans dropped) at a time


def _suspect(rings: list[FloatArray]) -> tuple[np.ndarray, np.ndarray]:
    """Zero-area rings, and rings that may self-intersect (all but convex quads); the quads
    stacked once for both (their areas as ``signed_areas`` computes them)."""
    quads = np.fromiter((len(r) == 4 for r in rings), dtype=bool, count=len(rings))
    convex = np.zeros(len(rings), dtype=bool)
    area = np.zeros(len(rings))
    if quads.any():
        stack = stacked([r for r, q in zip(rings, quads, strict=True) if q], 4)
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
        invalid[idx] = ~valid_of([rings[k] for k in idx])
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
    JSON (``metrics.io.formats.hiertext``; the detections then in the same format).
    Each side's format is detected from its content (``metrics.io.formats.detect``) unless forced
    in ``options``; ICDAR txt on both sides is read here exactly as before, HierText JSON on
    both by ``metrics.io.formats.hiertext``, every other combination by ``metrics.io.formats.load``.
    """
    try:
        return _load(gt, det, gt_lines, images, options or LoadOptions(), name)
    finally:
        forget_parsed()


def _hiertext(found: Detected) -> bool:
    """Whether a side is HierText JSON (``formats.HIERTEXT``, not imported for other sets)."""
    return found.format.name == "hiertext"


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
    if _hiertext(gfound) and (dfound is None or _hiertext(dfound)):
        from metrics.io.formats.hiertext import load_hiertext  # JSON: loaded only for it

        ds = _forced_fields(load_hiertext(gt, det, name=name), opts)
        return _settled(_with_images(ds, images), opts)
    if gfound.format is not ICDAR or (dfound is not None and dfound.format is not ICDAR):
        icdar = functools.partial(_icdar_entries, opts=opts)
        sources = formats.Sources(gt, det, gt_lines, images)
        ds = formats.load_formats(sources, (gfound, dfound), icdar, geometry_warnings)
        if dfound is not None and dfound.format is not ICDAR:
            ds = _forced_fields(ds, opts)
        return _settled(dataclasses.replace(ds, name=name, _index={}), opts)
    plan = plan_icdar(gt, det, gfound, dfound, gt_lines, images, opts)
    found = schema_of(plan.det_members, opts) if plan.has_det else Schema()
    return read_planned(plan, found, run=_READ_RUN, name=name)


def read_planned(
    plan: IcdarPlan, found: Schema, *, run: int | None = None, name: str = ""
) -> Dataset:
    """The dataset of a paired ICDAR set, its pairs read ``run`` at a time (all at once by
    default; the viewer reads in runs so that no call over the whole set holds the
    interpreter long) and their geometry checked per run; the scans of files read are
    dropped as it goes. The same samples and problems whatever ``run`` is."""
    samples: list[Sample] = []
    read: list[Problem] = []
    shapes: list[Problem] = []
    step = run or max(1, len(plan.pairs))
    again = set(found.problems)  # a file read without its scan reports its bytes again
    for k in range(0, len(plan.pairs), step):
        pairs = plan.pairs[k : k + step]
        done, problems = read_pairs(plan, pairs, found)
        samples.extend(done)
        read.extend(p for p in problems if p not in again)
        shapes.extend(geometry_warnings(done))
        found.forget(pairs)
    return Dataset(
        tuple(samples),
        (*plan.problems_with(found.problems), *read, *shapes),
        gt_path=plan.gt_path,
        det_path=plan.det_path,
        gt_lines_path=plan.gt_lines_path,
        images_path=plan.images_path,
        name=name,
    )


def _settled(ds: Dataset, opts: LoadOptions) -> Dataset:
    """The dataset with its non-integer coordinates made what ``--floats`` says."""
    samples = tuple(settle(ds.samples, opts.floats))
    if all(map(operator.is_, samples, ds.samples)):
        return ds
    return dataclasses.replace(ds, samples=samples, _index={})


def _forced_fields(ds: Dataset, opts: LoadOptions) -> Dataset:
    """Detections of a format that names its fields (JSON, PaddleOCR) without the
    confidences or transcriptions that ``det_confidence`` / ``det_transcription`` = False
    leave out (ICDAR txt lines are read with them already)."""
    drop_conf, drop_text = opts.det_confidence is False, opts.det_transcription is False
    if not (drop_conf or drop_text):
        return ds

    def strip(inst: Instance) -> Instance:
        return dataclasses.replace(
            inst,
            confidence=None if drop_conf else inst.confidence,
            text=None if drop_text else inst.text,
        )

    samples = tuple(dataclasses.replace(s, det=tuple(map(strip, s.det))) for s in ds)
    return dataclasses.replace(ds, samples=samples, _index={})


def _with_images(ds: Dataset, images: PathLike | None) -> Dataset:
    """The dataset with each sample's image (paired by sample id) when a folder is given."""
    if images is None:
        return ds
    problems = list(ds.problems)
    found = images_by_id(images, IdMatcher(s.id for s in ds), problems)
    samples = tuple(dataclasses.replace(s, image=found.get(s.id)) for s in ds)
    return dataclasses.replace(
        ds, samples=samples, problems=tuple(problems), images_path=str(images), _index={}
    )


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
    found = find_schema(members, opts)
    problems.extend(found.problems)
    return [
        Entry(
            stem(m.name),
            read_det(
                m, stem(m.name), found.schema, opts.det_box_type, problems, found.texts[m.label]
            ),
            m.label,
        )
        for m in members
    ]
