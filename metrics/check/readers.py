"""Findings from reading and pairing: lines the reader refused, detection files that pair
with no GT file, GT files without detections, and which metrics can read the data."""

from __future__ import annotations

from collections.abc import Iterator

from metrics.catalogue.registry import METRICS
from metrics.check.findings import Finding, Level
from metrics.core.model import Dataset, Problem, Severity
from metrics.core.protocols import Params
from metrics.declare.spec import MetricSpec
from metrics.io.icdar.plan import GT_AS_DET, SWAPPED
from metrics.io.reader import geometry_warnings
from metrics.run.runner import plan_all


def _code(p: Problem) -> str:
    if "matches no GT file" in p.message:
        return "det_without_gt"
    if p.message.startswith("images:"):
        return "images"
    if p.message.startswith(SWAPPED):
        return "gt_det_swapped"
    if p.line is not None:
        return "unreadable_line"
    return "unreadable_file"


def reader_findings(ds: Dataset) -> Iterator[Finding]:
    """The reader's problems (its geometry warnings aside: the checker has its own; a GT set
    given as detections is said with a box-match rate by ``diagnose.gt_as_det``)."""
    own = set(geometry_warnings(list(ds.samples)))
    for p in ds.problems:
        if p in own or p.message.startswith(GT_AS_DET):
            continue
        level = Level.ERROR if p.severity is Severity.ERROR else Level.WARNING
        yield Finding(level, _code(p), p.message, p.source, p.line, p.sample_id)


def pairing_findings(ds: Dataset) -> Iterator[Finding]:
    """GT files that no detection file pairs with (their GTs all count as missed)."""
    if ds.det_path is None or not any(s.det_source for s in ds):
        return
    for s in ds:
        if s.det_source is None:
            yield Finding(
                Level.WARNING,
                "gt_without_det",
                f"no detection file for this GT file: its {s.n_gt_care} care GT(s) count as missed",
                s.gt_source,
                None,
                s.id,
            )


def _reason(spec: MetricSpec[Params]) -> str:
    doc = spec.requires or (spec.applies.__doc__ or "other inputs").strip().split("\n\n")[0]
    return " ".join(doc.split()).rstrip(".").replace("``", "") or "other inputs"


def metric_findings(ds: Dataset) -> Iterator[Finding]:
    """Which metrics read the data as it is, which skip images, which cannot read it, and
    which are meant for other data (the plan of ``detlens eval --metric all``)."""
    offered = [s for s in METRICS.values() if s.applies(ds)]
    plan = plan_all(ds, offered)
    clean = [s.id for s in plan.specs if s.id not in plan.lenient]
    if clean:
        yield Finding(Level.INFO, "metrics_read", f"read as it is by: {', '.join(clean)}")
    for sid in sorted(plan.lenient):
        errors = [p for p in plan.validated[sid] if p.severity is Severity.ERROR]
        bad = sorted({p.sample_id for p in errors if p.sample_id})
        yield Finding(
            Level.WARNING,
            "metric_skips",
            f"{sid} skips {len(bad)} image(s) it cannot read; first: {errors[0]}",
            errors[0].source,
            errors[0].line,
            errors[0].sample_id,
        )
    for sid, why in plan.left_out.items():
        yield Finding(Level.WARNING, "metric_cannot_read", f"{sid} cannot read these inputs: {why}")
    for note in plan.notes:
        if "evaluated with" in note:
            yield Finding(Level.INFO, "metric_fallback", note)
    others = [s for s in METRICS.values() if s not in offered and not s.needs_gt_lines]
    by_reason: dict[str, list[str]] = {}
    for spec in others:
        by_reason.setdefault(_reason(spec), []).append(spec.id)
    for why, ids in by_reason.items():
        yield Finding(
            Level.INFO,
            "metrics_not_meant",
            f"not offered, meant for other data: {', '.join(ids)} ({why})",
        )
