"""Rules every metric family shares: the detection evaluation order and the clockwise test.

One copy of each, so that a fix reaches every family at once.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from metrics.core.arrays import stacked
from metrics.core.model import BoxType, Instance

_NEXT = [1, 2, 3, 0]


def uses_confidences(dets: Sequence[Instance], enabled: bool | None) -> bool:
    """Whether detections are ranked by confidence: ``enabled``, or (None) when all have one."""
    if enabled is not None:
        return enabled
    return bool(dets) and all(d.confidence is not None for d in dets)


def confidence_order(dets: Sequence[Instance], enabled: bool | None) -> list[int]:
    """Evaluation order of detections: file order, or stable descending confidence (spec 0.7).

    Ties keep file order (a stable sort), so detection indices stay file indices.
    """
    if not uses_confidences(dets, enabled):
        return list(range(len(dets)))
    return sorted(range(len(dets)), key=lambda j: -(dets[j].confidence or 0.0))


def clockwise_violations(items: Sequence[Instance]) -> list[int]:
    """Indices of QUADs rejected by the RRC helper: S = Σ (x'-x)(y'+y) > 0 (spec 0.4)."""
    quads = [k for k, inst in enumerate(items) if inst.box_type is BoxType.QUAD]
    if not quads:
        return []
    r = stacked([items[k].points for k in quads], 4)
    s = np.sum((r[:, _NEXT, 0] - r[:, :, 0]) * (r[:, _NEXT, 1] + r[:, :, 1]), axis=1)
    return [quads[m] for m in np.flatnonzero(s > 0)]
