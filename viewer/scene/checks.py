"""Draw items of ``detlens check`` findings (the warnings layer). No Qt, no geometry: the
engine's findings carry the points and rings to draw (``metrics.check.Finding``)."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from metrics.check import Finding
from metrics.core.model import Sample
from viewer.scene.items import DrawItem
from viewer.scene.palette import StyleKey

# What each kind of finding draws: its crossing points, or its regions.
_POINTS = {"bow_tie": StyleKey.CHECK_CROSSING}
_REGIONS = {"outside_image": StyleKey.CHECK_OUTSIDE, "duplicate": StyleKey.CHECK_DUPLICATE}


def finding_items(sample: Sample, findings: Iterable[Finding]) -> list[DrawItem]:
    """The findings on ``sample`` that have something to draw, on the warnings layer."""
    items = []
    for f in findings:
        if f.sample_id != sample.id:
            continue
        ref = (f.side, f.index) if f.side is not None and f.index is not None else None
        if f.code in _POINTS and f.points:
            items.append(
                DrawItem(
                    "warnings",
                    "points",
                    np.asarray(f.points, dtype=float),
                    _POINTS[f.code],
                    text=f.message,
                    ref=ref,
                )
            )
        for region in f.regions if f.code in _REGIONS else ():
            items.append(
                DrawItem("warnings", "polygon", region, _REGIONS[f.code], text=f.message, ref=ref)
            )
    return items
