"""Evidence types of the families beyond the ICDAR IoU family (DetEval, TedEval, CLEval,
Total-Text, MMOCR sweeps, CTW1500 VOC, PaddleOCR) and the helpers that read them.

Import them from ``metrics.evidence``, which loads this module on first use.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from metrics.core.evidence import FloatArray, IntArray, IouEvidence, PairTable
from metrics.core.sparse import SparsePairs


@dataclass(frozen=True, slots=True)
class Discarded:
    """A DetEval candidate that did not become a match, with the reason and its numbers.

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
class Absorbed:
    """A detection made don't-care by a don't-care GT (its area precision over it)."""

    det: int
    gt: int
    precision: float


@dataclass(frozen=True, slots=True, eq=False)
class DetEvalEvidence:
    """DetEval: discarded candidates, the official match-type labels, absorbed detections
    and the GT x det area recall / area precision of the pairs that overlap (sparse)."""

    discarded: tuple[Discarded, ...]
    match_types: tuple[str, ...]
    dc_dets: tuple[Absorbed, ...]
    area_recall: SparsePairs
    area_precision: SparsePairs


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
    """TedEval's multiline test of a split (``OM``) or merge (``MO``) candidate (spec 4.4).

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


@dataclass(frozen=True, slots=True, eq=False)
class TedEvalEvidence:
    """TedEval: PCC, multiline tests, the don't-care rule that applied to each detection
    (``"single"`` / ``"sum"``), what is left of such detections after the cut, and the area
    recall / precision of every overlapping (GT, det) pair (file indices) as matched: after
    the don't-care cuts (the pair matrix)."""

    pcc: PccEvidence
    multiline: tuple[MultilineTest, ...]
    dc_det_rule: Mapping[int, str]
    det_polygons_after_dc: Mapping[int, tuple[FloatArray, ...]]
    area_recall: SparsePairs
    area_precision: SparsePairs


@dataclass(frozen=True, slots=True)
class RecognitionStep:
    """CLEval end-to-end: one GT's recognition against its detections (spec 5.6)."""

    gt: int
    dets: tuple[int, ...]
    text: str
    lcs: str
    lcs_len: int


