"""Typed tallies: the additive sums of a sample from which a metric derives its scores.

A subset of samples is scored by adding their tallies (``+``) and applying the metric's
formula (``scores``), so a viewer can filter without re-running anything. Every tally
carries the care counts ``n_gt_care`` and ``n_det_care`` (GT and detections that count
either way, i.e. not don't-care); each family adds the sums its formula needs.
Asking a tally for a key it does not have is an error, never a silent 0.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import ClassVar, Self


def hmean(recall: float, precision: float) -> float:
    s = recall + precision
    return 0.0 if s == 0 else 2.0 * recall * precision / s


def _ratio(num: float, den: float) -> float:
    return 0.0 if den == 0 else num / den


@dataclass(frozen=True)
class Tally:
    """Base of the typed tallies: care counts, field-wise addition, read-only key access."""

    kind: ClassVar[str] = ""
    n_gt_care: float = 0.0
    n_det_care: float = 0.0

    def __add__(self, other: Self) -> Self:
        if type(other) is not type(self):
            raise ValueError(f"cannot add a {other.kind} tally to a {self.kind} tally")
        return type(self)(
            **{
                f.name: getattr(self, f.name) + getattr(other, f.name)
                for f in dataclasses.fields(self)
            }
        )

    def __getitem__(self, key: str) -> float:
        if key not in self.values:
            raise KeyError(f"a {self.kind} tally has no {key!r}")
        return float(getattr(self, key))

    @property
    def values(self) -> dict[str, float]:
        """The sums by name (for JSON output)."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    def rates(self) -> tuple[float, float]:
        """(recall, precision) of these sums."""
        raise NotImplementedError

    def scores(self) -> tuple[float, float, float]:
        """(recall, precision, hmean) of these sums."""
        recall, precision = self.rates()
        return recall, precision, hmean(recall, precision)


@dataclass(frozen=True)
class CreditTally(Tally):
    """ICDAR family, DetEval, TedEval: credits over care counts."""

    kind: ClassVar[str] = "credit"
    recall_credit: float = 0.0
    precision_credit: float = 0.0

    def rates(self) -> tuple[float, float]:
        return (
            _ratio(self.recall_credit, self.n_gt_care),
            _ratio(self.precision_credit, self.n_det_care),
        )


@dataclass(frozen=True)
class MatchedCreditTally(CreditTally):
    """The ICDAR IoU family's credit tally, with the number of matched pairs."""

    kind: ClassVar[str] = "credit_matched"
    n_matched: float = 0.0


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


def credit_tally(
    n_gt_care: float,
    n_det_care: float,
    recall_credit: float,
    precision_credit: float,
    n_matched: float | None = None,
) -> CreditTally:
    """Tally of the credit families: credits over care counts (and matched pairs if given)."""
    if n_matched is None:
        return CreditTally(n_gt_care, n_det_care, recall_credit, precision_credit)
    return MatchedCreditTally(n_gt_care, n_det_care, recall_credit, precision_credit, n_matched)
