"""The failure gallery's crops: one per GT and detection of the whole dataset, with the
verdict classes it belongs to, the numbers it is sorted by and the region it is cut from
(no Qt here: ``viewer.gallery.crops`` draws a crop, ``viewer.gallery.widget`` shows them).

Classes (a crop may be in several): ``missed`` (care GT without a match),
``false_positive``, ``partial`` (matched with less than full credit), ``split`` / ``merge``
(in a split or merge match), ``multiline`` (in a merge TedEval's multiline test rejected),
``dont_care`` (a detection absorbed by a don't-care GT) and, when comparing, ``a_only`` /
``b_only`` (a GT found by one side only, as ``metrics.analysis.compare`` says) and
``fp_a_only`` / ``fp_b_only`` (a false positive of one side that the other did not make:
two detectors, ``metrics.analysis.fp_diff``; two metrics on one detector, the same
detection not a false positive under the other metric).
Sort keys: ``credit`` (lowest first), ``size`` (box height: area over the longest edge,
smallest first), ``iou`` (the near miss's value or the match's IoU, lowest first) and
``delta`` (the image's H(B) − H(A), B's largest losses first; the image's H alone).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from metrics.analysis.compare import sample_diff
from metrics.analysis.fp_diff import false_positives_only
from metrics.core.model import Dataset, Instance, Sample
from metrics.core.protocols import Params
from metrics.core.results import Evaluation, InstanceResult, MatchKind, SampleResult, Verdict
from viewer.scene.attributes import instance_attributes
from viewer.scene.gallery_state import CLASSES as CLASSES  # the classes and sorts, here too
from viewer.scene.gallery_state import COMPARE_CLASSES as COMPARE_CLASSES
from viewer.scene.gallery_state import SORTS as SORTS
from viewer.scene.gallery_state import VERDICT_CLASSES as VERDICT_CLASSES
from viewer.scene.texts import instance_label

Only = dict[tuple[int, str, str, int], str]  # (owner, sample, side, index) -> class
MARGIN = 0.35  # of the box's larger side, around the crop


@dataclass(frozen=True, slots=True)
class Crop:
    """One instance of one side (``owner`` 0 = A, 1 = B) and how it fared."""

    owner: int
    sample: str
    side: str
    index: int
    classes: frozenset[str]
    credit: float
    size: float
    iou: float
    delta: float
    line: str
    text: str
    attrs: tuple[tuple[str, str], ...]
    region: tuple[float, float, float, float]
    partners: tuple[int, ...]

    @property
    def key(self) -> tuple[int, str, str, int]:
        return self.owner, self.sample, self.side, self.index


def _size(points: Sequence[tuple[float, float]]) -> float:
    """Box height: area over the longest edge (a rectangle's shorter side); plain Python,
    faster than numpy on a handful of points."""
    n = len(points)
    if n < 3:
        return 0.0
    area = 0.0
    edge = 0.0
    for k in range(n):
        x0, y0 = points[k]
        x1, y1 = points[(k + 1) % n]
        area += x0 * y1 - x1 * y0
        edge = max(edge, math.hypot(x1 - x0, y1 - y0))
    return abs(area) / 2 / edge if edge > 0 else 0.0


def region(points: Sequence[tuple[float, float]]) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1) around the points, with a margin."""
    xs = [float(p[0]) for p in points]
    ys = [float(p[1]) for p in points]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    pad = max(x1 - x0, y1 - y0, 8.0) * MARGIN
    return x0 - pad, y0 - pad, x1 + pad, y1 + pad


def _groups(r: SampleResult, side: str) -> dict[int, set[str]]:
    out: dict[int, set[str]] = {}
    for m in r.matches:
        if m.kind is MatchKind.ONE_TO_ONE:
            continue
        for i in m.gt if side == "gt" else m.det:
            out.setdefault(i, set()).add(m.kind.value)
    for t in r.evidence.multiline_tests() if r.evidence is not None else ():
        if t.rejected:
            for i in t.gt if side == "gt" else t.det:
                out.setdefault(i, set()).add("multiline")
    return out


def _classes(side: str, ir: InstanceResult, groups: dict[int, set[str]]) -> set[str]:
    out = set(groups.get(ir.index, ()))
    if ir.verdict is Verdict.MISSED:
        out.add("missed")
    elif ir.verdict is Verdict.FALSE_POSITIVE:
        out.add("false_positive")
    elif ir.verdict is Verdict.PARTIAL:
        out.add("partial")
    elif ir.verdict is Verdict.DONT_CARE and side == "det":
        out.add("dont_care")
    return out


def _iou(ir: InstanceResult) -> float:
    if ir.near_miss is not None and ir.verdict in (Verdict.MISSED, Verdict.FALSE_POSITIVE):
        return float(ir.near_miss.value)
    return float(ir.values.get("iou", ir.credit))


@dataclass(frozen=True)
class SideInput:
    """One side's dataset and evaluation; ``view``: the metric's view of a sample, whose
    instances its results index (HierText's lines, not the file's words), None for most."""

    dataset: Dataset
    evaluation: Evaluation[Params]
    view: Callable[[Sample], Sample] | None = None
    _views: dict[str, Sample] = field(default_factory=dict, compare=False, repr=False)

    def sample(self, sid: str) -> Sample:
        """The sample as the evaluation indexes it (its view, made once)."""
        if self.view is None:
            return self.dataset[sid]
        hit = self._views.get(sid)
        if hit is None:
            hit = self._views[sid] = self.view(self.dataset[sid])
        return hit


def _side_crops(
    owner: int,
    data: SideInput,
    delta: dict[str, float],
    only: Only,
) -> Iterable[Crop]:
    for sid, r in data.evaluation.results.items():
        sample = data.sample(sid)
        for side, insts, res, other in (
            ("gt", sample.gt, r.gt, r.det),
            ("det", sample.det, r.det, r.gt),
        ):
            groups = _groups(r, side)
            verdicts = {o.index: o.verdict for o in other}
            for ir in res:
                cls = _classes(side, ir, groups)
                extra = only.get((owner, sid, side, ir.index))
                if extra is not None:
                    cls.add(extra)
                if cls and ir.index < len(insts):
                    line = instance_label(side, ir, r, data.evaluation.params, verdicts)
                    yield _crop(owner, sid, side, insts[ir.index], ir, cls, line, delta)


def _crop(
    owner: int,
    sid: str,
    side: str,
    inst: Instance,
    ir: InstanceResult,
    cls: set[str],
    line: str,
    delta: dict[str, float],
) -> Crop:
    pts = [(float(x), float(y)) for x, y in np.asarray(inst.points).reshape(-1, 2).tolist()]
    return Crop(
        owner=owner,
        sample=sid,
        side=side,
        index=ir.index,
        classes=frozenset(cls),
        credit=float(ir.credit),
        size=_size(pts),
        iou=_iou(ir),
        delta=delta.get(sid, 0.0),
        line=line,
        text=inst.text or "",
        attrs=tuple(instance_attributes(inst)),
        region=region(pts),
        partners=tuple(int(p) for p in ir.partners),
    )


def _gt_diff(sid: str, ra: SampleResult, rb: SampleResult, only: Only) -> None:
    d = sample_diff(sid, ra, rb)
    for owner in (0, 1):
        only.update({(owner, sid, "gt", i): "a_only" for i in d.found_by_a_only})
        only.update({(owner, sid, "gt", i): "b_only" for i in d.found_by_b_only})


def _fp_diff(sid: str, sides: Sequence[SideInput], detectors: bool, only: Only) -> None:
    ra, rb = (x.evaluation.results[sid] for x in sides[:2])
    if detectors:
        da, db = sides[0].sample(sid).det, sides[1].sample(sid).det
        fa = false_positives_only(da, ra, db, rb)
        fb = false_positives_only(db, rb, da, ra)
    else:  # one detector under two metrics: the same detection, another verdict
        fp = Verdict.FALSE_POSITIVE
        pairs = list(zip(ra.det, rb.det, strict=True))
        fa = tuple(d.index for d, e in pairs if d.verdict is fp and e.verdict is not fp)
        fb = tuple(e.index for d, e in pairs if e.verdict is fp and d.verdict is not fp)
    only.update({(0, sid, "det", i): "fp_a_only" for i in fa})
    only.update({(1, sid, "det", i): "fp_b_only" for i in fb})


def differences(sides: Sequence[SideInput], detectors: bool = True) -> Only:
    """The comparison classes of each instance (nothing for one side). Two metrics on one
    detector are compared on the images where both index the same instances."""
    if len(sides) < 2:
        return {}
    a, b = sides[0].evaluation, sides[1].evaluation
    only: Only = {}
    for sid, ra in a.results.items():
        rb = b.results.get(sid)
        if rb is None:
            continue
        if not detectors and (len(ra.gt), len(ra.det)) != (len(rb.gt), len(rb.det)):
            continue  # another view of the sample (lines, not words): not comparable
        _gt_diff(sid, ra, rb, only)
        _fp_diff(sid, sides, detectors, only)
    return only


def build(sides: Sequence[SideInput], detectors: bool = True) -> list[Crop]:
    """Every crop of every side that lost credit, is in a group or differs between the
    sides (fully credited one-to-one instances found by both are left out: nothing to see),
    A's then B's. ``detectors``: the sides are two detectors, else two metrics on one."""
    a = sides[0].evaluation
    b = sides[1].evaluation if len(sides) > 1 else None
    delta: dict[str, float] = {s: r.hmean for s, r in a.results.items()}
    if b is not None:
        delta = {s: b.results[s].hmean - r.hmean for s, r in a.results.items() if s in b.results}
    only = differences(sides, detectors)
    out: list[Crop] = []
    for owner, data in enumerate(sides):
        out.extend(_side_crops(owner, data, delta, only))
    return out


def matches_text(crop: Crop, text: str) -> bool:
    """The table's filter: ``name=value`` matches an attribute (case-insensitive; ``name=``
    any value), anything else a part of the sample id or of the transcription."""
    t = text.strip().lower()
    if not t:
        return True
    if "=" in t:
        name, value = (x.strip() for x in t.split("=", 1))
        return any(k.lower() == name and (not value or v.lower() == value) for k, v in crop.attrs)
    return t in crop.sample.lower() or t in crop.text.lower()


def select(
    crops: Sequence[Crop],
    classes: Iterable[str] = (),
    text: str = "",
    owners: Iterable[int] = (0, 1),
) -> list[Crop]:
    """The crops in any of ``classes`` (all without), matching ``text``, of ``owners``."""
    want = frozenset(classes)
    own = frozenset(owners)
    return [
        c
        for c in crops
        if c.owner in own and (not want or c.classes & want) and matches_text(c, text)
    ]


def where(crop: Crop, names: Sequence[str] = ()) -> str:
    """Whose (when comparing) and which instance: "B · img_12 GT 3"."""
    who = f"{names[crop.owner]} · " if len(names) > 1 else ""
    return f"{who}{crop.sample} {'GT' if crop.side == 'gt' else 'det'} {crop.index + 1}"


def caption(crop: Crop, names: Sequence[str] = ()) -> str:
    """The crop's one line: whose (when comparing), where, and its verdict."""
    return f"{where(crop, names)}: {crop.line}"


def order(crops: Sequence[Crop], key: str) -> list[Crop]:
    """Sorted by ``key`` (one of ``SORTS``), ties by sample, side, index and owner.

    One numpy ``lexsort`` over columns made in Python loops, not ``sorted`` with tuple keys:
    that compared 50,000 tuples in one C call holding the interpreter for ~80 ms, and the
    gallery sorts on a thread while the window paints."""
    if key not in SORTS:
        raise ValueError(f"sort by one of {', '.join(SORTS)}, not {key!r}")
    if not crops:
        return []
    samples = sorted({c.sample for c in crops})
    rank = {s: k for k, s in enumerate(samples)}
    columns = [
        np.fromiter((c.owner for c in crops), np.int64, len(crops)),
        np.fromiter((c.index for c in crops), np.int64, len(crops)),
        np.fromiter((c.side == "gt" for c in crops), np.int64, len(crops)),  # det first
        np.fromiter((rank[c.sample] for c in crops), np.int64, len(crops)),
        np.fromiter((getattr(c, key) for c in crops), np.float64, len(crops)),
    ]
    return [crops[k] for k in np.lexsort(columns).tolist()]
