"""Every analysis for both sides of a comparison: where B gains on A.

Two evaluations of the same GT (two detectors under one metric, or one detector under two
metrics) are put side by side:

* ``class_pairs``: the attribution of A and of B class by class, with B − A of the gains;
* ``bucket_pairs``: recall per bucket of a GT attribute for A and B with the same bucket
  edges (A's), B − A, and, for two detectors (``interval``), a 95 % paired bootstrap
  interval of B − A per bucket over images: a resample draws images with replacement and a
  bucket's recall is the sum of its GTs' credits over the drawn images divided by their
  number (the same weight matrix as ``metrics.analysis.bootstrap``). A bucket with fewer
  than ``MIN_GT`` GTs or in fewer than ``MIN_IMAGES`` images gets no interval: it would
  say more than the data does;
* ``by_delta``: the images both evaluated, by ΔH = H(B) − H(A), B's largest losses first.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from metrics.analysis.attribution import Attribution, ClassGain
from metrics.analysis.bootstrap import weights
from metrics.analysis.buckets import Bucket, Key, bucket_key, buckets, gt_items
from metrics.core.model import Dataset, FloatArray
from metrics.core.protocols import Params
from metrics.core.records import dataclass
from metrics.core.results import Evaluation
from metrics.declare.spec import MetricSpec

MIN_GT = 30
MIN_IMAGES = 5


@dataclass(frozen=True)
class ClassPair:
    """One error class under A and B."""

    name: str
    a: ClassGain
    b: ClassGain

    @property
    def delta(self) -> float:
        """B's gain minus A's: positive where B loses more to this class."""
        return self.b.gain - self.a.gain


@dataclass(frozen=True)
class BucketPair:
    """One bucket under A and B: B − A of the recall and its interval (None: not asked,
    or too few GTs or images)."""

    label: str
    a: Bucket
    b: Bucket
    images: int
    low: float | None = None
    high: float | None = None

    @property
    def delta(self) -> float:
        return self.b.recall - self.a.recall


def class_pairs(a: Attribution, b: Attribution) -> list[ClassPair]:
    """The classes both attributions have, in A's order."""
    theirs = {c.name: c for c in b.classes}
    return [ClassPair(c.name, c, theirs[c.name]) for c in a.classes if c.name in theirs]


def _empty(label: str) -> Bucket:
    return Bucket(label, 0, 0.0, 0.0, 0, 0.0)


def bucket_pairs(
    data: tuple[Dataset, Dataset],
    evals: tuple[Evaluation[Params], Evaluation[Params]],
    attr: str,
    spec: tuple[MetricSpec[Params] | None, MetricSpec[Params] | None] = (None, None),
    *,
    interval: bool = True,
    resamples: int = 2000,
    seed: int = 0,
) -> list[BucketPair]:
    """A's and B's buckets of ``attr`` (A's edges), with B − A (see the module docstring)."""
    (ds_a, ds_b), (ev_a, ev_b) = data, evals
    key = bucket_key(ds_a, ev_a, attr, spec[0])
    mine = {b.label: b for b in buckets(ds_a, ev_a, attr, spec[0], key)}
    theirs = {b.label: b for b in buckets(ds_b, ev_b, attr, spec[1], key)}
    labels = list(dict.fromkeys([*mine, *theirs]))
    ids = [s for s in ev_a.results if s in ev_b.results]
    sums = _sums(ids, labels, key, gt_items(ds_a, ev_a, attr, spec[0]))
    sums_b = _sums(ids, labels, key, gt_items(ds_b, ev_b, attr, spec[1]))
    w = weights(len(ids), resamples, np.random.default_rng(seed)) if interval and ids else None
    out = []
    for k, label in enumerate(labels):
        count, credit_a = sums[0][:, k], sums[1][:, k]
        credit_b = sums_b[1][:, k]
        images = int(np.count_nonzero(count))
        low = high = None
        if w is not None and count.sum() >= MIN_GT and images >= MIN_IMAGES:
            n = w @ count
            safe = np.where(n == 0, 1.0, n)
            d = np.where(n == 0, 0.0, (w @ credit_b - w @ credit_a) / safe)
            low, high = (float(x) for x in np.percentile(d, [2.5, 97.5]))
        a = mine.get(label, _empty(label))
        b = theirs.get(label, _empty(label))
        out.append(BucketPair(label, a, b, images, low, high))
    return out


def _sums(
    ids: Sequence[str],
    labels: Sequence[str],
    key: Key,
    items: Sequence[tuple[str, int, Any, float]],
) -> tuple[FloatArray, FloatArray]:
    """(images, buckets) GT counts and credit sums."""
    row = {s: i for i, s in enumerate(ids)}
    col = {label: k for k, label in enumerate(labels)}
    count = np.zeros((len(ids), len(labels)))
    credit = np.zeros((len(ids), len(labels)))
    for sid, _index, value, cr in items:
        label = key(value)[1]
        if sid in row and label in col:
            count[row[sid], col[label]] += 1
            credit[row[sid], col[label]] += cr
    return count, credit


def by_delta(a: Evaluation[Params], b: Evaluation[Params]) -> list[tuple[str, float, float]]:
    """(sample, H(A), H(B)) of the images both evaluated, by ΔH: B's largest losses first."""
    rows = [(s, r.hmean, b.results[s].hmean) for s, r in a.results.items() if s in b.results]
    return sorted(rows, key=lambda x: (x[2] - x[1], x[0]))
