"""Which text fails: recall per bucket of a GT attribute, precision per bucket of the same
attribute of the detections.

A bucket's recall is the mean recall credit of its care GTs (the credit the metric gave each
GT: 1 for an IoU match, the SIoU/TIoU value, DetEval's 0.8 for a split, ...), its
``found`` share the GTs matched at all; precision likewise over care detections.
Don't-care instances are left out. Buckets of the numeric attributes:

* ``height``: quartiles of the care GT heights (pixels) of the dataset, the same edges for
  the detections;
* ``aspect``: < 1, 1–2, 2–4, 4–8, ≥ 8; ``angle`` (absolute, degrees): < 5, 5–15, 15–45, ≥ 45;
* ``text_length``: 1, 2–3, 4–6, 7–10, ≥ 11 characters (GT only);
* ``shape``, ``vertical`` and reader attributes (script, language, ...): one bucket a value.

Metrics whose results index other instances than the file's boxes (HierText lines and
paragraphs) are bucketed on the instances of their view.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from metrics.analysis.attributes import attributes
from metrics.core.model import Dataset, Instance, Sample
from metrics.core.protocols import Params
from metrics.core.records import dataclass
from metrics.core.results import Evaluation, InstanceResult, Verdict
from metrics.declare.spec import MetricSpec

FIXED_EDGES = {
    "aspect": (1.0, 2.0, 4.0, 8.0),
    "angle": (5.0, 15.0, 45.0),
    "text_length": (2, 4, 7, 11),
}
ATTRIBUTES = ("height", "aspect", "angle", "shape", "vertical", "text_length")
FOUND = (Verdict.MATCHED, Verdict.PARTIAL)
Key = Callable[[Any], tuple[int, str]]


@dataclass(frozen=True)
class Bucket:
    """One bucket: its label, the GTs and detections in it, their recall and precision.

    ``gts`` lists (sample, GT index) of its care GTs, for highlighting them."""

    label: str
    n_gt: int
    recall: float
    found: float
    n_det: int
    precision: float
    gts: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class _Item:
    """One instance in a bucket: its sample, index, value, credit and whether it was found."""

    sample: str
    index: int
    value: Any
    credit: float
    found: bool


def _label(edges: Sequence[float], k: int, unit: str, integer: bool) -> str:
    def f(x: float) -> str:
        return f"{int(x)}" if integer else f"{x:g}"

    if not edges:  # no care GT to take quantiles from (a set of detections only)
        return "all"
    if k == 0:
        return f"{f(edges[0] - 1)}{unit}" if integer and edges[0] == 2 else f"< {f(edges[0])}{unit}"
    if k == len(edges):
        return f"≥ {f(edges[-1])}{unit}"
    if integer and edges[k] - edges[k - 1] == 1:
        return f"{f(edges[k - 1])}{unit}"
    hi = f"{f(edges[k] - 1)}" if integer else f(edges[k])
    return f"{f(edges[k - 1])}–{hi}{unit}"


def _items(
    ds: Dataset, ev: Evaluation[Params], spec: MetricSpec[Params] | None, attr: str, side: str
) -> list[_Item]:
    out = []
    for sid, r in ev.results.items():
        sample: Sample = ds[sid]
        if spec is not None and spec.view is not None:
            sample = spec.view(sample)
        insts: Sequence[Instance] = sample.gt if side == "gt" else sample.det
        res: Sequence[InstanceResult] = r.gt if side == "gt" else r.det
        for ir in res:
            if ir.verdict is Verdict.DONT_CARE or ir.index >= len(insts):
                continue
            value = attributes(insts[ir.index]).get(attr)
            if value is None:
                continue
            out.append(_Item(sid, ir.index, value, ir.credit, ir.verdict in FOUND))
    return out


def _edges(attr: str, gts: Sequence[_Item]) -> tuple[float, ...] | None:
    if attr in FIXED_EDGES:
        return tuple(float(e) for e in FIXED_EDGES[attr])
    values = [i.value for i in gts]
    if attr == "height" or (values and all(isinstance(v, float) for v in values)):
        if not values:
            return ()
        q = np.unique(np.round(np.quantile(np.asarray(values, float), [0.25, 0.5, 0.75]), 1))
        return tuple(float(x) for x in q)
    return None


def _key(attr: str, edges: tuple[float, ...] | None) -> Key:
    integer = attr == "text_length"
    unit = " px" if attr == "height" else ("°" if attr == "angle" else "")

    def key(value: Any) -> tuple[int, str]:
        if isinstance(value, bool):
            return int(value), attr if value else f"not {attr}"
        if edges is None:
            return 0, str(value)
        v = abs(value) if attr == "angle" else value
        k = int(np.searchsorted(edges, v, side="right"))
        return k, _label(edges, k, unit, integer)

    return key


def bucket_key(
    ds: Dataset, ev: Evaluation[Params], attr: str, spec: MetricSpec[Params] | None = None
) -> Key:
    """The bucket of a value of ``attr`` ((order, label)), with edges from ``ev``'s care GTs:
    given to ``buckets`` for another evaluation of the same GT, both share the buckets."""
    return _key(attr, _edges(attr, _items(ds, ev, spec, attr, "gt")))


def gt_items(
    ds: Dataset, ev: Evaluation[Params], attr: str, spec: MetricSpec[Params] | None = None
) -> list[tuple[str, int, object, float]]:
    """(sample, GT index, value of ``attr``, credit) of every care GT ``ev`` evaluated."""
    return [(i.sample, i.index, i.value, i.credit) for i in _items(ds, ev, spec, attr, "gt")]


def buckets(
    ds: Dataset,
    ev: Evaluation[Params],
    attr: str,
    spec: MetricSpec[Params] | None = None,
    key: Key | None = None,
) -> list[Bucket]:
    """Recall (GT) and precision (detections) per bucket of ``attr``, in bucket order;
    ``key`` (``bucket_key``): buckets of another evaluation, else ``ev``'s own."""
    gts = _items(ds, ev, spec, attr, "gt")
    dets = _items(ds, ev, spec, attr, "det")
    key = key or _key(attr, _edges(attr, gts))
    groups: dict[tuple[int, str], tuple[list[_Item], list[_Item]]] = {}
    for item in gts:
        groups.setdefault(key(item.value), ([], []))[0].append(item)
    for item in dets:
        groups.setdefault(key(item.value), ([], []))[1].append(item)
    out = []
    for k in sorted(groups):
        g, d = groups[k]
        out.append(
            Bucket(
                label=k[1],
                n_gt=len(g),
                recall=float(np.mean([i.credit for i in g])) if g else 0.0,
                found=float(np.mean([i.found for i in g])) if g else 0.0,
                n_det=len(d),
                precision=float(np.mean([i.credit for i in d])) if d else 0.0,
                gts=tuple((i.sample, i.index) for i in g),
            )
        )
    return out


def available(ds: Dataset) -> list[str]:
    """The attributes worth bucketing on: the built-in ones (text length when the GT has
    transcriptions) and those a reader attached to the GT instances."""
    names = [a for a in ATTRIBUTES if a != "text_length"]
    if any(g.text is not None and not g.dont_care for s in ds for g in s.gt):
        names.append("text_length")
    extra: list[str] = []
    for s in ds:
        for g in s.gt:
            if g.attrs:
                extra.extend(k for k in g.attrs if k not in extra and k not in names)
    return names + extra
