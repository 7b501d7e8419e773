"""Reading a set for the viewer (no Qt here): an ICDAR txt set is paired first, its sample
ids handed over before a single box is read (the table lists them at once), then read in
runs of samples, so that no single array call over the whole set holds the interpreter
(and the window) for long. The dataset is the one ``metrics.io.reader.load_dataset``
gives: the same samples, and the same problems in the same order (reading a run of pairs
gives what reading the whole set gives for them; ``metrics.io.icdar_plan``). Other formats
are read by ``load_dataset`` in one go.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from metrics.io.detect import detect
from metrics.io.formats import ICDAR
from metrics.io.formats.base import forget_parsed
from metrics.io.icdar_plan import (
    LoadOptions,
    Pair,
    Schema,
    find_schema,
    plan_icdar,
    read_pairs,
)
from metrics.io.reader import geometry_warnings, load_dataset
from metrics.model import Dataset, Problem, Sample
from viewer.paths import DatasetPaths

RUN = 250  # samples read (and their geometry checked) at a time
Paired = Callable[[Sequence[str]], None]


def read_set(paths: DatasetPaths, paired: Paired | None = None) -> Dataset:
    """The dataset at ``paths``; ``paired`` gets the sample ids in dataset order as soon as
    the files are paired (ICDAR txt sets only: other formats say nothing before the end)."""
    p = paths
    gfound = detect(p.gt, "gt")
    dfound = None if p.det is None else detect(p.det, "det")
    if gfound.format is not ICDAR or (dfound is not None and dfound.format is not ICDAR):
        return load_dataset(p.gt, p.det, gt_lines=p.gt_lines, images=p.images)
    opts = LoadOptions()
    try:
        plan = plan_icdar(p.gt, p.det, gfound, dfound, p.gt_lines, p.images, opts)
        if paired is not None:
            paired([pair.id for pair in plan.pairs])
        found = find_schema(plan.det_members, opts) if plan.has_det else Schema()
        samples: list[Sample] = []
        read: list[Problem] = []
        shapes: list[Problem] = []
        for k in range(0, len(plan.pairs), RUN):
            pairs = plan.pairs[k : k + RUN]
            run, problems = read_pairs(plan, pairs, found)
            samples.extend(run)
            read.extend(problems)
            shapes.extend(geometry_warnings(run))
            _forget(found, pairs)
    finally:
        forget_parsed()
    head = plan.head
    return Dataset(
        tuple(samples),
        (*plan.problems[:head], *found.problems, *plan.problems[head:], *read, *shapes),
        gt_path=plan.gt_path,
        det_path=plan.det_path,
        gt_lines_path=plan.gt_lines_path,
        images_path=plan.images_path,
    )


def _forget(found: Schema, pairs: Sequence[Pair]) -> None:
    """Drop the scans of files read (freeing 25,000 of them at once held the interpreter
    for 0.17 s)."""
    for pair in pairs:
        if pair.det is not None:
            found.scans.pop(pair.det.label, None)
            found.lines.pop(pair.det.label, None)
