"""How many images of its set an evaluation covers, and when its figure is no score.

A metric that skipped images (input errors under ``skip_sample``, or ``--metric all``
running a metric on the images it can read) scored a subset of the set. Every place that
shows its recall / precision / H-mean (``eval``'s table, ``--json``, ``compare``, the
report, the viewer's summary) says so: "on 101 of 500 images". Where it could read fewer
than half of the images (``Coverage.scored`` false) the figure is not shown as a score at
all: "–", with the first problem and the fix.
"""

from __future__ import annotations

import re
from typing import Any

from metrics.core.jsonvalue import JSONObject
from metrics.core.model import Problem, Severity
from metrics.core.protocols import Params
from metrics.core.records import dataclass
from metrics.core.results import Evaluation

_SET = r"\bset (\w+)=(\S+?)[;,.]?(?:\s|$)"  # compiled (and kept) by ``re`` when first used


@dataclass(frozen=True)
class Coverage:
    """``evaluated`` of the ``total`` images of a set; ``first``: the first error of an
    image the metric skipped (None when it skipped none, or none is known)."""

    metric: str
    evaluated: int
    total: int
    first: Problem | None = None

    @property
    def skipped(self) -> int:
        return self.total - self.evaluated

    @property
    def partial(self) -> bool:
        """Some images of the set are not in the figure."""
        return self.skipped > 0

    @property
    def scored(self) -> bool:
        """The figure stands for the set: at least one image, and at least half of them."""
        return self.evaluated > 0 and 2 * self.evaluated >= self.total

    def label(self) -> str:
        """'on 101 of 500 images'."""
        return f"on {self.evaluated} of {self.total} image{'s' if self.total != 1 else ''}"

    def fix(self) -> str:
        """What to do: the ``--set`` the first problem names, else correct the files or
        choose a metric that reads them."""
        m = re.search(_SET, self.first.message) if self.first is not None else None
        if m is not None:
            return (
                f"--set {self.metric}.{m.group(1)}={m.group(2)}, or correct the "
                f"{self.skipped} images' files"
            )
        return (
            f"correct the {self.skipped} images' files (every problem: --json), or choose a "
            "metric that reads them (--list-metrics)"
        )

    def reason(self) -> str:
        """Why there is no score: how many images were read, the first problem, the fix."""
        first = f"; first problem: {self.first}" if self.first is not None else ""
        return (
            f"no score: {self.evaluated} of {self.total} images read, fewer than half{first}; "
            f"fix: {self.fix()}"
        )

    def as_dict(self) -> JSONObject:
        """``--json``'s ``coverage``: the images the figures cover, and whether they are a
        score of the set."""
        out: dict[str, Any] = {
            "images": self.evaluated,
            "of": self.total,
            "skipped": self.skipped,
            "score": self.scored,
        }
        if not self.scored:
            out["why_no_score"] = self.reason()
        return out


def first_error(
    ev: Evaluation[Params], problems: tuple[Problem, ...] | None = None
) -> Problem | None:
    """The first error located in an image ``ev`` skipped (among ``problems`` too: the
    reader's)."""
    skipped = set(ev.excluded)
    for p in (*(problems or ()), *ev.problems):
        if p.severity is Severity.ERROR and (p.sample_id in skipped or p.sample_id is None):
            return p
    return None


def coverage(
    ev: Evaluation[Params], total: int | None = None, problems: tuple[Problem, ...] | None = None
) -> Coverage:
    """The images ``ev`` covers out of ``total`` (default: ``ev.images``, else every image
    it evaluated or skipped); ``problems``: the reader's, searched for the first reason."""
    n = total if total is not None else ev.images or len(ev.results) + len(ev.excluded)
    first = first_error(ev, problems) if ev.excluded else None
    return Coverage(ev.metric, max(0, n - len(ev.excluded)), n, first)
