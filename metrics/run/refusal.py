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
from typing import Literal, NoReturn

from metrics.core.model import InputError, Problem, place
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
        first gt.zip:gt_img_1.txt:1); nothing was evaluated; <fix>' (boxes, not lines, for
        the problems of a JSON file, ``counted``); one error about the whole set: only its
        place."""
        why = self.reason()
        n = len(self.errors)
        same = sum(p.message == why.message for p in self.errors)
        what = counted(self.errors)
        where = (
            "the whole set"
            if self.bad is None
            else f"{len(self.bad)} of {self.n_images} image{'s' if self.n_images != 1 else ''}"
        )
        other = f", {same} saying this" if same < n else ""
        place = f"{what} on {where}{other}, first {why.where}"
        if n == 1:  # one fact: where it is, no count ('1 line on the whole set')
            place = f"at {why.where}" if self.bad is None else f"{where}, at {why.where}"
        return (
            f"{self.metric} does not read these inputs: {why.message} ({place}); nothing was "
            f"evaluated; {self.fix()}"
        )


def counted(errors: Sequence[Problem]) -> str:
    """'8 lines', '5092 boxes' (of JSON files), '3 lines and 2 boxes'; '4 errors' when
    one of them is not on a line or box."""
    n = len(errors)
    if any(p.line is None for p in errors):
        return f"{n} error{'s' if n != 1 else ''}"
    kinds = Counter(place(p.source, p.sample_id) for p in errors)
    words = {"line": ("line", "lines"), "box": ("box", "boxes")}
    return " and ".join(
        f"{k} {words[kind][k != 1]}" for kind in ("line", "box") if (k := kinds[kind])
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
    left = {"": _left(_images(reader), n_images)}
    left.update((mid, _left(_images([*reader, *own]), n_images)) for mid, own in by_metric.items())
    return (
        f"{len(errors)} input error(s){where}; nothing was evaluated "
        f"(policy strict; {skip_advice(left, n_images)})"
    )


def skip_advice(left: Mapping[str, int], n_images: int) -> str:
    """What to say of ``skip_sample`` when the strict policy refuses: ``left`` is, per
    metric ("" for all of them), how many of the ``n_images`` images it would keep. Advised
    only when each would still make a score; else the first that would not is named, and
    another metric advised only for a metric's own errors (none reads a line no reader
    can)."""
    for mid, kept in left.items():
        if n_images > 0 and not scores(kept, n_images):
            if not mid:
                return (
                    f"skip_sample would leave {kept} of {n_images} images, too few for a "
                    "score: correct the files"
                )
            return (
                f"skip_sample would leave {mid} {kept} of {n_images} images, too few for a "
                f"score: correct the files, or {CHOOSE}"
            )
    return "use skip_sample to evaluate the rest"


def refuse_failures(
    failed: Sequence[tuple[str, Problem]], excluded: Mapping[str, set[str]], n_images: int
) -> NoReturn:
    """The strict policy's refusal of the images a metric could not evaluate (``failed``:
    metric id and error, ``metrics.run.guard``): ``skip_sample`` is advised only when each
    metric, without those and its ``excluded`` images, keeps a score of the ``n_images``."""
    lost: dict[str, set[str | None]] = {}
    for mid, p in failed:
        lost.setdefault(mid, set(excluded.get(mid, ()))).add(p.sample_id)
    left = {mid: n_images - len(ids) for mid, ids in lost.items()}
    raise InputError(
        [p for _, p in failed],
        f"{len(failed)} image(s) could not be evaluated; nothing is reported "
        f"(policy strict; {skip_advice(left, n_images)})",
    )
