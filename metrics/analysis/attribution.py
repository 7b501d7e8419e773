"""Where the H-mean goes: each error class fixed by an oracle, the metric re-run, the gain.

For one metric over a dataset, per class (``metrics.analysis.fixes``): the dataset H-mean
after fixing that class alone in every image, its gain ΔH over the H-mean as evaluated, the
number of errors of the class, and the same per image (H-mean from the image's tally). Only
the images that have errors of a class are re-evaluated for it; the others keep their
results. ``all`` fixes every class at once and gives the metric's ceiling.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from metrics.analysis.classes import UNITS, count_of, impossible
from metrics.analysis.engine import evaluate_versions
from metrics.analysis.fixes import ALL, CLASSES, Fix, apply, fix_of
from metrics.core.model import Dataset
from metrics.core.protocols import Params
from metrics.core.records import dataclass, field
from metrics.core.results import Evaluation
from metrics.core.tally import Tally, add_up
from metrics.declare.spec import MetricSpec


@dataclass(frozen=True)
class ClassGain:
    """One class over the dataset: H-mean after the fix, its gain, the errors fixed
    (``errors``: what the oracle fixed, in boxes or groups); ``count`` and ``unit``: how
    many the class covers in the metric's own unit (CLEval: characters), and
    ``impossible``: why the metric cannot have this class ("" when it can;
    ``metrics.analysis.classes``), then nothing is fixed and the gain is 0."""

    name: str
    hmean: float
    gain: float
    errors: int
    count: float = 0.0
    unit: str = "boxes"
    impossible: str = ""


@dataclass(frozen=True)
class Attribution:
    """Error attribution of one metric. ``per_image[sample][class]`` is the image's gain,
    ``image_errors[sample][class]`` its error count; ``image_hmean`` its H-mean as evaluated."""

    metric: str
    hmean: float
    classes: tuple[ClassGain, ...]
    per_image: Mapping[str, Mapping[str, float]] = field(default_factory=dict)
    image_errors: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    image_hmean: Mapping[str, float] = field(default_factory=dict)
    note: str = ""
    ceiling: float | None = None
    below_ceiling: tuple[str, ...] = ()

    def ceiling_note(self) -> str:
        """Why ``all`` does not reach 1.0, when it does not ("" otherwise)."""
        notes = []
        if self.ceiling is not None and self.ceiling < 1.0 - 1e-12:
            first = ", ".join(self.below_ceiling[:3])
            notes.append(
                f"the metric scores the GT itself, fed in as detections, {self.ceiling:.4f}, "
                f"not 1: in {len(self.below_ceiling)} image(s) (e.g. {first}) it counts GT "
                "words that overlap or nest as splits, merges or misses; that is the ceiling"
            )
        everything = next((c for c in self.classes if c.name == ALL), None)
        if everything is not None and self.ceiling is not None:
            short = self._short_of_ceiling()
            if everything.hmean < self.ceiling - 1e-9 and short:
                notes.append(
                    f"fixing everything scores {everything.hmean:.4f}, below the ceiling: in "
                    f"{len(short)} image(s) (e.g. {', '.join(short[:3])}) the fixed "
                    "detections change the metric's matching elsewhere (an added GT polygon "
                    "overlaps a neighbour, or a metric-specific rule such as recognition)"
                )
        return "; ".join(notes)

    def _short_of_ceiling(self) -> list[str]:
        return [
            s
            for s, g in self.per_image.items()
            if ALL in g
            and self.image_hmean[s] + g[ALL] < 1.0 - 1e-9
            and s not in self.below_ceiling
        ]

    def gain(self, name: str) -> float:
        return next(c.gain for c in self.classes if c.name == name)

    def losing(self, name: str) -> list[tuple[str, float]]:
        """Images that lose H-mean to class ``name``: (sample, gain), largest first."""
        found = [(s, g[name]) for s, g in self.per_image.items() if g.get(name, 0.0) > 0.0]
        return sorted(found, key=lambda x: (-x[1], x[0]))


def applies(spec: MetricSpec[Params]) -> str | None:
    """Why attribution is not offered for a metric, or None: its results must index the
    boxes of the files (not HierText's lines or paragraphs)."""
    if spec.view is not None:
        return f"{spec.id} evaluates groups of words, not the boxes of the files"
    return None


def _total(tallies: Sequence[Tally]) -> Tally:
    return add_up(tallies)


def attribute(
    ds: Dataset,
    spec: MetricSpec[Params],
    params: Params,
    ev: Evaluation[Params],
    classes: Sequence[str] = (*CLASSES, ALL),
) -> Attribution:
    """Gains of every class in ``classes`` (see the module docstring)."""
    why = applies(spec)
    if why is not None or not ev.results:
        return Attribution(spec.id, ev.hmean, (), note=why or "nothing evaluated")
    ids = list(ev.results)
    base = {s: ev.results[s].tally for s in ids}
    image_h = {s: base[s].scores()[2] for s in ids}
    gains: list[ClassGain] = []
    per_image: dict[str, dict[str, float]] = {s: {} for s in ids}
    errors: dict[str, dict[str, int]] = {s: {} for s in ids}
    for name in classes:
        why = impossible(spec.id, name)
        if why:
            gains.append(ClassGain(name, ev.hmean, 0.0, 0, 0.0, UNITS[name], why))
            continue
        fixes = {s: fix_of(ev.results[s], name) for s in ids}
        todo = [s for s in ids if fixes[s].remove or fixes[s].add]
        fixed = evaluate_versions(spec, params, [apply(ds[s], fixes[s]) for s in todo])
        tallies = dict(base)
        for s, r in zip(todo, fixed, strict=True):
            if r is not None:
                tallies[s] = r.tally
                per_image[s][name] = r.tally.scores()[2] - image_h[s]
            errors[s][name] = fixes[s].errors
        h = _total(list(tallies.values())).scores()[2]
        n = sum(f.errors for f in fixes.values())
        gains.append(ClassGain(name, h, h - ev.hmean, n, *count_of(ev, name, n)))
    ceiling, below = _ceiling(ds, spec, params, ids)
    return Attribution(
        spec.id, ev.hmean, tuple(gains), per_image, errors, image_h, "", ceiling, below
    )


def _ceiling(
    ds: Dataset, spec: MetricSpec[Params], params: Params, ids: Sequence[str]
) -> tuple[float, tuple[str, ...]]:
    """H-mean of the care GT fed in as detections (transcriptions kept), and the images
    where it is below 1."""
    fed = [apply(ds[s], Fix(frozenset(range(len(ds[s].det))), tuple(_care(ds, s)))) for s in ids]
    results = [r for r in evaluate_versions(spec, params, fed) if r is not None]
    if not results:
        return 1.0, ()
    below = tuple(r.sample_id for r in results if r.tally.scores()[2] < 1.0 - 1e-12)
    return _total([r.tally for r in results]).scores()[2], below


def _care(ds: Dataset, sid: str) -> list[int]:
    return [i for i, g in enumerate(ds[sid].gt) if not g.dont_care]
