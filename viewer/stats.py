"""Per-sample counts for the sample table (read from the engine's results; no Qt)."""

from __future__ import annotations

from dataclasses import dataclass

from metrics.model import Sample
from metrics.results import MatchKind, SampleResult, Verdict

FAILURE_KINDS = ("missed", "false_positives", "splits", "merges", "partial", "multiline")
FAILURE_TITLES = {
    "missed": "misses",
    "false_positives": "false positives",
    "splits": "splits",
    "merges": "merges",
    "partial": "partial hits",
    "multiline": "multiline rejections",
}


@dataclass(frozen=True)
class SampleRow:
    sample_id: str
    n_gt: int
    n_det: int
    recall: float | None
    precision: float | None
    hmean: float | None
    missed: int = 0
    false_positives: int = 0
    splits: int = 0
    merges: int = 0
    partial: int = 0
    multiline: int = 0

    def count(self, kind: str) -> int:
        return int(getattr(self, kind))


def sample_row(sample: Sample, result: SampleResult | None) -> SampleRow:
    if result is None:
        return SampleRow(sample.id, len(sample.gt), len(sample.det), None, None, None)
    return SampleRow(
        sample.id,
        len(sample.gt),
        len(sample.det),
        result.recall,
        result.precision,
        result.hmean,
        missed=sum(r.verdict is Verdict.MISSED for r in result.gt),
        false_positives=sum(r.verdict is Verdict.FALSE_POSITIVE for r in result.det),
        splits=sum(m.kind is MatchKind.SPLIT for m in result.matches),
        merges=sum(m.kind is MatchKind.MERGE for m in result.matches),
        partial=sum(r.verdict is Verdict.PARTIAL for r in result.gt),
        multiline=sum(bool(g.get("rejected")) for g in result.evidence.get("multiline", ())),
    )
