"""SCUT-CTW1500 evaluation: the rules C1-C5 and quirks 10-15 of TOTALTEXT_CTW1500.md on
hand-computed cases (strict 0.5, first argmax, FP_gt_taken, skipped detections, invalid GT,
union clamp, AP in file order) and the intended confidence sort."""

from __future__ import annotations

import pytest

from metrics.catalogue.registry import METRICS, resolve
from metrics.core.model import Dataset, Sample
from metrics.core.results import Verdict
from metrics.ctw1500.metric import evaluate_sample
from metrics.ctw1500.params import Ctw1500Params
from metrics.ctw1500.validate import validate
from metrics.ctw1500.voc import global_extras, voc_ap
from metrics.run.runner import run
from tests.support import approx_tuple, gts, quad, sample, scores

A = ("0,0,10,0,10,10,0,10", "CARE")  # 10 x 10
B = ("3,0,13,0,13,10,3,10", "CARE")  # A shifted right by 3
WIDE = ("0,0,100,0,100,20,0,20", "CARE")  # 100 x 20
BOWTIE = "0,0,10,10,10,0,0,10"  # self-intersecting


def ctw(s: Sample, **kw: object) -> object:
    return evaluate_sample(s, Ctw1500Params(**kw))  # type: ignore[arg-type]


def dets_conf(*items: tuple[str, float | None]) -> list:
    return [quad(c, None, n, conf) for n, (c, conf) in enumerate(items, start=1)]


def test_iou_exactly_half_is_a_false_positive() -> None:  # C4: IoU > 0.5 strict
    r = ctw(sample(gts(WIDE), [quad("0,0,50,0,50,20,0,20")]))
    assert scores(r) == (0.0, 0.0, 0.0)
    fp = r.evidence.false_positives[0]
    assert (fp.reason, fp.best_gt, fp.best_iou) == ("FP_low_iou", 0, 0.5)
    assert r.det[0].verdict is Verdict.FALSE_POSITIVE
    assert r.det[0].near_miss.value == 0.5


def test_iou_just_above_half_is_a_true_positive() -> None:
    r = ctw(sample(gts(WIDE), [quad("0,0,51,0,51,20,0,20")]))
    assert scores(r) == (1.0, 1.0, 1.0)
    assert r.matches[0].values["iou"] == pytest.approx(0.51)
    assert r.matches[0].label == "TP"


def test_best_gt_is_the_first_argmax() -> None:  # C4: two identical GTs, best = the first
    r = ctw(sample(gts(A, A), [quad(A[0])]))
    assert [(m.gt, m.det) for m in r.matches] == [((0,), (0,))]
    assert r.gt[1].verdict is Verdict.MISSED


def test_best_gt_taken_is_a_false_positive_even_with_a_free_gt() -> None:  # quirk 11
    # det 1 = [1,11]: IoU 0.818 with A (taken by det 0), 0.667 with the free B -> FP_gt_taken
    r = ctw(sample(gts(A, B), [quad(A[0]), quad("1,0,11,0,11,10,1,10")]))
    assert scores(r) == approx_tuple(0.5, 0.5, 0.5)
    fp = r.evidence.false_positives[0]
    assert (fp.det, fp.reason, fp.best_gt) == (1, "FP_gt_taken", 0)
    assert fp.best_iou == pytest.approx(90 / 110)
    assert r.gt[1].verdict is Verdict.MISSED


def test_toolkits_two_by_two_example() -> None:  # each det takes its own best GT
    x, y = quad("2,0,12,0,12,10,2,10"), quad("0,0,9,0,9,10,0,10")
    r = ctw(sample(gts(A, B), [x, y]))
    assert sorted((m.gt[0], m.det[0]) for m in r.matches) == [(0, 1), (1, 0)]
    assert scores(r) == (1.0, 1.0, 1.0)


def test_self_intersecting_detection_counts_nowhere() -> None:  # C3, quirk 12
    with_bowtie = ctw(sample(gts(A), [quad(A[0]), quad(BOWTIE)]))
    without = ctw(sample(gts(A), [quad(A[0])]))
    assert scores(with_bowtie) == scores(without) == (1.0, 1.0, 1.0)
    assert with_bowtie.det[1].verdict is Verdict.DONT_CARE
    (skipped,) = with_bowtie.evidence.skipped_dets
    assert skipped.index == 1 and "Self-intersection" in skipped.reason
    assert with_bowtie.evidence.skipped()[1] == (skipped,)
    assert with_bowtie.extra["num_det_counted"] == 1
    ev = with_bowtie.evidence
    assert (ev.order, ev.tp, ev.fp) == ((0, 1), (True, False), (False, False))


def test_detection_with_two_points_is_skipped() -> None:  # C3: shapely cannot build it
    r = ctw(sample(gts(A), [quad("0,0,10,10")]))
    assert r.extra["num_det_counted"] == 0
    assert "fewer than 3 points" in r.evidence.skipped_dets[0].reason
    assert scores(r) == (0.0, 0.0, 0.0)


