"""Typed tallies: the additive sums of a sample from which a metric derives its scores.

A subset of samples is scored by adding their tallies (``+``) and applying the metric's
formula (``scores``), so a viewer can filter without re-running anything. Every tally
carries the care counts ``n_gt_care`` and ``n_det_care`` (GT and detections that count
either way, i.e. not don't-care); each family adds the sums its formula needs (the
tallies of one family live in its package: ``metrics.cleval.tally``, ``metrics.hiertext.tally``).
Asking a tally for a key it does not have is an error, never a silent 0.
"""

from __future__ import annotations

import dataclasses
import functools
import operator
from collections.abc import Sequence
from typing import ClassVar, Self, TypeVar

from metrics.core.records import dataclass


def hmean(recall: float, precision: float) -> float:
    s = recall + precision
    return 0.0 if s == 0 else 2.0 * recall * precision / s


def _ratio(num: float, den: float) -> float:
    return 0.0 if den == 0 else num / den


def per_image_rule(
    n_gt_care: float, n_det_care: float, recall_credit: float, precision_credit: float
) -> tuple[float, float, float]:
    """ICDAR15 per-image rule (spec 0.9), also MMOCR's ``compute_hmean`` on any sums:
    no care GT -> R = 1, P = 0 if any care det else 1."""
    if n_gt_care == 0:
        recall, precision = 1.0, (0.0 if n_det_care > 0 else 1.0)
    else:
        recall = recall_credit / n_gt_care
        precision = 0.0 if n_det_care == 0 else precision_credit / n_det_care
    return recall, precision, hmean(recall, precision)


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
            **{name: getattr(self, name) + getattr(other, name) for name in _names(type(self))}
        )

    def __getitem__(self, key: str) -> float:
        if key not in self.values:
            raise KeyError(f"a {self.kind} tally has no {key!r}")
        return float(getattr(self, key))

    @property
    def values(self) -> dict[str, float]:
        """The sums by name (for JSON output)."""
        return {name: getattr(self, name) for name in _names(type(self))}

    def rates(self) -> tuple[float, float]:
        """(recall, precision) of these sums."""
        raise NotImplementedError

    def scores(self) -> tuple[float, float, float]:
        """(recall, precision, hmean) of these sums."""
        recall, precision = self.rates()
        return recall, precision, hmean(recall, precision)


T = TypeVar("T", bound=Tally)


_NAMES: dict[type, tuple[str, ...]] = {}


def _names(cls: type[Tally]) -> tuple[str, ...]:
    """The field names of a tally class, in order (cached: ``fields`` builds a tuple)."""
    names = _NAMES.get(cls)
    if names is None:
        names = _NAMES[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return names


def add_up(tallies: Sequence[T]) -> T:
    """``tallies[0] + tallies[1] + ...`` added left to right (the same floating-point sums),
    field by field in C loops: what a summary of 25,000 images adds, without 25,000
    intermediate tallies. Raises ``ValueError`` as ``+`` does for tallies of two kinds."""
    first = tallies[0]
    cls = type(first)
    if cls.__add__ is not Tally.__add__:  # its own addition (a sweep checks its thresholds)
        return functools.reduce(operator.add, tallies)
    for t in tallies:
        if type(t) is not cls:
            raise ValueError(f"cannot add a {t.kind} tally to a {first.kind} tally")
    names = _names(cls)
    columns = zip(*map(operator.attrgetter(*names), tallies), strict=True)
    sums = [functools.reduce(operator.add, column) for column in columns]
    return cls(**dict(zip(names, sums, strict=True)))


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


@dataclass(frozen=True, slots=True)
class SweepPoint:
    """Scores and counts of a swept tally at one threshold."""

    threshold: float
    recall: float
    precision: float
    hmean: float
    hits: float
    gt: float
    kept: float


@dataclass(frozen=True)
class SweepTally(Tally):
    """Counts at every threshold of a detection-score sweep (MMOCR ``HmeanIOUMetric``).

    ``hits[k]`` matched pairs and ``kept[k]`` detections counted at ``thresholds[k]``;
    ``n_gt_care`` is the same at every threshold and ``n_det_care`` counts the detections
    kept at the lowest one. Every threshold is scored with ``per_image_rule`` on the sums
    (MMOCR's ``compute_hmean``, also for a whole dataset) and ``scores`` gives the best one:
    the highest hmean, strict ``>`` from -1, so the lowest threshold wins ties. A subset is
    scored by adding its tallies, which picks the best threshold of that subset.
    """

    kind: ClassVar[str] = "sweep"
    thresholds: tuple[float, ...] = ()
    hits: tuple[float, ...] = ()
    kept: tuple[float, ...] = ()

    def __add__(self, other: Self) -> Self:
        if type(other) is not type(self):
            raise ValueError(f"cannot add a {other.kind} tally to a {self.kind} tally")
        if other.thresholds != self.thresholds:
            raise ValueError("cannot add sweep tallies over different thresholds")
        if len(self.hits) != len(other.hits) or len(self.kept) != len(other.kept):
            raise ValueError("cannot add sweep tallies of different lengths")
        return type(self)(
            self.n_gt_care + other.n_gt_care,
            self.n_det_care + other.n_det_care,
            self.thresholds,
            tuple(map(operator.add, self.hits, other.hits)),  # map: summing 25,000 images
            tuple(map(operator.add, self.kept, other.kept)),
        )

    def point(self, k: int) -> SweepPoint:
        """Scores and counts at ``thresholds[k]``."""
        r, p, h = per_image_rule(self.n_gt_care, self.kept[k], self.hits[k], self.hits[k])
        return SweepPoint(self.thresholds[k], r, p, h, self.hits[k], self.n_gt_care, self.kept[k])

    def sweep(self) -> tuple[SweepPoint, ...]:
        """Every threshold in order."""
        return tuple(self.point(k) for k in range(len(self.thresholds)))

    @property
    def best_index(self) -> int:
        """Index of the best threshold (highest hmean, lowest threshold on ties); 0 if none."""
        best, best_h = 0, -1.0
        for k, pt in enumerate(self.sweep()):
            if pt.hmean > best_h:
                best, best_h = k, pt.hmean
        return best

    @property
    def best_threshold(self) -> float | None:
        return self.thresholds[self.best_index] if self.thresholds else None

    @property
    def values(self) -> dict[str, float]:
        """Scalar sums (the per-threshold ones are in ``sweep``): care counts, and matched
        pairs and kept detections at the best threshold."""
        out = {"n_gt_care": self.n_gt_care, "n_det_care": self.n_det_care}
        if self.thresholds:
            best = self.best_index
            out.update(n_matched=self.hits[best], n_det_kept=self.kept[best])
        return out

    def rates(self) -> tuple[float, float]:
        recall, precision, _ = self.scores()
        return recall, precision

    def scores(self) -> tuple[float, float, float]:
        if not self.thresholds:
            return per_image_rule(self.n_gt_care, 0, 0, 0)
        pt = self.point(self.best_index)
        return pt.recall, pt.precision, pt.hmean


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
