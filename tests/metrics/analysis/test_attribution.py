"""Oracle fixes: each class on hand-built samples gives the hand-computed gain, GT fed in as
detections shows no error of any class, and fixing everything reaches the ceiling."""

from __future__ import annotations

import dataclasses

import pytest

from metrics.analysis.attribution import attribute
from metrics.analysis.fixes import ALL, CLASSES, fix_of
from metrics.catalogue.registry import applicable, make_params, resolve
from metrics.core.model import Dataset, Instance
from metrics.io.demo import demo_paths
from metrics.io.reader import load_dataset
from metrics.run.runner import run
from tests.support import box, boxes, dets, gts, ltrb_sample, rect, sample, shared_or_skip

A, B = rect(0, 0, 100, 20), rect(0, 40, 100, 60)


def _gain(ds: Dataset, metric: str, cls: str, **own: str) -> tuple[float, float, int]:
    spec = resolve(metric)
    ev = run(ds, [spec], {spec.id: own})[0]
    a = attribute(ds, spec, make_params(spec, own), ev)
    c = next(c for c in a.classes if c.name == cls)
    return a.hmean, c.gain, c.errors


def test_missed_gt_fix() -> None:
    ds = Dataset((sample(gts((A, "A"), (B, "B")), dets(A)),))
    h, gain, n = _gain(ds, "ic15_iou", "missed")  # R 1/2, P 1: H 2/3 -> 1
    assert (h, gain, n) == pytest.approx((2 / 3, 1 / 3, 1))


def test_false_positive_fix() -> None:
    ds = Dataset((sample(gts((A, "A")), dets(A, rect(300, 0, 400, 20))),))
    assert _gain(ds, "ic15_iou", "false_positive") == pytest.approx((2 / 3, 1 / 3, 1))


def test_localisation_fix_replaces_the_near_miss() -> None:
    # det covers the left 40 % of A: IoU 0.4 (a near miss); the fix makes it A.
    ds = Dataset((sample(gts((A, "A")), dets(rect(0, 0, 40, 20))),))
    assert _gain(ds, "ic15_iou", "localisation") == pytest.approx((0.0, 1.0, 1))
    # IoU 0.1 is not a near miss: nothing to fix as localisation
    far = Dataset((sample(gts((A, "A")), dets(rect(0, 0, 10, 20))),))
    assert _gain(far, "ic15_iou", "localisation") == pytest.approx((0.0, 0.0, 0))


def test_tightness_fix_gives_full_credit() -> None:
    # det = left 80 % of A: IoU 0.8 matched; SIoU credit 0.8 each side -> H 0.8
    ds = Dataset((sample(gts((A, "A")), dets(rect(0, 0, 80, 20))),))
    assert _gain(ds, "siou", "tightness") == pytest.approx((0.8, 0.2, 1))
    assert _gain(ds, "ic15_iou", "tightness") == pytest.approx((1.0, 0.0, 0))


def test_split_and_merge_fixes_under_deteval() -> None:
    # split: one GT 0..100 covered by two halves -> OM credit 0.8 each side
    split = ltrb_sample((box(0, 0, 100, 20),), boxes((0, 0, 49, 20), (51, 0, 100, 20)))
    h, gain, n = _gain(Dataset((split,)), "deteval", "split")
    assert n == 1 and h == pytest.approx(0.8) and gain == pytest.approx(0.2)
    # merge: two GTs side by side, one det over both: MO, full credit by default (w_mo 1),
    # so nothing to gain; with w_mo = 0.8 the merge costs 0.2
    gt = (box(0, 0, 49, 20, line=1), box(51, 0, 100, 20, line=2))
    merge = Dataset((ltrb_sample(gt, boxes((0, 0, 100, 20))),))
    assert _gain(merge, "deteval", "merge") == pytest.approx((1.0, 0.0, 1))
    h, gain, n = _gain(merge, "deteval", "merge", w_mo="0.8")
    assert n == 1 and h == pytest.approx(0.8) and gain == pytest.approx(0.2)


def _demo() -> Dataset:
    d = demo_paths()
    return load_dataset(d.gt, d.det_b)


def _gt_as_det(ds: Dataset) -> Dataset:
    def as_det(g: Instance) -> Instance:
        return dataclasses.replace(g, confidence=0.9, dont_care=False)

    samples = tuple(dataclasses.replace(s, det=tuple(map(as_det, s.gt))) for s in ds)
    return dataclasses.replace(ds, samples=samples)


@pytest.mark.parametrize("metric", [s.id for s in applicable(_demo())])
def test_gt_as_detections_shows_no_error(metric: str) -> None:
    ds = _gt_as_det(_demo())
    ev = run(ds, [resolve(metric)], policy="skip_sample")[0]
    for r in ev.results.values():
        for cls in (*CLASSES, ALL):
            assert fix_of(r, cls).errors == 0, (metric, r.sample_id, cls)


@pytest.mark.parametrize("metric", [s.id for s in applicable(_demo())])
def test_fixing_everything_reaches_the_ceiling(metric: str) -> None:
    ds = _demo()
    spec = resolve(metric)
    ev = run(ds, [spec], policy="skip_sample")[0]
    a = attribute(ds, spec, make_params(spec), ev)
    fixed = next(c for c in a.classes if c.name == ALL)
    assert fixed.hmean == pytest.approx(1.0)
    assert fixed.gain == pytest.approx(1.0 - ev.hmean)
    assert a.ceiling == pytest.approx(1.0) and a.ceiling_note() == ""
    for name in CLASSES:  # no class alone gains more than all of them together
        assert a.gain(name) <= fixed.gain + 1e-12


def test_per_image_gains_sort_the_losers() -> None:
    ds = _demo()
    spec = resolve("tiou")
    ev = run(ds, [spec])[0]
    a = attribute(ds, spec, make_params(spec), ev)
    losing = a.losing("missed")
    assert losing and all(g > 0 for _, g in losing)
    assert [g for _, g in losing] == sorted((g for _, g in losing), reverse=True)
    missed = {s for s, r in ev.results.items() if any(g.verdict == "missed" for g in r.gt)}
    assert {s for s, _ in losing} <= missed


def test_hiertext_lines_are_not_attributed() -> None:
    spec = resolve("hiertext_line")
    ds = Dataset((sample([], []),))
    ev = run(ds, [spec], policy="skip_sample")[0]
    assert attribute(ds, spec, make_params(spec), ev).classes == ()


def test_all_reaches_the_ceiling_where_gt_words_nest() -> None:
    # IC13 holds words nested in other words: DetEval itself scores the GT as detections
    # below 1 (splits), and fixing everything gives exactly that ceiling
    gt = shared_or_skip("data", "ic13", "gt.zip")
    det = shared_or_skip("data", "synthetic", "ic13", "split2.zip")
    ds = load_dataset(gt, det)
    spec = resolve("deteval")
    ev = run(ds, [spec])[0]
    a = attribute(ds, spec, make_params(spec), ev, classes=(ALL,))
    assert a.ceiling is not None and a.ceiling < 1.0
    assert a.classes[0].hmean == pytest.approx(a.ceiling, abs=1e-12)
    assert "img_2" in a.below_ceiling and "overlap or nest" in a.ceiling_note()