def test_invalid_gt_counts_but_matches_nothing() -> None:  # C3
    r = ctw(sample(gts((BOWTIE, "CARE")), [quad(A[0])]))  # the det covers the bow-tie
    assert r.tally["n_gt_care"] == 1
    assert [g.index for g in r.evidence.invalid_gt] == [0]
    assert r.evidence.false_positives[0].best_iou == 0.0
    r = ctw(sample(gts((BOWTIE, "CARE"), A), [quad(A[0]), quad("0,0,5,0,5,5,0,5")]))
    assert scores(r)[:2] == (0.5, 0.5)  # the bow-tie GT is in npos, the small det an FP


def test_union_is_clamped() -> None:  # C4: union = max(union, 1e-5)
    tiny = "0,0,0.001,0,0.001,0.001,0,0.001"  # area 1e-6
    s = sample(gts((tiny, "CARE")), [quad(tiny)])
    r = ctw(s)
    assert r.evidence.false_positives[0].best_iou == pytest.approx(0.1)
    assert ctw(s, min_union=0.0).recall == 1.0


def test_ap_depends_on_file_order() -> None:  # C5, quirk 15: hand-computed
    # file order FP, TP, TP: rec 0, .5, 1; prec 0, .5, 2/3 -> envelope 2/3 -> AP = 2/3
    far, nowhere = "50,50,60,50,60,60,50,60", "30,0,40,0,40,10,30,10"
    s = sample(gts(A, (far, "CARE")), dets_conf((nowhere, 0.1), (A[0], 0.9), (far, 0.8)))
    r = ctw(s)  # named for what it is: an AP over the file order, not over confidences
    assert "ap" not in r.extra and r.extra["ap_file_order"] == pytest.approx(2 / 3)
    assert voc_ap([False, True, True], [True, False, False], 2) == pytest.approx(2 / 3)
    assert "ap" not in global_extras([r])
    assert global_extras([r])["ap_file_order"] == pytest.approx(2 / 3)
    # the intended sort puts both TPs first: AP 1, an AP over the confidences
    sorted_r = ctw(s, sort_by_confidence=True)
    assert sorted_r.evidence.order == (1, 2, 0)
    assert sorted_r.evidence.confidence == (0.9, 0.8, 0.1)
    assert sorted_r.extra["ap"] == 1.0 and "ap_file_order" not in sorted_r.extra
    assert global_extras([sorted_r])["ap"] == 1.0
    assert "ap_file_order" not in global_extras([sorted_r])


def test_confidence_sort_changes_which_duplicate_matches() -> None:
    s = sample(gts(A), dets_conf((A[0], 0.2), (A[0], 0.9)))
    assert [m.det for m in ctw(s).matches] == [(0,)]
    assert [m.det for m in ctw(s, sort_by_confidence=True).matches] == [(1,)]


def test_global_ap_runs_over_images_in_file_name_order() -> None:
    # the official tool concatenates det files in sorted name order: "10.txt" < "2.txt"
    one = Sample("10", tuple(gts(A)), (quad(A[0]),), "gt:10.txt", "det:10.txt")
    two = Sample("2", (), (quad(A[0]),), "gt:2.txt", "det:2.txt")
    ex = global_extras([ctw(two), ctw(one)])
    # TP (image 10) then FP (image 2): AP 1, whatever order the results come in
    assert ex["ap_file_order"] == 1.0 and (ex["tp"], ex["fp"]) == (1, 1)


def test_image_without_gt_gives_false_positives_and_a_warning() -> None:  # quirk 13
    s = sample([], [quad(A[0])])
    r = ctw(s)
    assert r.evidence.false_positives[0].best_gt is None
    assert scores(r) == (0.0, 0.0, 0.0)
    (w,) = validate(s, Ctw1500Params())
    assert "without GT" in w.message and w.severity == "warning"


def test_gt_with_other_than_14_points_is_a_located_warning() -> None:  # quirk 13
    s = sample(gts(A), [])
    (w,) = validate(s, Ctw1500Params())
    assert w.line == 1 and "14" in w.message


def test_empty_gt_dataset() -> None:
    ds = Dataset((Sample("1001", (), (), "gt:1001.txt", "det:1001.txt"),))
    (ev,) = run(ds, [resolve("ctw1500_eval")])
    assert (ev.recall, ev.precision, ev.hmean) == (0.0, 0.0, 0.0)
    assert ev.extras["ap_file_order"] == 0.0
    ap = ev.results["1001"].extra["ap_file_order"]
    assert ap != ap  # NaN: no det


def test_applies_to_ctw1500_style_gt_only() -> None:
    """Offered by --metric all for 14-point polygon GT (the dataset's format), not for quads
    nor for Total-Text's polygons of varying length."""
    spec = METRICS["ctw1500_eval"]
    ring = (
        ",".join(f"{x},0" for x in range(0, 70, 10))
        + ","
        + ",".join(f"{x},9" for x in range(60, -10, -10))
    )
    ctw = Dataset((sample(gts((ring, "x")), []),))
    poly6 = Dataset((sample(gts(("0,0,5,0,9,0,9,9,5,9,0,9", "x")), []),))
    quads = Dataset((sample(gts(A), []),))
    assert spec.applies(ctw) and not spec.applies(poly6) and not spec.applies(quads)
