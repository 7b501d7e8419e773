"""Parameters of SCUT-CTW1500's evaluation (defaults = the official script). The bottom of
the family: imports nothing from it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Ctw1500Params:
    """Official defaults (TOTALTEXT_CTW1500.md C1-C5).

    iou_threshold:
        ``ovthresh``; a detection is a TP when its IoU with its best GT is strictly above it.
    min_union:
        The union is clamped at this value before dividing.
    sort_by_confidence:
        The official code computes a confidence sort but does not apply it (C2): detections
        are taken in file order. True applies the intended stable descending sort when the
        detections carry confidences (matching order per image and the global AP curve).
    """

    iou_threshold: float = 0.5
    min_union: float = 1e-5
    sort_by_confidence: bool = False
