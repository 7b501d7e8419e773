"""The CLEval family's evidence: pseudo character centres, counters and, end-to-end, the
recognition steps."""

from __future__ import annotations

from collections.abc import Mapping

from metrics.core.evidence import Evidence, PccEvidence, RecognitionStep
from metrics.core.records import dataclass, field

__all__ = ["ClevalEvidence", "RecognitionStep"]


@dataclass(frozen=True, slots=True, eq=False)
class ClevalEvidence(Evidence):
    """CLEval: PCC, the don't-care rule per detection, the sample's counters and, for the
    end-to-end metrics, the recognition steps and the characters consumed / remaining."""

    pcc: PccEvidence
    dc_det_rule: Mapping[int, str]
    counters: Mapping[str, int]
    e2e: tuple[RecognitionStep, ...] | None = None
    consumed: Mapping[int, str] = field(default_factory=dict)
    remaining: Mapping[int, str] = field(default_factory=dict)

    def pcc_evidence(self) -> PccEvidence:
        return self.pcc

    def recognition_steps(self) -> tuple[RecognitionStep, ...]:
        return self.e2e or ()
