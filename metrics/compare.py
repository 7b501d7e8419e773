"""Comparison of two evaluations of the same GT: two detectors under one metric, or one
detector under two metrics (where the metrics disagree).

Everything is read from the two evaluations' results; nothing is re-computed. A GT counts as
"found" when its verdict is matched or partial.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from metrics.results import Evaluation, SampleResult, Verdict

FOUND = (Verdict.MATCHED, Verdict.PARTIAL)


@dataclass(frozen=True)
class SampleDiff:
    """One image under A and B; ``delta`` = B minus A."""

    sample_id: str
    a: SampleResult | None
    b: SampleResult | None
    found_by_a_only: tuple[int, ...] = ()
    found_by_b_only: tuple[int, ...] = ()

    def score(self, side: str, key: str) -> float | None:
        r = self.a if side == "a" else self.b
        return None if r is None else float(getattr(r, key))

    def delta(self, key: str = "hmean") -> float | None:
        a, b = self.score("a", key), self.score("b", key)
        return None if a is None or b is None else b - a

    @property
    def both_fail(self) -> bool:
        return (
            self.a is not None
            and self.b is not None
            and self.a.hmean == 0.0
            and self.b.hmean == 0.0
        )


@dataclass(frozen=True)
class Comparison:
    """Two evaluations side by side, per image, largest |ΔH| first."""

    name_a: str
    name_b: str
    a: Evaluation
    b: Evaluation
    samples: tuple[SampleDiff, ...] = field(default=())

    def global_delta(self) -> dict[str, float]:
        return {
            k: getattr(self.b, k) - getattr(self.a, k) for k in ("recall", "precision", "hmean")
        }


def _found(r: SampleResult | None) -> set[int]:
    return set() if r is None else {g.index for g in r.gt if g.verdict in FOUND}


def sample_diff(sample_id: str, a: SampleResult | None, b: SampleResult | None) -> SampleDiff:
    fa, fb = _found(a), _found(b)
    both = a is not None and b is not None
    return SampleDiff(
        sample_id,
        a,
        b,
        found_by_a_only=tuple(sorted(fa - fb)) if both else (),
        found_by_b_only=tuple(sorted(fb - fa)) if both else (),
    )


def compare(a: Evaluation, b: Evaluation, name_a: str = "A", name_b: str = "B") -> Comparison:
    """Per-image differences of two evaluations over the same samples."""
    ids = list(dict.fromkeys([*a.results, *b.results]))
    diffs = [sample_diff(s, a.results.get(s), b.results.get(s)) for s in ids]
    diffs.sort(key=lambda d: (-(abs(d.delta() or 0.0)), d.sample_id))
    return Comparison(name_a, name_b, a, b, tuple(diffs))


def _scores(r: SampleResult | None) -> dict[str, float] | None:
    if r is None:
        return None
    return {"recall": r.recall, "precision": r.precision, "hmean": r.hmean}


def comparison_dict(c: Comparison) -> dict[str, Any]:
    """JSON form: both globals, their difference, and every image (largest |ΔH| first)."""

    def side(name: str, ev: Evaluation) -> Mapping[str, Any]:
        return {
            "name": name,
            "metric": ev.metric,
            "recall": ev.recall,
            "precision": ev.precision,
            "hmean": ev.hmean,
        }

    return {
        "a": side(c.name_a, c.a),
        "b": side(c.name_b, c.b),
        "delta": c.global_delta(),
        "per_image": [
            {
                "sample": d.sample_id,
                "a": _scores(d.a),
                "b": _scores(d.b),
                "delta_hmean": d.delta(),
                "gt_found_by_a_only": list(d.found_by_a_only),
                "gt_found_by_b_only": list(d.found_by_b_only),
            }
            for d in c.samples
        ],
    }
