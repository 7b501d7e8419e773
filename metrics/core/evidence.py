"""What every evaluation's evidence uses: regions as coordinates, the pair table, the parts
the viewer knows how to draw (pseudo character centres, TedEval-style multiline tests,
absorbed and skipped instances, VOC false positives) and ``Evidence``, the base of every
family's evidence type, whose methods answer what the viewer asks of a result. A family
declares its evidence in its own package (``metrics.<family>.evidence``) and overrides the
methods that apply to it. Import these from ``metrics.core.evidence`` (the parts only some
families produce live in ``metrics.core.evidence_parts``, loaded on first use)."""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from metrics.core.records import dataclass

if TYPE_CHECKING:
    from metrics.core.evidence_parts import AnglePair as AnglePair
    from metrics.core.evidence_parts import Discarded as Discarded
    from metrics.core.evidence_parts import MultilineTest as MultilineTest
    from metrics.core.evidence_parts import PccEvidence as PccEvidence
    from metrics.core.evidence_parts import RecognitionStep as RecognitionStep
    from metrics.core.evidence_parts import VocFalsePositive as VocFalsePositive
    from metrics.core.sparse import SparsePairs  # the families that make one import it

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


_FAILS = {">": "≤", ">=": "<", "<": "≥", "<=": ">"}
_OPS = {">": operator.gt, ">=": operator.ge, "<": operator.lt, "<=": operator.le}


@dataclass(frozen=True, slots=True)
class Limit:
    """What a pair's value must satisfy for the metric's one-to-one rule: ``value op bound``
    (``op`` one of ``>``, ``>=``, ``<``, ``<=``)."""

    op: str
    bound: float

    def passes(self, value: float) -> bool:
        return bool(_OPS[self.op](value, self.bound))

    def refusal(self, name: str, value: float) -> str:
        """The failed rule in words: ``"IoU 0.49 ≤ 0.5"``."""
        return f"{name} {value:.2f} {_FAILS[self.op]} {self.bound:g}"

    def __str__(self) -> str:
        return f"{self.op} {self.bound:g}"


@dataclass(frozen=True, slots=True, eq=False)
class PairTable:
    """The GT x detection values a metric decides on, for one image (the pair matrix).

    Rows are the GTs ``gt`` and columns the detections ``det`` (file indices); ``values``
    holds one (len(gt), len(det)) array per measure, ``formulas`` says how each is computed
    and ``limits`` (aligned with ``measures``, None or absent where a measure has none) what
    a pair's value must reach for the metric to match it one-to-one.
    """

    gt: tuple[int, ...]
    det: tuple[int, ...]
    measures: tuple[str, ...]
    values: tuple[FloatArray, ...]
    formulas: tuple[str, ...]
    limits: tuple[Limit | None, ...] = ()

    def measure(self, name: str) -> FloatArray:
        return self.values[self.measures.index(name)]

    def limit(self, k: int) -> Limit | None:
        return self.limits[k] if k < len(self.limits) else None

    def value(self, k: int, gt: int, det: int) -> float | None:
        """Measure ``k`` of the pair (file indices), None when either is not in the table."""
        if gt not in self.gt or det not in self.det:
            return None
        return float(self.values[k][self.gt.index(gt), self.det.index(det)])

    def refusal(self, gt: int, det: int) -> str | None:
        """The limits the pair (file indices) fails, in words (``"IoU 0.49 ≤ 0.5"``); None
        when it fails none (or is not in the table)."""
        failed = []
        for k, name in enumerate(self.measures):
            lim, v = self.limit(k), self.value(k, gt, det)
            if lim is not None and v is not None and not lim.passes(v):
                failed.append(lim.refusal(name, v))
        return ", ".join(failed) or None


# --------------------------------------------------------------------------- shared parts
# Indices are 0-based positions in the sample's GT / detection lists (file order).


def area_pair_table(
    recall: SparsePairs, precision: SparsePairs, limits: tuple[Limit, Limit], measured: str
) -> PairTable:
    """The pair table of the area-recall / area-precision metrics (DetEval, TedEval): every
    GT x detection pair's |G ∩ D| / |G| and |G ∩ D| / |D|, ``measured`` saying how the areas
    are taken, and the one-to-one limits of the parameters."""
    n_gt, n_det = recall.shape
    return PairTable(
        tuple(range(n_gt)),
        tuple(range(n_det)),
        ("area recall", "area precision"),
        (recall.dense(), precision.dense()),
        (
            f"|G ∩ D| / |G| {measured}; one-to-one needs {limits[0]} (area_recall)",
            f"|G ∩ D| / |D| {measured}; one-to-one needs {limits[1]} (area_precision)",
        ),
        limits,
    )


@dataclass(frozen=True, slots=True)
class Absorbed:
    """A detection made don't-care by a don't-care GT (its area precision over it)."""

    det: int
    gt: int
    precision: float


@dataclass(frozen=True, slots=True)
class Skipped:
    """An instance a protocol leaves out before matching (invalid or degenerate polygon),
    with the reason (e.g. ``"self-intersecting (Self-intersection[5 3])"``)."""

    index: int
    reason: str


_PARTS = frozenset(
    {
        "AnglePair",
        "Discarded",
        "MultilineTest",
        "PccEvidence",
        "RecognitionStep",
        "VocFalsePositive",
    }
)


def __getattr__(name: str) -> object:
    """The parts only some families produce (``metrics.core.evidence_parts``), loaded when
    one is first asked for."""
    if name not in _PARTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from metrics.core import evidence_parts

    return getattr(evidence_parts, name)


States = tuple[dict[int, str], dict[int, str]]


def gt_taken(false_positives: tuple[VocFalsePositive, ...]) -> dict[int, str]:
    """``{det: "gt_taken"}`` for the false positives whose best GT was already taken."""
    return {f.det: "gt_taken" for f in false_positives if f.reason.endswith("taken")}


class Evidence:
    """The base of every family's evidence: what the viewer asks of a result, each answer
    empty unless the family's type says otherwise (methods, not a central type switch)."""

    __slots__ = ()

    def pair_table(self) -> PairTable | None:
        """The GT x detection table the result already carries (else the spec computes it)."""
        return None

    def pcc_evidence(self) -> PccEvidence | None:
        """The pseudo character centres and their hits (TedEval, CLEval)."""
        return None

    def multiline_tests(self) -> tuple[MultilineTest, ...]:
        """The multiline tests of split and merge candidates (TedEval)."""
        return ()

    def skipped(self) -> tuple[tuple[Skipped, ...], tuple[Skipped, ...]]:
        """(GT, detections) the protocol left out before matching, with reasons."""
        return (), ()

    def discarded_candidates(self) -> tuple[Discarded, ...]:
        """The candidate matches the rules discarded, with the reason (DetEval)."""
        return ()

    def recognition_steps(self) -> tuple[RecognitionStep, ...]:
        """End-to-end metrics: each GT's recognition against its detections (CLEval)."""
        return ()

    def instance_states(self) -> States:
        """What the evidence says of single instances beyond their verdict, for drawing them:
        (GT states, detection states) by index. ``"skipped"`` (left out before matching),
        ``"below_threshold"`` (a swept metric's detection under the shown score threshold),
        ``"gt_taken"`` (a VOC false positive whose best GT was already taken)."""
        gt_skipped, det_skipped = self.skipped()
        return (
            {s.index: "skipped" for s in gt_skipped},
            {s.index: "skipped" for s in det_skipped},
        )