@dataclass(frozen=True, slots=True, eq=False)
class ClevalEvidence:
    """CLEval: PCC, the don't-care rule per detection, the sample's counters and, for the
    end-to-end metrics, the recognition steps and the characters consumed / remaining."""

    pcc: PccEvidence
    dc_det_rule: Mapping[int, str]
    counters: Mapping[str, int]
    e2e: tuple[RecognitionStep, ...] | None = None
    consumed: Mapping[int, str] = field(default_factory=dict)
    remaining: Mapping[int, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Skipped:
    """An instance a protocol leaves out before matching (invalid or degenerate polygon),
    with the reason (e.g. ``"self-intersecting (Self-intersection[5 3])"``)."""

    index: int
    reason: str


@dataclass(frozen=True, slots=True, eq=False)
class TotalTextDetEvalEvidence:
    """Total-Text DetEval: the rounded sigma / tau tables (rows = ``care_gt``, columns =
    ``kept_det``, both file indices) and the detections the don't-care filter removed, with
    the GT that absorbed each and its ``inter / (area + 1)``."""

    care_gt: tuple[int, ...]
    kept_det: tuple[int, ...]
    sigma: FloatArray
    tau: FloatArray
    dc_dets: tuple[Absorbed, ...]


@dataclass(frozen=True, slots=True)
class VocFalsePositive:
    """A Total-Text VOC false positive: ``reason`` is ``FP_gt_taken`` (its best GT reached
    the IoU threshold but was already taken) or ``FP_low_iou``; ``best_gt`` is the first
    best care GT and ``best_iou`` its IoU."""

    det: int
    reason: str
    best_gt: int | None
    best_iou: float


@dataclass(frozen=True, slots=True, eq=False)
class TotalTextVocEvidence:
    """Total-Text VOC: the IoU table (rows = ``care_gt``, columns = ``kept_det``), why each
    false positive is one, and the detections absorbed by don't-care GTs."""

    care_gt: tuple[int, ...]
    kept_det: tuple[int, ...]
    iou: FloatArray
    false_positives: tuple[VocFalsePositive, ...]
    dc_dets: tuple[Absorbed, ...]


def evidence_pair_table(evidence: object) -> PairTable | None:
    """The pair table a result already carries (DetEval's and TedEval's area recall /
    precision, Total-Text DetEval's sigma / tau, Total-Text VOC's IoU)."""
    if isinstance(evidence, TedEvalEvidence):
        n_gt, n_det = evidence.area_recall.shape
        return PairTable(
            tuple(range(n_gt)),
            tuple(range(n_det)),
            ("area recall", "area precision"),
            (evidence.area_recall.dense(), evidence.area_precision.dense()),
            (
                "|G ∩ D| / |G| after the don't-care cuts; one-to-one needs >= area_recall (0.4)",
                "|G ∩ D| / |D| after the don't-care cuts; one-to-one needs >= area_precision (0.4)",
            ),
        )
    if isinstance(evidence, DetEvalEvidence):
        n_gt, n_det = evidence.area_recall.shape
        return PairTable(
            tuple(range(n_gt)),
            tuple(range(n_det)),
            ("area recall", "area precision"),
            (evidence.area_recall.dense(), evidence.area_precision.dense()),
            (
                "|G ∩ D| / |G| in inclusive pixels; one-to-one needs >= area_recall (0.8)",
                "|G ∩ D| / |D| in inclusive pixels; one-to-one needs >= area_precision (0.4)",
            ),
        )
    if isinstance(evidence, TotalTextDetEvalEvidence):
        return PairTable(
            evidence.care_gt,
            evidence.kept_det,
            ("sigma", "tau"),
            (evidence.sigma, evidence.tau),
            (
                "|G ∩ D| / |G| (GT covered), rounded to 2 decimals",
                "|G ∩ D| / |D| (detection covered), rounded to 2 decimals",
            ),
        )
    if isinstance(evidence, TotalTextVocEvidence):
        return PairTable(
            evidence.care_gt,
            evidence.kept_det,
            ("IoU",),
            (evidence.iou,),
            ("|G ∩ D| / (|G ∪ D| + 1)",),
        )
    return None


@dataclass(frozen=True, slots=True)
class SweepEvidence:
    """A score-threshold sweep (MMOCR ``HmeanIOUMetric``): what happened at every threshold.

    ``scores`` are the detections' scores as compared (float32 for MMOCR), aligned with the
    det list, and ``levels[j]`` the number of thresholds at which det j is counted (kept
    sets shrink as the threshold grows: det j counts at ``thresholds[:levels[j]]``);
    ``pairs[k]`` the (GT, det) pairs matched at ``thresholds[k]``, ``pair_iou[k]`` their
    IoU; ``shown`` the threshold whose verdicts and matches the result shows (the globally
    best one once the metric's ``finalize`` has run). ``below_min_threshold`` lists the dets
    under the lowest threshold, ``ignored_overlap`` those dropped by an ignored GT (the GT
    and the ratio each), ``gt_removed`` the GT taken out before evaluation (< 3 points).
    """

    thresholds: tuple[float, ...]
    scores: tuple[float, ...]
    levels: tuple[int, ...]
    pairs: tuple[tuple[tuple[int, int], ...], ...]
    pair_iou: tuple[tuple[float, ...], ...]
    shown: int = 0
    below_min_threshold: tuple[int, ...] = ()
    ignored_overlap: tuple[Absorbed, ...] = ()
    gt_removed: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class VocEvidence:
    """``ctw1500_eval``: the detections in evaluation order (the AP curve), the false
    positives with their reason, skipped detections and invalid GT (IoU 0, still counted).

    ``order`` lists the detections in evaluation order; ``confidence``, ``tp`` and ``fp`` are
    aligned with it (``tp``/``fp``: what each adds to the cumulative P/R curve; a skipped
    detection adds neither). ``det_file`` (the detection file's name) orders the images as
    the official tool does; ``sorted_by_confidence`` says whether the intended confidence
    sort was applied."""

    det_file: str
    order: tuple[int, ...]
    confidence: tuple[float, ...]
    tp: tuple[bool, ...]
    fp: tuple[bool, ...]
    false_positives: tuple[VocFalsePositive, ...]
    skipped_dets: tuple[Skipped, ...]
    invalid_gt: tuple[Skipped, ...]
    sorted_by_confidence: bool = False


@dataclass(frozen=True, slots=True)
class SkippedEvidence:
    """``paddleocr_det_iou``: GT and detections skipped entirely (not valid or not simple
    after padding), which count nowhere and cannot absorb or match anything."""

    gt_invalid_skipped: tuple[Skipped, ...]
    det_invalid_skipped: tuple[Skipped, ...]


Evidence = (
    IouEvidence
    | DetEvalEvidence
    | TedEvalEvidence
    | ClevalEvidence
    | TotalTextDetEvalEvidence
    | TotalTextVocEvidence
    | SweepEvidence
    | VocEvidence
    | SkippedEvidence
)


def pcc_of(evidence: Evidence | None) -> PccEvidence | None:
    """The PCC evidence of a result (TedEval, CLEval), or None."""
    if isinstance(evidence, TedEvalEvidence | ClevalEvidence):
        return evidence.pcc
    return None


def multiline_of(evidence: Evidence | None) -> tuple[MultilineTest, ...]:
    """TedEval's multiline tests of a result (empty for every other metric)."""
    return evidence.multiline if isinstance(evidence, TedEvalEvidence) else ()


def skipped_of(evidence: Evidence | None) -> tuple[tuple[Skipped, ...], tuple[Skipped, ...]]:
    """(GT, detections) a protocol left out before matching, with reasons (CTW1500's skipped
    detections and invalid GT, PaddleOCR's invalid polygons); empty for other metrics."""
    if isinstance(evidence, VocEvidence):
        return evidence.invalid_gt, evidence.skipped_dets
    if isinstance(evidence, SkippedEvidence):
        return evidence.gt_invalid_skipped, evidence.det_invalid_skipped
    return (), ()


def instance_states(evidence: Evidence | None) -> tuple[dict[int, str], dict[int, str]]:
    """What the evidence says of single instances beyond their verdict, for drawing them:
    (GT states, detection states) by index. States: ``"skipped"`` (left out before matching:
    CTW1500's invalid detections, PaddleOCR's invalid polygons), ``"below_threshold"`` (a
    swept metric's detection under the shown score threshold) and ``"gt_taken"`` (a VOC
    false positive whose best GT was already taken)."""
    gts: dict[int, str] = {}
    dets: dict[int, str] = {}
    gt_skipped, det_skipped = skipped_of(evidence)
    gts.update((s.index, "skipped") for s in gt_skipped)
    dets.update((s.index, "skipped") for s in det_skipped)
    if isinstance(evidence, SweepEvidence):
        dets.update(
            (j, "below_threshold") for j, lv in enumerate(evidence.levels) if lv <= evidence.shown
        )
    if isinstance(evidence, TotalTextVocEvidence | VocEvidence):
        dets.update(
            (f.det, "gt_taken") for f in evidence.false_positives if f.reason.endswith("taken")
        )
    return gts, dets
