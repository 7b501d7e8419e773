"""The evidence parts that only some families produce: VOC false positives (CTW1500,
Total-Text), pseudo character centres (TedEval, CLEval), TedEval's multiline tests,
DetEval's discarded candidates and CLEval's recognition steps.

Import them from ``metrics.core.evidence``, which loads this module when one is first asked
for: a run of the other metrics does not create these classes.
"""

from __future__ import annotations

from collections.abc import Mapping

from metrics.core.arrays import FloatArray, IntArray
from metrics.core.records import dataclass, field


@dataclass(frozen=True, slots=True)
class VocFalsePositive:
    """A VOC-style false positive: ``reason`` is ``FP_gt_taken`` (its best GT reached the
    IoU threshold but was already taken) or ``FP_low_iou``; ``best_gt`` is the first best
    care GT and ``best_iou`` its IoU."""

    det: int
    reason: str
    best_gt: int | None
    best_iou: float


@dataclass(frozen=True, slots=True, eq=False)
class PccEvidence:
    """Pseudo character centres of every GT word and who hit them (TedEval, CLEval).

    Per GT (tuples aligned with the GT list): ``points`` (k, 2), ``vertical``, ``hits``
    (count per character) and ``hit_by`` (per character, the detections that hit it).
    """

    points: tuple[FloatArray, ...]
    vertical: tuple[bool, ...]
    hits: tuple[IntArray, ...]
    hit_by: tuple[tuple[tuple[int, ...], ...], ...]


@dataclass(frozen=True, slots=True)
class AnglePair:
    """One ordered pair of the multiline test: labels, raw angle theta and folded angle."""

    a: int
    b: int
    theta: float
    angle: float
    passed: bool


@dataclass(frozen=True, slots=True)
class MultilineTest:
    """The multiline test of a split (``OM``) or merge (``MO``) candidate (TedEval, spec 4.4).

    ``pivots`` maps each instance (GT for merges, detection for splits) to its two pivot
    points; ``rejecting_pair`` is the first failing pair, the official decision.
    """

    kind: str
    gt: tuple[int, ...]
    det: tuple[int, ...]
    pairs: tuple[AnglePair, ...]
    rejected: bool
    rejecting_pair: tuple[int, int] | None
    pivots: Mapping[int, tuple[tuple[float, float], tuple[float, float]]]


@dataclass(frozen=True, slots=True)
class Discarded:
    """A candidate match that did not become one, with the reason and its numbers (DetEval).

    ``reason`` is one of ``not_unique``, ``not_single_overlap``, ``center_distance``,
    ``sum_below_threshold``, ``om_not_single``, ``mo_not_single`` (spec 2.3); ``stage`` is
    ``"OO"``, ``"OM"`` or ``"MO"``; ``values`` holds e.g. ``S``, ``d``, ``gt_overlaps``.
    """

    reason: str
    gt: tuple[int, ...]
    det: tuple[int, ...]
    stage: str = "OO"
    values: Mapping[str, float] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class RecognitionStep:
    """End-to-end: one GT's recognition against its detections (CLEval, spec 5.6)."""

    gt: int
    dets: tuple[int, ...]
    text: str
    lcs: str
    lcs_len: int
