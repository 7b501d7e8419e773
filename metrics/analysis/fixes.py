"""The oracle fixes of error attribution (after TIDE, Bolya et al. 2020), per sample.

Each error class is read from a metric's result for one image and turned into a ``Fix``:
detections to remove and GTs whose polygon is added as a detection. The classes (README
"Analysis" defines them for users too):

* ``missed``: every missed care GT gets a detection equal to its polygon;
* ``false_positive``: every false-positive detection is removed;
* ``split``: the detections of each split match are replaced by its GT polygon;
* ``merge``: each merging detection is replaced by the polygons of the GTs it merges;
* ``multiline`` (TedEval): the same for merges the multiline test rejected;
* ``localisation``: a missed GT whose near miss (best candidate) is a false-positive
  detection with a value above 0.1 (IoU, or the metric's near-miss measure; a near miss is
  below the metric's threshold by definition): that detection is replaced by the GT
  polygon (a detection that is the near miss of several GTs fixes the first);
* ``tightness``: each one-to-one match whose GT or detection earned less than full credit
  (SIoU, TIoU, TedEval, CLEval, HierText): its detection is replaced by the GT polygon, so
  only the credit changes;
* ``all``: the union of every class above, applied at once in the order merge, multiline,
  split, localisation, tightness, false positive, missed; each detection is removed at most
  once and each GT polygon added at most once. Here tightness replaces every one-to-one
  match, full credit or not (no error, so not counted), so that ``all`` is the care GT fed
  in as detections plus the detections don't-care GTs absorbed: the metric's ceiling.

A fixed sample keeps its other detections in file order and appends the added GT polygons
(GT order) with the GT's box type and transcription, and a confidence of at least 1 (above
every other, so confidence ranking takes them first) when the detections carry confidences.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from metrics.analysis.threshold import with_dets
from metrics.core.model import Instance, Sample
from metrics.core.records import dataclass
from metrics.core.results import MatchKind, SampleResult, Verdict
from metrics.tedeval.evidence import TedEvalEvidence

CLASSES = (
    "missed",
    "false_positive",
    "split",
    "merge",
    "multiline",
    "localisation",
    "tightness",
)
ALL = "all"
ORDER = ("merge", "multiline", "split", "localisation", "tightness", "false_positive", "missed")
NEAR_MISS_FLOOR = 0.1


@dataclass(frozen=True)
class Fix:
    """What one class changes in one sample, and how many errors of it there are."""

    remove: frozenset[int] = frozenset()
    add: tuple[int, ...] = ()
    errors: int = 0


def _missed(r: SampleResult) -> Fix:
    gts = tuple(g.index for g in r.gt if g.verdict is Verdict.MISSED)
    return Fix(add=gts, errors=len(gts))


def _false_positive(r: SampleResult) -> Fix:
    dets = frozenset(d.index for d in r.det if d.verdict is Verdict.FALSE_POSITIVE)
    return Fix(remove=dets, errors=len(dets))


def _groups(groups: Iterable[tuple[tuple[int, ...], tuple[int, ...]]]) -> Fix:
    remove: set[int] = set()
    add: list[int] = []
    n = 0
    for gts, dets in groups:
        remove.update(dets)
        add.extend(g for g in gts if g not in add)
        n += 1
    return Fix(frozenset(remove), tuple(sorted(add)), n)


def _kind(r: SampleResult, kind: MatchKind) -> Fix:
    return _groups((m.gt, m.det) for m in r.matches if m.kind is kind)


def _multiline(r: SampleResult) -> Fix:
    ev = r.evidence
    if not isinstance(ev, TedEvalEvidence):
        return Fix()
    return _groups((t.gt, t.det) for t in ev.multiline if t.rejected and t.kind == "MO")


def _localisation(r: SampleResult) -> Fix:
    fp = {d.index for d in r.det if d.verdict is Verdict.FALSE_POSITIVE}
    taken: dict[int, int] = {}
    for g in r.gt:
        nm = g.near_miss
        if g.verdict is not Verdict.MISSED or nm is None or nm.value <= NEAR_MISS_FLOOR:
            continue
        if nm.partner in fp and nm.partner not in taken:
            taken[nm.partner] = g.index
    return Fix(frozenset(taken), tuple(sorted(taken.values())), len(taken))


def _tightness(r: SampleResult, every: bool = False) -> Fix:
    gt_credit = {g.index: g.credit for g in r.gt}
    det_credit = {d.index: d.credit for d in r.det}
    loose = [
        (m.gt, m.det)
        for m in r.matches
        if m.kind is MatchKind.ONE_TO_ONE
        and (
            every
            or any(gt_credit.get(i, 1.0) < 1.0 for i in m.gt)
            or any(det_credit.get(j, 1.0) < 1.0 for j in m.det)
        )
    ]
    fix = _groups(loose)
    if every:  # full-credit matches are replaced too but are no error
        return dataclasses.replace(fix, errors=_tightness(r).errors)
    return fix


_FIXES = {
    "missed": _missed,
    "false_positive": _false_positive,
    "split": lambda r: _kind(r, MatchKind.SPLIT),
    "merge": lambda r: _kind(r, MatchKind.MERGE),
    "multiline": _multiline,
    "localisation": _localisation,
    "tightness": _tightness,
}


def fix_of(r: SampleResult, name: str) -> Fix:
    """The fix of class ``name`` (one of ``CLASSES`` or ``all``) for this result."""
    if name != ALL:
        return _FIXES[name](r)
    remove: set[int] = set()
    add: list[int] = []
    errors = 0
    for cls in ORDER:
        f = _tightness(r, every=True) if cls == "tightness" else _FIXES[cls](r)
        remove.update(f.remove)
        add.extend(g for g in f.add if g not in add)
        errors += f.errors
    return Fix(frozenset(remove), tuple(sorted(add)), errors)


def _as_det(g: Instance, confidence: float | None) -> Instance:
    return dataclasses.replace(g, confidence=confidence, dont_care=False)


def apply(sample: Sample, fix: Fix) -> Sample:
    """The sample with the fix applied (see the module docstring)."""
    base = with_dets(sample, [j for j in range(len(sample.det)) if j not in fix.remove])
    scored = [d.confidence for d in sample.det if d.confidence is not None]
    conf = max(1.0, *scored) if scored else None
    added = tuple(_as_det(sample.gt[i], conf) for i in fix.add)
    h = base.hierarchy
    if h is not None and h.det_paths:
        paths = h.det_paths + tuple(f"oracle: GT {i + 1}" for i in fix.add)
        h = dataclasses.replace(h, det_paths=paths)
    return dataclasses.replace(base, det=base.det + added, hierarchy=h)
