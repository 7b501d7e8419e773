"""Typed evidence shared by the families: regions as coordinates, never geometry objects.

A ``Region`` is what a metric shows as an area (TIoU's cut and outlier regions): the rings
of its polygon parts as (n, 2) float arrays (exterior and hole rings alike; draw them with
the even-odd rule) and its area. Results hold only plain data, so the viewer draws evidence
without calling back into the geometry engine, and results pickle and serialise as they are.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]


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
