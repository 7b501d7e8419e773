"""TedEval's evidence: pseudo character centres, multiline tests and the don't-care rules."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from metrics.core.evidence import Evidence, FloatArray, MultilineTest, PccEvidence


@dataclass(frozen=True, slots=True, eq=False)
class TedEvalEvidence(Evidence):
    """TedEval: PCC, multiline tests, the don't-care rule that applied to each detection
    (``"single"`` / ``"sum"``) and what is left of such detections after the cut."""

    pcc: PccEvidence
    multiline: tuple[MultilineTest, ...]
    dc_det_rule: Mapping[int, str]
    det_polygons_after_dc: Mapping[int, tuple[FloatArray, ...]]

    def pcc_evidence(self) -> PccEvidence:
        return self.pcc

    def multiline_tests(self) -> tuple[MultilineTest, ...]:
        return self.multiline
