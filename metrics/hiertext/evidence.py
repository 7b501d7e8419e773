"""HierText's evidence: the IoU of the pairs it compared (care GTs x kept detections) that
overlap, as its mutual-best matching read them (its pair table)."""

from __future__ import annotations

from metrics.core.evidence import Evidence, Limit, PairTable
from metrics.core.records import dataclass
from metrics.core.sparse import SparsePairs


@dataclass(frozen=True, slots=True, eq=False)
class HierTextEvidence(Evidence):
    """HierText: the IoU of every overlapping (care GT, kept detection) pair (file indices of
    the level's instances) from polygons (words) or masks (lines, paragraphs), and the
    threshold a mutually best pair must reach."""

    iou: SparsePairs
    threshold: float
    masks: bool

    def pair_table(self) -> PairTable:
        n_gt, n_det = self.iou.shape
        how = "rasterised masks (pixels)" if self.masks else "word polygons"
        return PairTable(
            tuple(range(n_gt)),
            tuple(range(n_det)),
            ("IoU",),
            (self.iou.dense(),),
            (
                f"|G ∩ D| / |G ∪ D| of the {how}; a pair matches when each is the other's "
                "best (first argmax) and the IoU reaches the limit; illegible GTs and the "
                "detections they absorb are left out (0)",
            ),
            (Limit(">=", self.threshold),),
        )
