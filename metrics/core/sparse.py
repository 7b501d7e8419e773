"""Values of the (GT, det) pairs that overlap, every other pair being 0: a per-image pair
matrix in memory linear in the number of instances (DetEval's area recall and precision).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from metrics.core.records import dataclass

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]


@dataclass(frozen=True, slots=True, eq=False)
class SparsePairs:
    """A (n_gt, n_det) matrix given by its non-zero cells ``(gt[k], det[k]) = values[k]``,
    sorted by GT then detection (read-only arrays)."""

    shape: tuple[int, int]
    gt: IntArray
    det: IntArray
    values: FloatArray

    @classmethod
    def of(
        cls, shape: tuple[int, int], gt: IntArray, det: IntArray, values: FloatArray
    ) -> SparsePairs:
        gt, det = np.array(gt, dtype=np.intp), np.array(det, dtype=np.intp)
        values = np.array(values, dtype=np.float64)
        for a in (gt, det, values):
            a.flags.writeable = False
        return cls(shape, gt, det, values)

    def dense(self) -> FloatArray:
        """The full matrix (for one image's pair table)."""
        out = np.zeros(self.shape, dtype=np.float64)
        out[self.gt, self.det] = self.values
        return out
