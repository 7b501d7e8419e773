"""Input checks of ``ctw1500_eval``: where our input departs from what the official script
takes (spec ``TOTALTEXT_CTW1500.md`` quirks 13 and 16).

Nothing is refused: every case below is evaluated with the rule that stays well defined, and
reported as a located warning (file + 1-based line) so the number is not mistaken for one the
official tool printed.

* GT with a point count other than 14: the official GT format has exactly 14 points (fewer
  crash it, more are cut to the first 14); evaluated with all its points (a GT with fewer than
  3 points is an invalid GT: IoU 0, still counted).
* GT with non-integer coordinates: the official code reads GT with ``int()`` (crash);
  evaluated as given.
* An image that has detections but no GT line: the official code crashes (``KeyError`` /
  ``max`` of an empty array); evaluated: each valid detection is an FP (``FP_low_iou``, no
  best GT).
* ``sort_by_confidence`` with detections that carry no confidence: that image keeps file
  order.

Skipped detections (fewer than 3 points, self-intersecting) are what the official code does
too (silently); they are listed in the results' evidence, not here.
"""

from __future__ import annotations

from metrics.core.model import Problem, Sample, Severity
from metrics.ctw1500.params import Ctw1500Params

GT_POINTS = 14


def validate(sample: Sample, params: Ctw1500Params) -> list[Problem]:
    out: list[Problem] = []
    gt_src = sample.gt_source or "GT"
    for g in sample.gt:
        if len(g.points) != GT_POINTS:
            out.append(
                _warn(
                    gt_src,
                    g.line,
                    f"GT has {len(g.points)} points; the official CTW1500 format has exactly "
                    f"{GT_POINTS} (fewer crash the script, more are cut to the first "
                    f"{GT_POINTS}); evaluated with all {len(g.points)} points",
                    sample.id,
                )
            )
        if not g.integer:
            out.append(
                _warn(
                    gt_src,
                    g.line,
                    "GT coordinates are not integers (the official script reads them with "
                    "int() and crashes); evaluated as given",
                    sample.id,
                )
            )
    if sample.det and not sample.gt:
        out.append(
            _warn(
                sample.det_source or "det",
                None,
                "detections in an image without GT (the official script crashes); "
                "evaluated: every valid detection is a false positive",
                sample.id,
            )
        )
    if params.sort_by_confidence and any(d.confidence is None for d in sample.det):
        out.append(
            _warn(
                sample.det_source or "det",
                next(d.line for d in sample.det if d.confidence is None),
                "sort_by_confidence: detections without a confidence; this image keeps file order",
                sample.id,
            )
        )
    return out


def _warn(source: str, line: int | None, message: str, sample_id: str) -> Problem:
    return Problem(Severity.WARNING, source, line, message, sample_id)
