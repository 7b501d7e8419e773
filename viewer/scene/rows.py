"""Per-sample counts for the sample table (read from the engine's results; no Qt)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from operator import attrgetter

import numpy as np

from metrics.analysis.compare import SampleDiff
from metrics.core.evidence import MultilineTest
from metrics.core.model import Sample
from metrics.core.results import MatchKind, SampleResult, Verdict

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
    """A sample's row. None: not known yet (the counts before the image is read, the scores
    and failure counts before it is evaluated, or when the metric cannot evaluate it); the
    table shows that as pending or not evaluated, never as 0."""

    sample_id: str
    n_gt: int | None
    n_det: int | None
    recall: float | None
    precision: float | None
    hmean: float | None
    missed: int | None = None
    false_positives: int | None = None
    splits: int | None = None
    merges: int | None = None
    partial: int | None = None
    multiline: int | None = None
    hmean_b: float | None = None  # comparison: B's H-mean, B - A, GTs found by one side only
    delta: float | None = None
    a_only: int | None = None
    b_only: int | None = None

    @property
    def disagreement(self) -> float | None:
        return None if self.delta is None else abs(self.delta)

    def count(self, kind: str) -> int:
        """How many failures of ``kind`` (0 when not known: a filter on it leaves it out)."""
        if kind in COMPARE_TESTS:
            return int(COMPARE_TESTS[kind](self))
        return int(getattr(self, kind) or 0)


COMPARE_KINDS = ("a_better", "b_better", "both_fail", "a_only", "b_only")
COMPARE_TITLES = {
    "a_better": "A better",
    "b_better": "B better",
    "both_fail": "both fail",
    "a_only": "GT found by A, missed by B",
    "b_only": "GT found by B, missed by A",
}
COMPARE_TESTS: dict[str, Callable[[SampleRow], bool]] = {
    "a_better": lambda r: r.delta is not None and r.delta < 0,
    "b_better": lambda r: r.delta is not None and r.delta > 0,
    "both_fail": lambda r: r.hmean == 0.0 and r.hmean_b == 0.0,
    "a_only": lambda r: (r.a_only or 0) > 0,
    "b_only": lambda r: (r.b_only or 0) > 0,
}


def compare_row(row: SampleRow, diff: SampleDiff | None) -> SampleRow:
    """The row with the comparison columns filled from the engine's sample diff."""
    if diff is None:
        return row
    return dataclasses.replace(
        row,
        hmean_b=diff.score("b", "hmean"),
        delta=diff.delta(),
        a_only=len(diff.found_by_a_only),
        b_only=len(diff.found_by_b_only),
    )


def blank_row(sample_id: str, n_gt: int | None = None, n_det: int | None = None) -> SampleRow:
    """The row of a sample not evaluated (yet): its counts if read, nothing else."""
    return SampleRow(sample_id, n_gt, n_det, None, None, None)


def sample_row(sample: Sample, result: SampleResult | None) -> SampleRow:
    if result is None:
        return blank_row(sample.id, len(sample.gt), len(sample.det))
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
        multiline=sum(g.rejected for g in _multiline(result)),
    )


def sorted_rows(
    rows: list[SampleRow],
    field: str | None,
    *,
    descending: bool = False,
    focus: Mapping[str, int] | None = None,
) -> list[SampleRow]:
    """The table's order: by ``focus`` rank when given (the Analysis panel's pick), else by
    ``field``, stable, the rows without a value (images not evaluated) after the others
    either way (worst first opens on the worst image evaluated, not on one the metric could
    not read); unchanged for None."""
    if focus is not None:
        return sorted(rows, key=lambda r: focus.get(r.sample_id, len(focus)))
    if field is None:
        return list(rows)
    keys = list(map(attrgetter(field), rows))
    if keys.count(None) == len(keys):  # nothing known yet (a set being read or evaluated)
        return list(rows)
    if field == "sample_id":
        perm = sorted(range(len(keys)), key=keys.__getitem__, reverse=descending)
        return [rows[k] for k in perm]
    values = np.array([np.nan if v is None else v for v in keys], dtype=float)
    known = np.flatnonzero(~np.isnan(values))
    ranked = values[known]
    order = known[np.argsort(-ranked if descending else ranked, kind="stable")]  # ties keep order
    return [rows[k] for k in order.tolist()] + [rows[k] for k in np.flatnonzero(np.isnan(values))]


def _multiline(result: SampleResult) -> tuple[MultilineTest, ...]:
    """The result's multiline tests (TedEval; empty for the other metrics)."""
    return result.evidence.multiline_tests() if result.evidence is not None else ()
