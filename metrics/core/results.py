"""The result model: what every metric returns for a sample, and how tallies add up.

Results are plain frozen data aligned with the input order: one ``InstanceResult`` per GT
and per detection (file order), the match records, metric-specific evidence and a ``Tally``
of sums. A subset of samples is scored by adding their tallies (``aggregate``), so a viewer
can filter without re-running a metric.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from metrics.core.evidence import Region
from metrics.core.model import Problem
from metrics.core.records import dataclass, field
from metrics.core.tally import (
    CreditTally,
    MatchedCreditTally,
    SweepPoint,
    SweepTally,
    Tally,
    add_up,
    credit_tally,
    hmean,
    per_image_rule,
)

if TYPE_CHECKING:
    from metrics.core.evidence import Evidence

__all__ = [
    "CreditTally",
    "Evaluation",
    "InstanceResult",
    "MatchKind",
    "MatchRecord",
    "MatchedCreditTally",
    "NearMiss",
    "SampleResult",
    "Summary",
    "SweepPoint",
    "SweepTally",
    "Tally",
    "Verdict",
    "_EmptyMapping",
    "aggregate",
    "credit_tally",
    "hmean",
    "per_image_rule",
    "summarize",
]

P_co = TypeVar("P_co", covariant=True)  # a metric's Params dataclass


class _EmptyMapping(Mapping[str, Any]):
    """The shared read-only empty mapping of results (saves a dict per instance).

    Unlike ``MappingProxyType`` it pickles (by reference to ``_empty``), so results cross
    process boundaries (``--workers``).
    """

    __slots__ = ()

    def __getitem__(self, key: str) -> Any:
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return iter(())

    def __len__(self) -> int:
        return 0

    def __repr__(self) -> str:
        return "{}"

    def __reduce__(self) -> str:
        return "_EMPTY"


_EMPTY: Mapping[str, Any] = _EmptyMapping()


def _empty() -> Mapping[str, Any]:
    """Shared read-only empty mapping (results are immutable; saves a dict per instance)."""
    return _EMPTY


class Verdict(StrEnum):
    MATCHED = "matched"  # full credit
    PARTIAL = "partial"  # matched with credit < 1 (split penalty, TIoU cut, ...)
    MISSED = "missed"  # care GT without a match
    FALSE_POSITIVE = "false_positive"  # care det without a match
    DONT_CARE = "dont_care"  # dc GT, or det absorbed by a dc region


class MatchKind(StrEnum):
    ONE_TO_ONE = "one_to_one"
    SPLIT = "split"  # one GT, several detections
    MERGE = "merge"  # several GTs, one detection


@dataclass(frozen=True, slots=True)
class NearMiss:
    """Best candidate of an unmatched instance: "best IoU 0.49 with det 7"."""

    partner: int
    value: float
    measure: str  # e.g. "iou", "area_recall"

    def __reduce__(self) -> tuple[type[NearMiss], tuple[int, float, str]]:
        return NearMiss, (self.partner, self.value, self.measure)  # fast pickling (--workers)


@dataclass(frozen=True, slots=True)
class InstanceResult:
    """Verdict and credit of one GT or detection under one metric."""

    index: int
    verdict: Verdict
    credit: float = 0.0
    partners: tuple[int, ...] = ()
    near_miss: NearMiss | None = None
    absorbed_by: int | None = None  # dc GT that made this det don't-care
    values: Mapping[str, float] = field(default_factory=_empty)

    def __reduce__(self) -> tuple[type[InstanceResult], tuple[object, ...]]:
        """Pickled as constructor arguments: results cross process boundaries by the
        hundred thousand under ``--workers`` (twice as fast as the slots default)."""
        fields = (self.verdict, self.credit, self.partners, self.near_miss, self.absorbed_by)
        return InstanceResult, (self.index, *fields, self.values)


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """One match group with the numbers behind the decision.

    ``label`` is the official name (e.g. DetEval "OO"/"OM"/"MO"); ``regions`` holds
    evidence regions (e.g. TIoU "cut" = G minus D, "outlier" = other GTs inside D minus G) as
    ``metrics.core.evidence.Region`` (rings as coordinate arrays, and the area).
    """

    kind: MatchKind
    gt: tuple[int, ...]
    det: tuple[int, ...]
    values: Mapping[str, float] = field(default_factory=_empty)
    label: str = ""
    regions: Mapping[str, Region] = field(default_factory=_empty)
    related: Mapping[str, tuple[int, ...]] = field(default_factory=_empty)

    def __reduce__(self) -> tuple[type[MatchRecord], tuple[object, ...]]:
        parts = (self.values, self.label, self.regions, self.related)
        return MatchRecord, (self.kind, self.gt, self.det, *parts)


@dataclass(frozen=True, slots=True)
class SampleResult:
    """Everything one metric says about one sample.

    ``complete`` False: evaluated for a summary (``metrics.shapes.mode.Detail.SUMMARY``),
    so ``gt`` and ``matches`` (and, in what a sharded slice sends back for
    ``global_extras``, ``det``) were not built and their emptiness says nothing of the
    sample; the scores, tally, extra values and warnings are what they are in a whole
    result."""

    metric: str
    sample_id: str
    recall: float
    precision: float
    hmean: float
    tally: Tally
    gt: tuple[InstanceResult, ...]
    det: tuple[InstanceResult, ...]
    matches: tuple[MatchRecord, ...] = ()
    evidence: Evidence | None = None
    warnings: tuple[Problem, ...] = ()
    extra: Mapping[str, float] = field(default_factory=_empty)
    complete: bool = True


@dataclass(frozen=True, slots=True)
class Summary:
    """Global scores of a set of samples: recall, precision and H-mean of the summed tally."""

    recall: float
    precision: float
    hmean: float
    tally: Tally
    n_samples: int


def aggregate(results: Iterable[SampleResult]) -> Summary:
    """Global scores of a set of samples: the formula applied to the summed tallies."""
    return summarize([r.tally for r in results])


def summarize(tallies: Sequence[Tally]) -> Summary:
    """The summary of per-sample tallies, added in order (so floating-point sums are the
    same whichever process evaluated which sample)."""
    if not tallies:
        raise ValueError("aggregate() needs at least one sample result")
    total = add_up(tallies)
    recall, precision, h = total.scores()
    return Summary(recall, precision, h, total, len(tallies))


@dataclass(frozen=True)
class Evaluation(Generic[P_co]):
    """One metric over one dataset, with its parameters ``P``: per-sample results, global
    summary, problems.

    ``images`` is the number of images of the set it was run on (0: not known), so that a
    summary over fewer (``excluded``) says so (``metrics.core.partial``).
    ``complete`` False: ``results`` is not every evaluated sample's whole result (a run
    for the summary alone keeps none, or results without their per-instance lists,
    ``SampleResult.complete``); a writer of per-instance results refuses it."""

    metric: str
    params: P_co
    results: Mapping[str, SampleResult]
    summary: Summary | None
    extras: Mapping[str, float] = field(default_factory=dict)
    problems: tuple[Problem, ...] = ()
    excluded: tuple[str, ...] = ()
    images: int = 0
    complete: bool = True

    @property
    def recall(self) -> float:
        return self.summary.recall if self.summary else 0.0

    @property
    def precision(self) -> float:
        return self.summary.precision if self.summary else 0.0

    @property
    def hmean(self) -> float:
        return self.summary.hmean if self.summary else 0.0

    @property
    def sweep(self) -> SweepTally | None:
        """The summed per-threshold counts of a swept metric (``best_index``, ``sweep()``)."""
        tally = self.summary.tally if self.summary else None
        return tally if isinstance(tally, SweepTally) else None

    def subset(self, sample_ids: Sequence[str]) -> Summary:
        """Scores of a subset of samples from their tallies (no re-evaluation)."""
        return aggregate(self.results[s] for s in sample_ids)
