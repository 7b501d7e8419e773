"""PaddleOCR DetMetric: TOOLKITS.md sections 2, 3, 5, 6 on hand-computed cases: ``###`` and
``*`` don't care, invalid polygons skipped (a skipped ``###`` absorbs nothing), GT padding,
images without GT dropped, the 2x2 example (R = P = 0.5), per-image and global formation."""

from __future__ import annotations

from metrics.catalogue.registry import METRICS, resolve
from metrics.core.model import Dataset, Sample
from metrics.core.results import Verdict
from metrics.paddleocr.metric import evaluate_sample
from metrics.paddleocr.params import PaddleParams
from metrics.paddleocr.validate import validate
from metrics.run.runner import run
from tests.support import dets, gts, quad, sample, scores

A = "0,0,10,0,10,10,0,10"
B = "3,0,13,0,13,10,3,10"
FAR = "50,50,60,50,60,60,50,60"
BOWTIE = "0,0,10,10,10,0,0,10"
P = PaddleParams()


def paddle(s: Sample):  # type: ignore[no-untyped-def]
    r = evaluate_sample(s, P)
    assert r is not None
    return r


def test_two_by_two_example_gives_half() -> None:  # section 3: greedy, not maximum matching
    r = paddle(sample(gts((A, "a"), (B, "b")), dets("2,0,12,0,12,10,2,10", "0,0,9,0,9,10,0,10")))
    assert [(m.gt, m.det) for m in r.matches] == [((0,), (0,))]
    assert scores(r) == (0.5, 0.5, 0.5)


def test_iou_exactly_half_does_not_match() -> None:  # section 3: IoU > 0.5 strict
    wide = "0,0,100,0,100,20,0,20"
    assert paddle(sample(gts((wide, "w")), dets("0,0,50,0,50,20,0,20"))).recall == 0.0
    assert paddle(sample(gts((wide, "w")), dets("0,0,51,0,51,20,0,20"))).recall == 1.0


def test_star_transcription_is_dont_care() -> None:  # section 2
    r = paddle(sample(gts((A, "*"), (FAR, "x")), dets("1,1,9,1,9,9,1,9", FAR)))
    assert r.gt[0].verdict is Verdict.DONT_CARE
    assert r.det[0].verdict is Verdict.DONT_CARE and r.det[0].absorbed_by == 0
    assert scores(r) == (1.0, 1.0, 1.0)
    assert (r.extra["gt_care"], r.extra["det_care"], r.extra["matched"]) == (1, 1, 1)


def test_half_inside_dont_care_is_kept() -> None:  # section 2: > 0.5 of the det area, strict
    r = paddle(sample(gts((A, "###")), dets("5,0,15,0,15,10,5,10")))
    assert r.det[0].verdict is Verdict.FALSE_POSITIVE


def test_skipped_dont_care_gt_cannot_absorb() -> None:  # section 5
    r = paddle(sample(gts((BOWTIE, "###"), (FAR, "x")), dets(A)))
    gt_skip, det_skip = r.evidence.skipped()
    assert [g.index for g in gt_skip] == [0] and "Self-intersection" in gt_skip[0].reason
    assert det_skip == ()
    assert r.det[0].verdict is Verdict.FALSE_POSITIVE  # a valid ### would have absorbed it
    assert scores(r) == (0.0, 0.0, 0.0)
    assert r.tally["n_gt_care"] == 1


def test_invalid_detection_is_skipped() -> None:  # section 5
    r = paddle(sample(gts((A, "a")), dets(A, BOWTIE)))
    assert [d.index for d in r.evidence.det_invalid_skipped] == [1]
    assert r.det[1].verdict is Verdict.DONT_CARE
    assert scores(r) == (1.0, 1.0, 1.0)


def test_one_point_gt_is_padded_and_skipped() -> None:  # section 1: padding
    r = paddle(sample(gts((A, "a"), ("5,5", "###")), dets(A)))
    assert [g.index for g in r.evidence.gt_invalid_skipped] == [1]
    assert scores(r) == (1.0, 1.0, 1.0)


def test_short_polygon_padded_to_the_longest_still_matches() -> None:
    poly = "0,0,5,0,10,0,10,10,5,10,0,10"
    r = paddle(sample(gts((poly, "p"), (FAR, "q")), dets(poly, FAR)))
    assert scores(r) == (1.0, 1.0, 1.0)


def test_no_care_gt_per_image_rule() -> None:  # section 6
    assert scores(paddle(sample(gts((A, "###")), dets(FAR)))) == (1.0, 0.0, 0.0)
    assert scores(paddle(sample(gts((A, "###")), []))) == (1.0, 1.0, 1.0)


def test_image_without_gt_is_dropped_with_a_note() -> None:  # section 1
    kept = sample(gts((A, "a")), dets(A), sid="img_1")
    empty = sample([], dets(A, FAR), sid="img_2")
    assert evaluate_sample(empty, P) is None
    (ev,) = run(Dataset((kept, empty)), [resolve("paddleocr_det_iou")])
    assert list(ev.results) == ["img_1"] and not ev.excluded
    assert (ev.recall, ev.precision) == (1.0, 1.0)  # the 2 dropped dets count nowhere
    (note,) = [p for p in ev.problems if p.sample_id == "img_2"]
    assert note.severity == "warning" and "no GT line" in note.message
    assert ev.extras["images"] == 1


def test_empty_gt_dataset() -> None:  # every image dropped: recall 0, not 1 (section 7)
    ds = Dataset((sample([], dets(A), sid="img_1"),))
    (ev,) = run(ds, [resolve("paddleocr_det_iou")])
    assert ev.results == {} and (ev.recall, ev.precision, ev.hmean) == (0.0, 0.0, 0.0)


def test_dont_care_only_dataset_gives_recall_zero() -> None:  # section 6 global rule
    (ev,) = run(Dataset((sample(gts((A, "###")), dets(FAR)),)), [resolve("paddleocr_det_iou")])
    assert (ev.recall, ev.precision) == (0.0, 0.0)


def test_two_point_detection_is_skipped_with_a_warning() -> None:
    s = sample(gts((A, "a")), [quad("0,0,10,10")])
    assert "fewer than 3 points" in paddle(s).evidence.det_invalid_skipped[0].reason
    (w,) = validate(s, P)
    assert w.line == 1 and w.source == s.det_source


def test_applies_to_any_data() -> None:
    assert METRICS["paddleocr_det_iou"].applies(Dataset((sample(gts((A, "a")), []),)))
