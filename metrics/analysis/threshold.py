"""Score thresholds: keep the detections whose confidence is at least ``t``.

A detection without a confidence is always kept. ``filter_sample`` gives the sample a
detection file holding only the kept lines would give (indices are those of that file); a
HierText hierarchy is re-indexed and its detected groups left without words are dropped.
``--set score_threshold=X`` (every metric) and ``--set METRIC.score_threshold=X`` are taken
out of the ``--set`` items here, since the filter is not a parameter of any family.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np

from metrics.core.model import Dataset, FloatArray, Group, Hierarchy, Level, Sample

KEY = "score_threshold"


def kept(sample: Sample, threshold: float) -> list[int]:
    """Indices of the detections kept at ``threshold`` (confidence >= it, or none)."""
    return [
        j for j, d in enumerate(sample.det) if d.confidence is None or d.confidence >= threshold
    ]


def _regroup(groups: tuple[Group, ...], new_index: dict[int, int]) -> tuple[Group, ...]:
    out = []
    for g in groups:
        words = tuple(new_index[w] for w in g.words if w in new_index)
        if words:
            out.append(dataclasses.replace(g, words=words))
    return tuple(out)


def _hierarchy(h: Hierarchy, keep: list[int]) -> Hierarchy:
    new_index = {old: new for new, old in enumerate(keep)}
    levels = {
        name: Level(level.gt, _regroup(level.det, new_index), level.problems)
        for name, level in h.levels.items()
    }
    paths = tuple(h.det_paths[j] for j in keep) if h.det_paths else ()
    return dataclasses.replace(h, levels=levels, det_paths=paths)


def with_dets(sample: Sample, keep: Sequence[int]) -> Sample:
    """The sample with only the detections ``keep`` (file order kept)."""
    idx = list(keep)
    if len(idx) == len(sample.det):
        return sample
    h = sample.hierarchy
    return dataclasses.replace(
        sample,
        det=tuple(sample.det[j] for j in idx),
        hierarchy=None if h is None else _hierarchy(h, idx),
    )


def filter_sample(sample: Sample, threshold: float) -> Sample:
    """The sample as a detection file holding only the lines kept at ``threshold``."""
    return with_dets(sample, kept(sample, threshold))


def filter_dataset(ds: Dataset, threshold: float) -> Dataset:
    """Every sample filtered at ``threshold``; paths and problems as they were."""
    return dataclasses.replace(ds, samples=tuple(filter_sample(s, threshold) for s in ds))


def confidences(ds: Dataset) -> FloatArray:
    """Every detection confidence of the dataset (those without one left out)."""
    return np.array(
        [d.confidence for s in ds for d in s.det if d.confidence is not None], dtype=np.float64
    )


def grid(values: FloatArray, points: int = 100) -> FloatArray:
    """Sweep thresholds: every distinct confidence when there are at most ``points`` of them
    (or ``points`` <= 0), else ``points`` of them spread evenly over the sorted distinct
    values, the lowest (keeps every detection) and the highest included."""
    u = np.unique(values)
    if points <= 0 or len(u) <= points:
        return u
    return u[np.unique(np.round(np.linspace(0, len(u) - 1, points)).astype(np.intp))]


def split_sets(items: Sequence[str]) -> tuple[list[str], dict[str, float]]:
    """``--set`` items without the score thresholds, and the thresholds by metric name
    (``""`` for every metric). Raises ValueError on a value that is not a number."""
    rest: list[str] = []
    found: dict[str, float] = {}
    for item in items:
        key, sep, value = item.partition("=")
        metric, _, name = key.strip().rpartition(".")
        if not sep or name != KEY:
            rest.append(item)
            continue
        try:
            found[metric.strip()] = float(value)
        except ValueError:
            raise ValueError(f"--set {key}={value}: expected a number") from None
        if not np.isfinite(found[metric.strip()]):
            raise ValueError(f"--set {key}={value}: expected a finite number")
        if not 0 <= found[metric.strip()] <= 1:
            raise ValueError(f"--set {key}={value}: a confidence threshold is from 0 to 1")
    return rest, found
