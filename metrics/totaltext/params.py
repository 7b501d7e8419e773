"""Parameters of the Total-Text evaluation scripts (defaults are the official ones).

The bottom of the family: imports nothing from it. Spec: ``TOTALTEXT_CTW1500.md``.
"""

from __future__ import annotations

from metrics.core.records import dataclass
from metrics.declare.params import NON_NEGATIVE, UNIT, param

MERGE_GT_THRESHOLDS = ("tp", "tr")
MISSING_DET_FILE = ("skip", "empty")

_DC = "a detection is removed when inter / (its area + 1) with a don't-care GT is above this"
_FLOAT = "accept non-integer coordinates (false: refuse them, as the script's int() does)"
_MISSING = (
    "an image without a detection file: skip (not evaluated, its GT counts nowhere, as the "
    "script) or empty (scored as an image without detections)"
)


def _check_unit(name: str, value: float) -> None:
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"{name} must lie in [0, 1], not {value!r}")


def _check_choice(name: str, value: str, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise ValueError(f"{name} must be one of {choices}, not {value!r}")


@dataclass(frozen=True)
class TotalTextDetEvalParams:
    """``Deteval.py`` (D1-D6): tr, tp, the split/merge weight ``fsc_k`` and ``k``.

    Options giving the rule the authors meant where the code departs from it (DetEval paper,
    Wolf & Jolion 2006): ``oo_same_det=True`` makes the one-to-one pass require that the det
    with ``sigma > tr`` is also the one with ``tau > tp`` (quirk 5);
    ``merge_gt_threshold="tr"`` qualifies the GTs of a many-to-one match with ``sigma >= tr``
    instead of ``tp`` (quirk 8). ``decimals`` is the rounding of sigma / tau (D2, quirk 7).
    ``allow_float=false`` refuses non-integer coordinates as the script's ``int()`` does
    (quirk 16; ``--floats refuse``); by default they are evaluated as given.
    ``missing_det_file``: the script iterates over the detection files, so an image
    without one is not evaluated and its GT counts nowhere (``"skip"``, quirk 1);
    ``"empty"`` scores it as an image without detections (its GT missed).
    """

    tr: float = param(
        0.7,
        "GT coverage sigma = |G ∩ D| / |G| a match needs (> for one-to-one, >= for splits "
        "and merges)",
        range=UNIT,
    )
    tp: float = param(
        0.6,
        "detection coverage tau = |G ∩ D| / |D| a match needs (> for one-to-one, >= for "
        "splits and merges)",
        range=UNIT,
    )
    fsc_k: float = param(0.8, "credit of a split or merge (one-to-many, many-to-one)", range=UNIT)
    k: int = param(
        2, "a split or merge needs at least this many overlapping partners", range=(1, 1000)
    )
    dc_threshold: float = param(0.5, _DC, range=UNIT)
    decimals: int = param(2, "decimals sigma and tau are rounded to", range=(0, 15))
    oo_same_det: bool = param(
        False,
        "a one-to-one match needs the detection with sigma > tr to be the one with tau > tp "
        "(the paper; the script does not check it)",
    )
    merge_gt_threshold: str = param(
        "tp",
        "the coverage that qualifies the GTs of a merge: tp (the script) or tr (the paper)",
        choices=MERGE_GT_THRESHOLDS,
    )
    allow_float: bool = param(True, _FLOAT)
    missing_det_file: str = param("skip", _MISSING, choices=MISSING_DET_FILE)

    def __post_init__(self) -> None:
        for name in ("tr", "tp", "fsc_k", "dc_threshold"):
            _check_unit(name, getattr(self, name))
        _check_choice("merge_gt_threshold", self.merge_gt_threshold, MERGE_GT_THRESHOLDS)
        _check_choice("missing_det_file", self.missing_det_file, MISSING_DET_FILE)


@dataclass(frozen=True)
class TotalTextVocParams:
    """``Pascal_VOC.py`` (V1-V5): one-to-one matching at ``IoU >= iou_threshold``.

    ``union_offset`` is the script's ``+1`` in the IoU denominator (quirk 10; 0 gives the
    plain IoU). ``second_choice=True`` lets a detection whose best GT is taken fall back on
    its best free GT (the script does not: quirk 11). ``allow_float`` and
    ``missing_det_file`` as for DetEval.
    """

    iou_threshold: float = param(
        0.5, "a detection matches its best GT when their IoU is at least this (>=)", range=UNIT
    )
    dc_threshold: float = param(0.5, _DC, range=UNIT)
    union_offset: float = param(
        1.0,
        "added to the union in the IoU (the script's + 1; 0: the plain IoU)",
        range=NON_NEGATIVE,
    )
    second_choice: bool = param(
        False,
        "a detection whose best GT is taken falls back on its best free GT (the script does not)",
    )
    allow_float: bool = param(True, _FLOAT)
    missing_det_file: str = param("skip", _MISSING, choices=MISSING_DET_FILE)

    def __post_init__(self) -> None:
        for name in ("iou_threshold", "dc_threshold"):
            _check_unit(name, getattr(self, name))
        _check_choice("missing_det_file", self.missing_det_file, MISSING_DET_FILE)
        if self.union_offset < 0:
            raise ValueError(f"union_offset must be >= 0, not {self.union_offset!r}")
