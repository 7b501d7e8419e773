"""What every evaluation's evidence uses: regions as coordinates, the pair table, and the
ICDAR IoU family's ranked detections. Import these from ``metrics.evidence``."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]


@dataclass(frozen=True, slots=True, eq=False)
class Region:
    """An evidence area: the rings of its polygon parts and its area."""

    rings: tuple[FloatArray, ...]
    area: float

    @property
    def is_empty(self) -> bool:
        return not self.rings

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Region):
            return NotImplemented
        return (
            self.area == other.area
            and len(self.rings) == len(other.rings)
            and all(np.array_equal(a, b) for a, b in zip(self.rings, other.rings, strict=True))
        )

    def __hash__(self) -> int:
        return hash((self.area, len(self.rings)))


EMPTY_REGION = Region((), 0.0)


# --------------------------------------------------------------------------- per family
# Indices are 0-based positions in the sample's GT / detection lists (file order).


@dataclass(frozen=True, slots=True)
class RankedDetection:
    """ICDAR15 AP input: a care detection's confidence and whether it matched (spec 1.3)."""

    confidence: float
    matched: bool


@dataclass(frozen=True, slots=True)
class IouEvidence:
    """``ic15_iou``: the ranked care detections behind the AP (empty without confidences)."""

    ranked: tuple[RankedDetection, ...] = ()


@dataclass(frozen=True, slots=True, eq=False)
class PairTable:
    """The GT x detection values a metric decides on, for one image (the pair matrix).

    Rows are the GTs ``gt`` and columns the detections ``det`` (file indices); ``values``
    holds one (len(gt), len(det)) array per measure, ``formulas`` says how each is computed.
    """

    gt: tuple[int, ...]
    det: tuple[int, ...]
    measures: tuple[str, ...]
    values: tuple[FloatArray, ...]
    formulas: tuple[str, ...]

    def measure(self, name: str) -> FloatArray:
        return self.values[self.measures.index(name)]
