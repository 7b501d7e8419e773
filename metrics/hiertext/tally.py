"""HierText's tally (Panoptic-Quality style), summed as every tally
(``metrics.core.tally.Tally``)."""

from __future__ import annotations

from typing import ClassVar

from metrics.core.records import dataclass
from metrics.core.tally import Tally


@dataclass(frozen=True)
class PqTally(Tally):
    """HierText (Panoptic-Quality style): true positives and the sum of their IoUs over the
    kept GT (``n_gt_care`` = num_gt) and kept detections (``n_det_care`` = num_pred).

    R = tp / num_gt (1 without GT), P = tp / num_pred (1 without detections), tightness =
    IoU sum / tp (1 without matches), PQ = tightness x F.
    """

    kind: ClassVar[str] = "pq"
    tp: float = 0.0
    tightness_sum: float = 0.0

    def rates(self) -> tuple[float, float]:
        recall = self.tp / self.n_gt_care if self.n_gt_care else 1.0
        precision = self.tp / self.n_det_care if self.n_det_care else 1.0
        return recall, precision

    @property
    def tightness(self) -> float:
        return self.tightness_sum / self.tp if self.tp else 1.0

    @property
    def pq(self) -> float:
        return self.tightness * self.scores()[2]
