"""Comparison of two evaluations of the same GT: two detectors under one metric, or one
detector under two metrics (where the metrics disagree), on the images both evaluated:
an image one side skipped is left out of both, and said.

Everything is read from the two evaluations' results; nothing is re-computed. A GT counts as
"found" when its verdict is matched or partial.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from metrics.core.jsonvalue import JSONObject
from metrics.core.model import Severity
from metrics.core.protocols import Params
from metrics.core.records import dataclass, field
from metrics.core.results import Evaluation, SampleResult, Summary, Verdict

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
class LeftOut:
    """An image of the set that A and B were not compared on: the sides that did not
    evaluate it ("A", "B" or both) and why (the first error located in it, if any)."""

    sample_id: str
    sides: str
    why: str


@dataclass(frozen=True)
class Comparison:
    """Two evaluations side by side on the images both evaluated (``ids``), per image
    largest |ΔH| first; the images only one side (or neither) evaluated are ``left_out``,
    each with why. The globals (``side``), ``global_delta`` and the per-image table cover
    the same images, so they never disagree."""

    name_a: str
    name_b: str
    a: Evaluation[Params]
    b: Evaluation[Params]
    samples: tuple[SampleDiff, ...] = field(default=())
    ids: tuple[str, ...] = ()
    left_out: tuple[LeftOut, ...] = ()

    def side(self, which: str) -> Summary:
        """A's (``"a"``) or B's scores over the compared images."""
        ev = self.a if which == "a" else self.b
        return ev.subset(self.ids)

    def global_delta(self) -> dict[str, float]:
        """B − A over the compared images."""
        sa, sb = self.side("a"), self.side("b")
        return {k: getattr(sb, k) - getattr(sa, k) for k in ("recall", "precision", "hmean")}


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


def common_ids(a: Evaluation[Params], b: Evaluation[Params]) -> list[str]:
    """The images both evaluations scored, in A's order."""
    return [s for s in a.results if s in b.results]


def _why(ev: Evaluation[Params], sample_id: str) -> str | None:
    for p in ev.problems:
        if p.sample_id == sample_id and p.severity is Severity.ERROR:
            return str(p)
    return None


def _left_out(a: Evaluation[Params], b: Evaluation[Params], kept: set[str]) -> list[LeftOut]:
    out = []
    every = [*a.results, *a.excluded, *b.results, *b.excluded]
    for sid in dict.fromkeys(s for s in every if s not in kept):
        sides = [n for n, ev in (("A", a), ("B", b)) if sid not in ev.results]
        whys = [w for ev in (a, b) if sid not in ev.results and (w := _why(ev, sid))]
        why = whys[0] if whys else "no result (the metric's protocol drops this image)"
        out.append(LeftOut(sid, " and ".join(sides), why))
    return out


def compare(
    a: Evaluation[Params], b: Evaluation[Params], name_a: str = "A", name_b: str = "B"
) -> Comparison:
    """Per-image differences of two evaluations, on the images both evaluated."""
    ids = common_ids(a, b)
    if not ids:  # said with the first reason an image was not evaluated, and where
        gone = _left_out(a, b, set())
        first = f"; first: {gone[0].why}" if gone else ""
        raise ValueError(f"the two evaluations share no evaluated image: nothing to compare{first}")
    diffs = [sample_diff(s, a.results[s], b.results[s]) for s in ids]
    diffs.sort(key=lambda d: (-(abs(d.delta() or 0.0)), d.sample_id))
    left = _left_out(a, b, set(ids))
    return Comparison(name_a, name_b, a, b, tuple(diffs), tuple(ids), tuple(left))


def _scores(r: SampleResult | None) -> dict[str, float] | None:
    if r is None:
        return None
    return {"recall": r.recall, "precision": r.precision, "hmean": r.hmean}


def comparison_dict(c: Comparison) -> JSONObject:
    """JSON form: both globals and their difference over the compared images, every
    compared image (largest |ΔH| first), and the images left out with why."""

    def side(name: str, ev: Evaluation[Params], sc: Summary) -> Mapping[str, Any]:
        return {
            "name": name,
            "metric": ev.metric,
            "recall": sc.recall,
            "precision": sc.precision,
            "hmean": sc.hmean,
            "evaluated": len(ev.results),
        }

    return {
        "a": side(c.name_a, c.a, c.side("a")),
        "b": side(c.name_b, c.b, c.side("b")),
        "delta": c.global_delta(),
        "images": len(c.ids),
        "left_out": [
            {"sample": x.sample_id, "not_evaluated_by": x.sides, "why": x.why} for x in c.left_out
        ],
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


COMPARISON_COLUMNS = (
    "sample",
    "recall_a",
    "precision_a",
    "hmean_a",
    "recall_b",
    "precision_b",
    "hmean_b",
    "delta_hmean",
    "gt_found_by_a_only",
    "gt_found_by_b_only",
    "left_out",
)
"""The columns of ``comparison_rows`` (the CSV of ``detlens compare --csv``)."""


def comparison_rows(c: Comparison) -> list[tuple[str, ...]]:
    """The comparison as table rows under ``COMPARISON_COLUMNS``: the global scores (sample
    ``*``, over the compared images), every compared image largest |ΔH| first (GT numbers
    from 1, space-separated, as ``detlens compare`` prints them), then each image left out
    with which side did not evaluate it and why (no scores: it is in neither global)."""

    def num(x: float | None) -> str:
        return "" if x is None else repr(float(x))

    def gts(found: tuple[int, ...]) -> str:
        return " ".join(str(k + 1) for k in found)

    a, b, d = c.side("a"), c.side("b"), c.global_delta()
    rows: list[tuple[str, ...]] = [
        (
            "*",
            *(num(x) for x in (a.recall, a.precision, a.hmean, b.recall, b.precision, b.hmean)),
            num(d["hmean"]),
            "",
            "",
            "",
        )
    ]
    for s in c.samples:
        scores = [s.score(side, k) for side in "ab" for k in ("recall", "precision", "hmean")]
        rows.append(
            (
                s.sample_id,
                *(num(x) for x in scores),
                num(s.delta()),
                gts(s.found_by_a_only),
                gts(s.found_by_b_only),
                "",
            )
        )
    for x in c.left_out:
        rows.append((x.sample_id, *[""] * 9, f"not evaluated by {x.sides}: {x.why}"))
    return rows
