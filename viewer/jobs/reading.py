"""Reading a set for the viewer (no Qt here): an ICDAR txt set is paired first, its sample
ids handed over before a single box is read (the table lists them at once), then read in
runs of samples, so that no single array call over the whole set holds the interpreter
(and the window) for long. The dataset is the one ``metrics.io.reader.load_dataset``
gives: the same samples, and the same problems in the same order (reading a run of pairs
gives what reading the whole set gives for them; ``metrics.io.icdar.plan``). Other formats
are read by ``load_dataset`` in one go.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from metrics.core.model import Dataset
from metrics.io.formats import ICDAR
from metrics.io.formats.base import forget_parsed
from metrics.io.formats.detect import detect
from metrics.io.icdar.plan import Schema, find_schema, plan_icdar
from metrics.io.reader import load_dataset, read_planned
from viewer.app.paths import DatasetPaths

RUN = 250  # samples read (and their geometry checked) at a time
Paired = Callable[[Sequence[str]], None]


def read_set(paths: DatasetPaths, paired: Paired | None = None) -> Dataset:
    """The dataset at ``paths``; ``paired`` gets the sample ids in dataset order as soon as
    the files are paired (ICDAR txt sets only: other formats say nothing before the end)."""
    p = paths
    opts = p.options()
    gfound = detect(p.gt, "gt", opts.gt_format)
    dfound = None if p.det is None else detect(p.det, "det", opts.det_format)
    if gfound.format is not ICDAR or (dfound is not None and dfound.format is not ICDAR):
        return load_dataset(p.gt, p.det, gt_lines=p.gt_lines, images=p.images, options=opts)
    try:
        plan = plan_icdar(p.gt, p.det, gfound, dfound, p.gt_lines, p.images, opts)
        if paired is not None:
            paired([pair.id for pair in plan.pairs])
        found = find_schema(plan.det_members, opts) if plan.has_det else Schema()
        return read_planned(plan, found, run=RUN)
    finally:
        forget_parsed()
