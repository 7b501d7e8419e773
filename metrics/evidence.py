"""Typed evidence shared by the families: regions as coordinates, never geometry objects.

A ``Region`` is what a metric shows as an area (TIoU's cut and outlier regions): the rings
of its polygon parts as (n, 2) float arrays (exterior and hole rings alike; draw them with
the even-odd rule) and its area. Results hold only plain data, so the viewer draws evidence
without calling back into the geometry engine, and results pickle and serialise as they are.

Every family's evidence type derives from ``Evidence`` and lives in its own package
(``metrics.<family>.evidence``); what the viewer asks of a result (its pair table, its
pseudo character centres, multiline tests, skipped instances and instance states) is a
method of the evidence, not a switch over the types here.
"""

from __future__ import annotations

from metrics.core.evidence import (
    EMPTY_REGION,
    Absorbed,
    AnglePair,
    Discarded,
    Evidence,
    FloatArray,
    IntArray,
    Limit,
    MultilineTest,
    PairTable,
    PccEvidence,
    RecognitionStep,
    Region,
    Skipped,
    States,
    VocFalsePositive,
    gt_taken,
)

__all__ = [
    "EMPTY_REGION",
    "Absorbed",
    "AnglePair",
    "Discarded",
    "Evidence",
    "FloatArray",
    "IntArray",
    "Limit",
    "MultilineTest",
    "PairTable",
    "PccEvidence",
    "RecognitionStep",
    "Region",
    "Skipped",
    "States",
    "VocFalsePositive",
    "gt_taken",
]
