"""The sample as a line or paragraph metric's results index it: one instance per group.

Results of ``hiertext_line`` / ``hiertext_paragraph`` number the GT and detected lines (or
paragraphs) in document order, not the words. For drawing and reading them, each group
becomes one instance: a GT group with vertices of its own keeps them; any other group is
drawn as the convex hull of its words (the metric itself uses the union of the words' pixel
masks, section 3 of the spec). Its text is its words' texts, its line the first word's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import numpy as np
import shapely

from metrics.core.model import BoxType, Group, Instance, Sample


def _instance(group: Group, words: tuple[Instance, ...]) -> Instance:
    parts = [words[k] for k in group.words if k < len(words)]
    if group.points is not None and len(group.points) >= 3:
        points = np.asarray(group.points, dtype=np.float64)
    elif parts:
        hull = shapely.convex_hull(shapely.multipoints(np.concatenate([w.points for w in parts])))
        ring = shapely.get_coordinates(shapely.get_exterior_ring(hull))
        points = ring[:-1] if len(ring) > 3 else shapely.get_coordinates(hull)
    else:
        points = np.zeros((1, 2))
    texts = [w.text for w in parts if w.text]
    return Instance(
        points=np.asarray(points, dtype=np.float64),
        box_type=BoxType.POLY,
        text=" ".join(texts) if texts else None,
        dont_care=group.dont_care,
        line=parts[0].line if parts else 0,
    )


def level_view(level: str) -> Callable[[Sample], Sample]:
    """The function that turns a sample into its ``level`` groups (lines or paragraphs)."""

    def view(sample: Sample) -> Sample:
        h = sample.hierarchy
        if h is None or level not in h.levels:
            return sample
        lv = h.levels[level]
        return replace(
            sample,
            gt=tuple(_instance(g, sample.gt) for g in lv.gt),
            det=tuple(_instance(g, sample.det) for g in lv.det),
        )

    return view
