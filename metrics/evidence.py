"""Typed evidence shared by the families: regions as coordinates, never geometry objects.

A ``Region`` is what a metric shows as an area (TIoU's cut and outlier regions): the rings
of its polygon parts as (n, 2) float arrays (exterior and hole rings alike; draw them with
the even-odd rule) and its area. Results hold only plain data, so the viewer draws evidence
without calling back into the geometry engine, and results pickle and serialise as they are.

This module holds what every evaluation uses (regions, the pair table, the ICDAR IoU
family's evidence); the other families' types live in ``metrics.evidence_kinds`` and are
imported from here on first use (``from metrics.evidence import TedEvalEvidence`` works as
before), so an evaluation creates only the classes it needs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from metrics.core.evidence import (
    EMPTY_REGION,
    FloatArray,
    IntArray,
    IouEvidence,
    PairTable,
    RankedDetection,
    Region,
)

_KINDS = frozenset(
    {
        "Discarded",
        "Absorbed",
        "DetEvalEvidence",
        "PccEvidence",
        "AnglePair",
        "MultilineTest",
        "TedEvalEvidence",
        "RecognitionStep",
        "ClevalEvidence",
        "Skipped",
        "TotalTextDetEvalEvidence",
        "VocFalsePositive",
        "TotalTextVocEvidence",
        "evidence_pair_table",
        "SweepEvidence",
        "VocEvidence",
        "SkippedEvidence",
        "Evidence",
        "pcc_of",
        "multiline_of",
        "skipped_of",
        "instance_states",
    }
)

if TYPE_CHECKING:
    from metrics.evidence_kinds import (
        Absorbed as Absorbed,
    )
    from metrics.evidence_kinds import (
        AnglePair as AnglePair,
    )
    from metrics.evidence_kinds import (
        ClevalEvidence as ClevalEvidence,
    )
    from metrics.evidence_kinds import (
        DetEvalEvidence as DetEvalEvidence,
    )
    from metrics.evidence_kinds import (
        Discarded as Discarded,
    )
    from metrics.evidence_kinds import (
        Evidence as Evidence,
    )
    from metrics.evidence_kinds import (
        MultilineTest as MultilineTest,
    )
    from metrics.evidence_kinds import (
        PccEvidence as PccEvidence,
    )
    from metrics.evidence_kinds import (
        RecognitionStep as RecognitionStep,
    )
    from metrics.evidence_kinds import (
        Skipped as Skipped,
    )
    from metrics.evidence_kinds import (
        SkippedEvidence as SkippedEvidence,
    )
    from metrics.evidence_kinds import (
        SweepEvidence as SweepEvidence,
    )
    from metrics.evidence_kinds import (
        TedEvalEvidence as TedEvalEvidence,
    )
    from metrics.evidence_kinds import (
        TotalTextDetEvalEvidence as TotalTextDetEvalEvidence,
    )
    from metrics.evidence_kinds import (
        TotalTextVocEvidence as TotalTextVocEvidence,
    )
    from metrics.evidence_kinds import (
        VocEvidence as VocEvidence,
    )
    from metrics.evidence_kinds import (
        VocFalsePositive as VocFalsePositive,
    )
    from metrics.evidence_kinds import (
        evidence_pair_table as evidence_pair_table,
    )
    from metrics.evidence_kinds import (
        instance_states as instance_states,
    )
    from metrics.evidence_kinds import (
        multiline_of as multiline_of,
    )
    from metrics.evidence_kinds import (
        pcc_of as pcc_of,
    )
    from metrics.evidence_kinds import (
        skipped_of as skipped_of,
    )


def __getattr__(name: str) -> object:
    """The other families' evidence types, imported on first use."""
    if name in _KINDS:
        from metrics import evidence_kinds

        value = getattr(evidence_kinds, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "EMPTY_REGION",
    "Absorbed",
    "AnglePair",
    "ClevalEvidence",
    "DetEvalEvidence",
    "Discarded",
    "Evidence",
    "FloatArray",
    "IntArray",
    "IouEvidence",
    "MultilineTest",
    "PairTable",
    "PccEvidence",
    "RankedDetection",
    "RecognitionStep",
    "Region",
    "Skipped",
    "SkippedEvidence",
    "SweepEvidence",
    "TedEvalEvidence",
    "TotalTextDetEvalEvidence",
    "TotalTextVocEvidence",
    "VocEvidence",
    "VocFalsePositive",
    "evidence_pair_table",
    "instance_states",
    "multiline_of",
    "pcc_of",
    "skipped_of",
]
