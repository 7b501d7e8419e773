"""CLEval's tallies: characters, granularity penalties and the end-to-end counts (spec 5.5),
summed as every tally (``metrics.core.tally.Tally``)."""

from __future__ import annotations

from typing import ClassVar

from metrics.core.records import dataclass
from metrics.core.tally import Tally, _ratio


@dataclass(frozen=True)
class ClevalTally(Tally):
    """CLEval 0.1.1 (spec 5.5): (tp - granularity) clamped on the sums, over characters.

    For the end-to-end metrics ``tp``/``chars_det`` are the recognition counts and the
    ``det_*`` fields keep the detection ones; ``rs_num``/``rs_den`` the recognition score.
    """

    kind: ClassVar[str] = "cleval"
    chars_gt: float = 0.0
    chars_det: float = 0.0
    tp: float = 0.0
    gran_r: float = 0.0
    gran_p: float = 0.0
    miss: float = 0.0
    fp_chars: float = 0.0
    split: float = 0.0
    merge: float = 0.0
    overlap: float = 0.0
    fp_boxes: float = 0.0
    det_tp: float = 0.0
    det_chars_det: float = 0.0
    rs_num: float = 0.0
    rs_den: float = 0.0
    correct_r: float = 0.0
    correct_p: float = 0.0
    det_correct_r: float = 0.0
    det_correct_p: float = 0.0

    def rates(self) -> tuple[float, float]:
        return (
            _ratio(max(0.0, self.tp - self.gran_r), self.chars_gt),
            _ratio(max(0.0, self.tp - self.gran_p), self.chars_det),
        )


@dataclass(frozen=True)
class ClevalLegacyTally(ClevalTally):
    """CLEval paper-era code (spec 5.5): per-image clamped correct counts, summed."""

    kind: ClassVar[str] = "cleval_legacy"

    def rates(self) -> tuple[float, float]:
        return _ratio(self.correct_r, self.chars_gt), _ratio(self.correct_p, self.chars_det)
