"""``detlens check``: everything in a dataset that makes the official scripts fail or
silently changes their numbers, located by file and 1-based line (spec 0 and 6.1).

``check_dataset(dataset)`` returns the findings, worst first; nothing here draws or prints
(``metrics.cli.check`` prints, the viewer's Problems panel lists and draws them).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

import numpy as np

from metrics.check.boxes import duplicates, mixed_types, outside
from metrics.check.demo import is_demo, label_demo
from metrics.check.diagnose import gt_as_det, why_zero
from metrics.check.findings import RANK, Finding, Level
from metrics.check.images import image_size, misfit
from metrics.check.readers import metric_findings, pairing_findings, reader_findings
from metrics.check.shapes import shape_findings
from metrics.core.model import Dataset
from metrics.declare.spec import polygon_data

__all__ = ["Finding", "Level", "check_dataset", "exit_code", "image_size", "image_sizes"]


def image_sizes(ds: Dataset) -> dict[str, tuple[int, int]]:
    """(width, height) of each sample's image, read from its header."""
    out = {}
    for s in ds:
        size = image_size(s.image) if s.image else None
        if size is not None:
            out[s.id] = size
    return out


def check_dataset(ds: Dataset, *, with_metrics: bool = True) -> list[Finding]:
    """Every finding on ``ds``: per box, per file, per dataset; sorted by severity, then by
    sample and line (stable otherwise). Degenerate boxes (zero area, one point) make some
    statistics NaN: numpy's floating-point warnings are off here (``np.errstate`` is
    per thread; ``detlens check`` also hides numpy's other RuntimeWarnings)."""
    with np.errstate(all="ignore"):
        return _check(ds, with_metrics)


def _check(ds: Dataset, with_metrics: bool) -> list[Finding]:
    sizes = image_sizes(ds)
    found: list[Finding] = list(reader_findings(ds))
    found.extend(pairing_findings(ds))
    for s in ds:
        found.extend(shape_findings(s))
        found.extend(duplicates(s))
        found.extend(mixed_types(s))
        if s.id in sizes:
            found.extend(outside(s, sizes[s.id]))
    found.extend(misfit(ds, sizes))
    found.extend(gt_as_det(ds))
    found.extend(why_zero(ds, sizes))
    if with_metrics:
        found.extend(metric_findings(ds))
    if polygon_data(ds):  # the curved metrics want the reverse of the ICDAR order
        found = [_for_polygon_data(f) for f in found]
    if is_demo(ds):  # what the demo shows on purpose is labelled so
        found = label_demo(found)
    order = {s.id: k for k, s in enumerate(ds)}
    return sorted(
        found,
        key=lambda f: (RANK[f.level], order.get(f.sample_id or "", -1), f.side or "", f.line or 0),
    )


def _for_polygon_data(f: Finding) -> Finding:
    if f.code != "ccw_quad":
        return f
    note = "; on polygon data the curved metrics read this order"
    return dataclasses.replace(f, level=Level.INFO, message=f.message + note)


def exit_code(findings: Iterable[Finding]) -> int:
    """0 when nothing is above info, 1 when there are warnings or errors."""
    return 1 if any(f.level is not Level.INFO for f in findings) else 0
