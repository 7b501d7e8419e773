"""What the strict policy says when it refuses a set: one line per metric that cannot read it,
else the count of errors and whether ``skip_sample`` would leave a score.

A metric whose own input rules leave fewer than half of the images readable (the share
below which ``metrics.core.partial`` shows no score) does not read these inputs: that is one
fact about the whole set (curved TIoU on ICDAR-ordered quads, DetEval on quads), said once
with the reason, where it is first met, how many lines and images, and what to do: the
``--set`` its reason names, else a metric that reads them. Advising ``skip_sample`` there
would evaluate nothing, so it is advised only when every metric would keep a score.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Literal

from metrics.core.model import InputError, Problem
from metrics.core.records import dataclass

Policy = Literal["strict", "skip_sample"]

_SET = re.compile(r"\bset (\w+)=(\S+?)[;,.)]?(?:\s|$)")
CHOOSE = "choose a metric that reads them (detlens eval --list-metrics, detlens check)"


@dataclass(frozen=True)
class Misfit:
    """A metric that cannot read the set: its errors, the images they are on (None: the
    whole set), of how many."""

    metric: str
    errors: tuple[Problem, ...]
    bad: frozenset[str] | None
    n_images: int

    def reason(self) -> Problem:
        """The first error of the most common message."""
        top = Counter(p.message for p in self.errors).most_common(1)[0][0]
        return next(p for p in self.errors if p.message == top)

    def fix(self) -> str:
        """The ``--set`` the reason names, else the advice to choose another metric."""
        m = _SET.search(self.reason().message)
        if m is None:
            return CHOOSE
        return f"add --set {self.metric}.{m.group(1)}={m.group(2)}, or {CHOOSE}"

    def line(self) -> str:
        """'<metric> does not read these inputs: <reason> (8053 lines on 500 of 500 images,
        first gt.zip:gt_img_1.txt:1); nothing was evaluated; <fix>'."""
        why = self.reason()
        n = len(self.errors)
        same = sum(p.message == why.message for p in self.errors)
        lines = all(p.line is not None for p in self.errors)
        what = f"{n} line{'s' if n != 1 else ''}" if lines else f"{n} error{'s' if n != 1 else ''}"
        where = (
            "the whole set"
            if self.bad is None
            else f"{len(self.bad)} of {self.n_images} image{'s' if self.n_images != 1 else ''}"
        )
        other = f", {same} saying this" if same < n else ""
        return (
            f"{self.metric} does not read these inputs: {why.message} ({what} on {where}{other}, "
            f"first {why.where}); nothing was evaluated; {self.fix()}"
        )


def _images(errors: Sequence[Problem]) -> frozenset[str] | None:
    """The images ``errors`` are on; None when one of them is about the whole set."""
    if any(p.sample_id is None for p in errors):
        return None
    return frozenset(p.sample_id for p in errors if p.sample_id is not None)


def _left(bad: frozenset[str] | None, n_images: int) -> int:
    return 0 if bad is None else n_images - len(bad)


def scores(left: int, n_images: int) -> bool:
    """Whether ``left`` images of ``n_images`` still make a score (``Coverage.scored``)."""
    return left > 0 and 2 * left >= n_images


def misfits(by_metric: Mapping[str, Sequence[Problem]], n_images: int) -> list[Misfit]:
    """The metrics whose own errors leave fewer than half of the images readable."""
    out = []
    for mid, errors in by_metric.items():
        if not errors or n_images <= 0:
            continue
        bad = _images(errors)
        if not scores(_left(bad, n_images), n_images):
            out.append(Misfit(mid, tuple(errors), bad, n_images))
    return out


def refuse(
    reader: Sequence[Problem],
    by_metric: Mapping[str, Sequence[Problem]],
    policy: Policy,
    n_images: int,
) -> None:
    """Under the strict policy any input error (``reader``'s, or a metric's own in
    ``by_metric``) refuses the whole evaluation; a metric that cannot read the set is said
    in one line (``Misfit.line``), and ``skip_sample`` is advised only where every metric
    would keep a score."""
    errors = list(dict.fromkeys([*reader, *(p for e in by_metric.values() for p in e)]))
    if not errors or policy != "strict":
        return
    unread = misfits(by_metric, n_images)
    if unread and not reader and len(unread) == sum(bool(e) for e in by_metric.values()):
        raise InputError(errors, "; ".join(m.line() for m in unread), whole=True)
    raise InputError(errors, _summary(reader, by_metric, errors, n_images))


def _summary(
    reader: Sequence[Problem],
    by_metric: Mapping[str, Sequence[Problem]],
    errors: Sequence[Problem],
    n_images: int,
) -> str:
    """'N input error(s) on K of M images; nothing was evaluated (policy strict; ...)'."""
    where = ""
    if n_images > 0:
        every = _images(errors)
        where = " on the whole set" if every is None else f" on {len(every)} of {n_images} images"
    advice = "use skip_sample to evaluate the rest"
    for mid, own in [("", ()), *by_metric.items()]:
        left = _left(_images([*reader, *own]), n_images)
        if n_images > 0 and not scores(left, n_images):
            who = f" {mid}" if mid else ""
            advice = (
                f"skip_sample would leave{who} {left} of {n_images} images, too few for a "
                f"score: correct the files, or {CHOOSE}"
            )
            break
    return f"{len(errors)} input error(s){where}; nothing was evaluated (policy strict; {advice})"
