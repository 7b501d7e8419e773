"""The Python API: ``metrics.evaluate(gt, det, metric=..., **params)``."""

from __future__ import annotations

import logging
import os
from typing import Any

from metrics.core.model import Dataset
from metrics.core.results import Evaluation
from metrics.io.reader import load_dataset
from metrics.registry import applicable, resolve
from metrics.run.runner import Policy, plan_all, run

log = logging.getLogger(__name__)


def evaluate(
    gt: str | os.PathLike[str] | Dataset,
    det: str | os.PathLike[str] | None = None,
    *,
    metric: str = "ic15_iou",
    gt_lines: str | os.PathLike[str] | None = None,
    policy: Policy = "strict",
    workers: int = 1,
    **params: Any,
) -> Evaluation | list[Evaluation]:
    """Evaluate detections against GT with one metric (or ``"all"`` that apply).

    ``gt`` may be a path (zip or folder) or an already loaded Dataset. Keyword arguments
    other than the named ones are the metric's parameters, e.g. ``tolerance=0`` for TIoU.
    Returns one Evaluation, or a list of them for ``metric="all"``.
    """
    ds = gt if isinstance(gt, Dataset) else load_dataset(gt, det, gt_lines=gt_lines)
    if metric == "all":
        specs = applicable(ds)
        overrides = _only_known(specs, {s.id: dict(params) for s in specs})
        plan = plan_all(ds, specs, overrides)
        for note in plan.notes:
            log.warning("%s", note)
        return run(
            ds,
            plan.specs,
            overrides,
            policy=policy,
            workers=workers,
            lenient=plan.lenient,
            validated=plan.validated,
        )
    spec = resolve(metric)
    return run(ds, [spec], {spec.id: params}, policy=policy, workers=workers)[0]


def _only_known(
    specs: list[Any], overrides: dict[str, dict[str, Any]]
) -> dict[str, dict[str, Any]]:
    import dataclasses

    out = {}
    for s in specs:
        names = {f.name for f in dataclasses.fields(s.params_type)}
        out[s.id] = {k: v for k, v in overrides[s.id].items() if k in names}
    return out
