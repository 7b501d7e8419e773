"""Tallies as numeric vectors, so that many sums are one matrix product.

A tally's fields are flattened in declaration order (a tuple field gives one slot per
element); ``SweepTally.thresholds`` is not a sum and stays the template's. ``scores`` turns
rows of summed vectors back into (recall, precision, hmean) with the tally's own formula:
in numpy for the credit tallies, through the tally class for the others.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import numpy as np

from metrics.core.model import FloatArray
from metrics.core.tally import CreditTally, Tally, hmean

_CONSTANT = frozenset({"thresholds"})


def vector(t: Tally) -> FloatArray:
    """The sums of ``t`` as a flat float vector."""
    out: list[float] = []
    for f in dataclasses.fields(t):
        if f.name in _CONSTANT:
            continue
        v = getattr(t, f.name)
        if isinstance(v, tuple):
            out.extend(float(x) for x in v)
        else:
            out.append(float(v))
    return np.asarray(out, dtype=np.float64)


def matrix(tallies: Sequence[Tally]) -> FloatArray:
    """One row per tally (all of one type and shape)."""
    if not tallies:
        return np.zeros((0, 0))
    return np.stack([vector(t) for t in tallies])


def rebuild(template: Tally, v: FloatArray) -> Tally:
    """A tally of ``template``'s type holding the sums ``v``."""
    kwargs: dict[str, Any] = {}
    pos = 0
    for f in dataclasses.fields(template):
        cur = getattr(template, f.name)
        if f.name in _CONSTANT:
            kwargs[f.name] = cur
        elif isinstance(cur, tuple):
            kwargs[f.name] = tuple(float(x) for x in v[pos : pos + len(cur)])
            pos += len(cur)
        else:
            kwargs[f.name] = float(v[pos])
            pos += 1
    return type(template)(**kwargs)


def _ratio(num: FloatArray, den: FloatArray) -> FloatArray:
    safe = np.where(den == 0, 1.0, den)
    return np.where(den == 0, 0.0, num / safe)


def scores(template: Tally, rows: FloatArray) -> FloatArray:
    """(n, 3) recall, precision, hmean of each row of summed vectors."""
    if type(template).rates is CreditTally.rates:  # the credit families (and subclasses)
        names = [f.name for f in dataclasses.fields(template)]
        r = _ratio(rows[:, names.index("recall_credit")], rows[:, names.index("n_gt_care")])
        p = _ratio(rows[:, names.index("precision_credit")], rows[:, names.index("n_det_care")])
        s = r + p
        h = np.where(s == 0, 0.0, 2.0 * r * p / np.where(s == 0, 1.0, s))
        return np.stack([r, p, h], axis=1)
    out = np.empty((len(rows), 3))
    for k, row in enumerate(rows):
        out[k] = rebuild(template, row).scores()
    return out


__all__ = ["hmean", "matrix", "rebuild", "scores", "vector"]
