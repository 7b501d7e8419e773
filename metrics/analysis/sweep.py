"""Confidence sweep: recall, precision and H-mean of a metric at many score thresholds.

Exact by construction: the value at threshold ``t`` is the metric run on the detections
filtered at ``t`` (``metrics.analysis.threshold``). Two ways get there:

* ``prefix`` (the ICDAR IoU family: ``ic15_iou``, ``siou``, ``tiou``, ``curved_*``, when
  detections are ranked by confidence, i.e. every detection has one and ``confidences`` is
  not false): the greedy matching takes GTs in order and, for each, the first free
  detection in descending confidence. Filtering at ``t`` removes a suffix of that order,
  and by induction over the GTs each GT keeps its partner if that partner is kept and gets
  none otherwise (every detection it could take instead comes later in the order, so is
  removed too). Don't-care absorption and each pair's credit (IoU, SIoU, TIoU's cut and
  outlier GTs) depend on that pair alone. So one evaluation gives every threshold: the
  geometry and the matching run once and the sweep is sums over masks.
* ``re-evaluated`` (every other metric): each image is evaluated once per distinct set of
  detections the thresholds keep there (an image with 6 scored detections has at most 7),
  in blocks with the metric's own batch code.

``Sweep`` keeps the per-image tallies as vectors at every threshold, so a subset of images
is scored at any threshold by adding rows, as everywhere in the engine.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from metrics.analysis import tallies
from metrics.analysis.engine import evaluate_versions
from metrics.analysis.threshold import with_dets
from metrics.core.model import Dataset, FloatArray, Sample
from metrics.core.protocols import Params
from metrics.core.records import dataclass
from metrics.core.results import Evaluation, SampleResult, Verdict
from metrics.core.tally import MatchedCreditTally, Tally
from metrics.declare.spec import MetricSpec
from metrics.shapes.order import uses_confidences

PREFIX_FAMILY = frozenset({"ic15_iou", "siou", "tiou", "curved_iou", "curved_siou", "curved_tiou"})


@dataclass(frozen=True)
class Sweep:
    """One metric over thresholds (ascending). ``vectors[i, k]`` is image ``ids[i]``'s tally
    at ``thresholds[k]`` (``metrics.analysis.tallies``); ``kept[k]`` the detections kept."""

    metric: str
    thresholds: FloatArray
    ids: tuple[str, ...]
    vectors: FloatArray
    template: Tally
    kept: FloatArray
    method: str

    def scores(self, ids: Sequence[str] | None = None) -> FloatArray:
        """(K, 3) recall, precision, hmean at every threshold, of ``ids`` (default all)."""
        rows = self.vectors if ids is None else self.vectors[self._rows(ids)]
        return tallies.scores(self.template, rows.sum(axis=0))

    def image_scores(self, k: int) -> FloatArray:
        """(n, 3) recall, precision, hmean of every image at ``thresholds[k]``."""
        return tallies.scores(self.template, self.vectors[:, k])

    def _rows(self, ids: Sequence[str]) -> list[int]:
        pos = {sid: i for i, sid in enumerate(self.ids)}
        return [pos[s] for s in ids if s in pos]

    @property
    def best_index(self) -> int:
        """Highest dataset H-mean; the lowest threshold wins ties."""
        return int(np.argmax(self.scores()[:, 2]))

    @property
    def best_threshold(self) -> float:
        return float(self.thresholds[self.best_index])

    def index_at(self, threshold: float) -> int:
        """The swept threshold whose kept sets equal those at ``threshold`` when the sweep
        holds every distinct confidence: the lowest swept value >= it (last if none)."""
        k = int(np.searchsorted(self.thresholds, threshold, side="left"))
        return min(k, len(self.thresholds) - 1)


def _conf(sample: Sample) -> FloatArray:
    return np.array(
        [np.inf if d.confidence is None else d.confidence for d in sample.det], dtype=np.float64
    )


def sweep(
    ds: Dataset,
    spec: MetricSpec[Params],
    params: Params,
    base: Evaluation[Params],
    thresholds: FloatArray,
) -> Sweep:
    """The sweep of ``spec`` over ``thresholds`` on the images ``base`` evaluated."""
    t = np.sort(np.asarray(thresholds, dtype=np.float64))
    ids = tuple(s for s in base.results)
    if not ids or not len(t):
        raise ValueError(f"{spec.id}: nothing to sweep (no image evaluated, or no threshold)")
    samples = [ds[s] for s in ids]
    if _prefix_applies(spec, params, samples, base):
        return _prefix(spec.id, samples, base, t)
    return _reevaluated(spec, params, samples, base, t)


def _prefix_applies(
    spec: MetricSpec[Params], params: Params, samples: Sequence[Sample], base: Evaluation[Params]
) -> bool:
    if spec.id not in PREFIX_FAMILY or not samples:
        return False
    enabled = getattr(params, "confidences", None)
    if not all(uses_confidences(s.det, enabled) or not s.det for s in samples):
        return False
    if any(d.confidence is None for s in samples for d in s.det):
        return False
    return all(type(r.tally) is MatchedCreditTally for r in base.results.values())


def _prefix(
    metric: str, samples: Sequence[Sample], base: Evaluation[Params], t: FloatArray
) -> Sweep:
    conf: list[FloatArray] = []
    care: list[bool] = []
    matched: list[bool] = []
    pc: list[float] = []
    rc: list[float] = []
    off: list[int] = [0]
    n_gt: list[float] = []
    for s in samples:
        r = base.results[s.id]
        conf.append(_conf(s))
        care.extend(d.verdict is not Verdict.DONT_CARE for d in r.det)
        pc.extend(d.credit for d in r.det)
        by_det = {g.partners[0]: g.credit for g in r.gt if g.partners}
        rc.extend(by_det.get(j, 0.0) for j in range(len(r.det)))
        matched.extend(j in by_det for j in range(len(r.det)))
        off.append(off[-1] + len(r.det))
        n_gt.append(r.tally.n_gt_care)
    c = np.concatenate(conf) if conf else np.zeros(0)
    mask = (c[None, :] >= t[:, None]).astype(np.float64)  # (K, n_det)
    cols = [
        np.asarray(care, np.float64),
        np.asarray(rc),
        np.asarray(pc),
        np.asarray(matched, np.float64),
    ]
    o = np.asarray(off)
    per = []
    for w in cols:
        cs = np.concatenate([np.zeros((len(t), 1)), np.cumsum(mask * w, axis=1)], axis=1)
        per.append((cs[:, o[1:]] - cs[:, o[:-1]]).T)  # (n, K)
    n_det, r_cred, p_cred, n_match = per
    gt = np.repeat(np.asarray(n_gt, np.float64)[:, None], len(t), axis=1)
    vectors = np.stack([gt, n_det, r_cred, p_cred, n_match], axis=2)
    template = next(iter(base.results.values())).tally
    kept = mask.sum(axis=1)
    return Sweep(metric, t, tuple(s.id for s in samples), vectors, template, kept, "prefix")


def _keys(sample: Sample, t: FloatArray) -> np.ndarray:
    """Per threshold, how many scored detections are removed (kept sets are nested)."""
    c = np.sort(_conf(sample)[np.isfinite(_conf(sample))])
    return np.searchsorted(c, t, side="left")


def _reevaluated(
    spec: MetricSpec[Params],
    params: Params,
    samples: Sequence[Sample],
    base: Evaluation[Params],
    t: FloatArray,
) -> Sweep:
    keys = [_keys(s, t) for s in samples]
    todo: list[Sample] = []
    where: dict[tuple[int, int], int] = {}
    for i, (s, k) in enumerate(zip(samples, keys, strict=True)):
        order = np.argsort(-_conf(s), kind="stable")  # removed first: the lowest scores
        for key in np.unique(k).tolist():
            if key == 0:
                continue
            gone = set(order[len(order) - key :].tolist()) if key else set()
            where[(i, key)] = len(todo)
            todo.append(with_dets(s, [j for j in range(len(s.det)) if j not in gone]))
    results = evaluate_versions(spec, params, todo, finalize=False)
    template = next(iter(base.results.values())).tally
    width = len(tallies.vector(template))
    vectors = np.zeros((len(samples), len(t), width))
    kept = np.zeros(len(t))
    for i, (s, k) in enumerate(zip(samples, keys, strict=True)):
        for key in np.unique(k).tolist():
            r = base.results[s.id] if key == 0 else results[where[(i, key)]]
            vectors[i, k == key] = _vec(r, width)
        kept += len(s.det) - k
    return Sweep(spec.id, t, tuple(s.id for s in samples), vectors, template, kept, "re-evaluated")


def _vec(r: SampleResult | None, width: int) -> FloatArray:
    return np.zeros(width) if r is None else tallies.vector(r.tally)
