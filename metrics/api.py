"""The Python API: ``metrics.evaluate(gt, det, metric=..., **params)`` for one metric and
``metrics.evaluate_all(gt, det, **params)`` for every metric that applies."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping, Sequence

from metrics.catalogue.registry import applicable, resolve
from metrics.core.logs import logger
from metrics.core.model import Dataset
from metrics.core.protocols import Params
from metrics.core.results import Evaluation
from metrics.declare.spec import MetricSpec
from metrics.io.reader import load_dataset
from metrics.run.runner import Policy, plan_all, run

log = logger(__name__)

Source = str | os.PathLike[str]


def evaluate(
    gt: Source | Dataset,
    det: Source | None = None,
    *,
    metric: str = "ic15_iou",
    gt_lines: Source | None = None,
    policy: Policy = "strict",
    workers: int = 1,
    **params: object,
) -> Evaluation[Params]:
    """Evaluate detections against GT with one metric (id or alias).

    ``gt`` may be a path (zip or folder) or an already loaded Dataset. Keyword arguments
    other than the named ones are the metric's parameters, e.g. ``tolerance=0`` for TIoU.
    Every metric that applies: ``evaluate_all``.
    """
    if metric.strip().lower() == "all":
        raise ValueError("metric='all' gives several evaluations: call evaluate_all")
    ds = gt if isinstance(gt, Dataset) else load_dataset(gt, det, gt_lines=gt_lines)
    spec = resolve(metric)
    return run(ds, [spec], {spec.id: params}, policy=policy, workers=workers)[0]


def evaluate_all(
    gt: Source | Dataset,
    det: Source | None = None,
    *,
    gt_lines: Source | None = None,
    policy: Policy = "strict",
    workers: int = 1,
    **params: object,
) -> list[Evaluation[Params]]:
    """Evaluate detections against GT with every metric that applies (the plan of
    ``--metric all``: metrics refusing every image are left out, with a logged note). A
    parameter keyword goes to every metric that has it."""
    ds = gt if isinstance(gt, Dataset) else load_dataset(gt, det, gt_lines=gt_lines)
    specs = applicable(ds)
    overrides = _only_known(specs, params)
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


def _only_known(
    specs: Sequence[MetricSpec[Params]], params: Mapping[str, object]
) -> dict[str, dict[str, object]]:
    """Each metric's share of ``params``: the keys its Params declare."""
    out = {}
    for s in specs:
        names = {f.name for f in dataclasses.fields(s.params_type)}
        out[s.id] = {k: v for k, v in params.items() if k in names}
    return out
