"""HierText PQ: the worked examples of HIERTEXT.md sections 2-6, the option that gives the
intended mask rule, an empty-GT dataset and score properties."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from metrics.catalogue.registry import resolve
from metrics.core.results import Evaluation, Verdict
from metrics.hiertext.match import mutual_best
from metrics.io.reader import load_dataset
from metrics.run.runner import run
from tests.support import ht_files, ht_image, ht_line, ht_paragraph, ht_word, ht_words_image


def evaluate(
    tmp: Path, gt: list[dict[str, Any]], det: list[dict[str, Any]], level: str, **sets: Any
) -> Evaluation:
    ds = load_dataset(*ht_files(tmp, gt, det))
    spec = resolve(f"hiertext_{level}")
    return run(ds, [spec], {spec.id: sets})[0]


def pair_ious(ev: Evaluation, sid: str = "img_1") -> list[float]:
    return [m.values["iou"] for m in ev.results[sid].matches]


def test_identical_word_10x10_scores_just_below_one(tmp_path: Path) -> None:
    img = ht_words_image([(0, 0, 10, 10)])
    ev = evaluate(tmp_path, [img], [img], "word")
    assert pair_ious(ev) == [100 / (100 + 1e-5)] == [0.9999999000000099]
    assert ev.extras["tightness"] == 0.9999999000000099


def test_identical_line_masks_score_exactly_one(tmp_path: Path) -> None:
    img = ht_words_image([(0, 0, 10, 10)])
    assert pair_ious(evaluate(tmp_path, [img], [img], "line")) == [1.0]


def test_word_shift_3px_polygon_iou(tmp_path: Path) -> None:
    ev = evaluate(
        tmp_path, [ht_words_image([(0, 0, 10, 10)])], [ht_words_image([(3, 0, 13, 10)])], "word"
    )
    assert pair_ious(ev) == [pytest.approx(70 / (130 + 1e-5), abs=1e-15)]
    assert pair_ious(ev)[0] == pytest.approx(0.5384614970414233, abs=1e-12)


def test_mask_shift_3px_is_88_over_154_in_float32(tmp_path: Path) -> None:
    ev = evaluate(
        tmp_path, [ht_words_image([(0, 0, 10, 10)])], [ht_words_image([(3, 0, 13, 10)])], "line"
    )
    assert pair_ious(ev) == [float(np.float32(88) / np.float32(154))] == [0.5714285969734192]


def test_mutual_best_a_b_x_y_matches_only_b_x(tmp_path: Path) -> None:
    """A's best is X, X's best is B: only B-X matches, though A-Y has IoU 0.8 (section 5)."""
    gt = ht_words_image([(0, 0, 10, 10), (1, 0, 11, 10)])
    det = ht_words_image([(1, 0, 11, 10), (0, 0, 8, 10)])
    ev = evaluate(tmp_path, [gt], [det], "word")
    r = ev.results["img_1"]
    assert [(m.gt, m.det) for m in r.matches] == [((1,), (0,))]
    assert r.extra["tp"] == 1 and r.gt[0].verdict is Verdict.MISSED
    assert r.gt[0].near_miss is not None and r.gt[0].near_miss.partner == 0


def test_mutual_best_threshold_is_inclusive() -> None:
    iou = np.array([[0.5, 0.2], [0.1, 0.49999]])
    assert mutual_best(iou, 0.5) == [(0, 0)]


def test_dont_care_exactly_half_keeps_the_detection(tmp_path: Path) -> None:
    """50 / (100 + 1e-5) = 0.49999995 < 0.5: the detection stays and is a false positive."""
    gt = ht_words_image([(0, 0, 10, 10)], legible=[False])
    ev = evaluate(tmp_path, [gt], [ht_words_image([(5, 0, 15, 10)])], "word")
    r = ev.results["img_1"]
    assert r.det[0].verdict is Verdict.FALSE_POSITIVE
    assert (r.extra["num_gt"], r.extra["num_pred"]) == (0, 1)
    more = evaluate(tmp_path, [gt], [ht_words_image([(4, 0, 14, 10)])], "word")
    assert more.results["img_1"].det[0].verdict is Verdict.DONT_CARE
    assert more.results["img_1"].det[0].absorbed_by == 0


def test_zero_height_prediction_never_intersects(tmp_path: Path) -> None:
    """Its box has zero height: no intersection although its 39-pixel mask lies on the GT."""
    gt = ht_words_image([(10, 0, 48, 10)])
    det = ht_words_image([[[10, 5], [48, 5], [48, 5], [10, 5]]])
    r = evaluate(tmp_path, [gt], [det], "line").results["img_1"]
    assert r.extra["tp"] == 0 and r.det[0].verdict is Verdict.FALSE_POSITIVE
    assert r.det[0].near_miss is None


def test_touching_boxes_share_pixels_only_without_the_box_prefilter(tmp_path: Path) -> None:
    gt = ht_words_image([(0, 0, 10, 10)])
    det = ht_words_image([(10, 0, 20, 10)])  # shares the column x = 10 (11 pixels)
    official = evaluate(tmp_path, [gt], [det], "line")
    assert official.results["img_1"].det[0].near_miss is None
    intended = evaluate(tmp_path, [gt], [det], "line", box_prefilter=False)
    near = intended.results["img_1"].det[0].near_miss
    assert near is not None and near.value == pytest.approx(11 / (121 + 121 - 11), rel=1e-6)


def test_illegible_paragraph_is_its_own_loose_polygon(tmp_path: Path) -> None:
    """Section 4: the illegible paragraph's vertices remove a prediction lying half inside
    them, so the legible GT paragraph next to it stays unmatched."""
    loose = ht_paragraph(
        [ht_line([ht_word((0, 0, 10, 10), legible=False)], legible=False)],
        legible=False,
        box=(0, 0, 40, 40),
    )
    legible = ht_paragraph([ht_line([ht_word((20, 20, 60, 30))])], box=(20, 20, 60, 30))
    gt = ht_image([loose, legible])
    det = ht_image([ht_paragraph([ht_line([ht_word((20, 20, 60, 30))])])])
    r = evaluate(tmp_path, [gt], [det], "paragraph").results["img_1"]
    assert r.det[0].verdict is Verdict.DONT_CARE and r.det[0].absorbed_by == 0
    assert r.gt[1].verdict is Verdict.MISSED
    line = evaluate(tmp_path, [gt], [det], "line").results["img_1"]
    assert [(m.gt, m.det) for m in line.matches] == [((1,), (0,))]


def test_empty_gt_dataset(tmp_path: Path) -> None:
    """No GT and no detection: R = P = F = T = PQ = 1; detections only: R = 1, P = 0."""
    empty = ht_image([], "img_1")
    with_det = ht_words_image([(0, 0, 5, 5)], "img_2")
    gt = [empty, ht_image([], "img_2")]
    for level in ("word", "line", "paragraph"):
        ev = evaluate(tmp_path, gt, [empty, with_det], level)
        one = ev.results["img_1"]
        assert (one.recall, one.precision, one.hmean) == (1.0, 1.0, 1.0)
        assert (one.extra["tightness"], one.extra["pq"]) == (1.0, 1.0)
        two = ev.results["img_2"]
        assert (two.recall, two.precision, two.hmean, two.extra["pq"]) == (1.0, 0.0, 0.0, 0.0)
        assert (ev.recall, ev.precision) == (1.0, 0.0)


box = st.tuples(st.integers(0, 60), st.integers(0, 60), st.integers(1, 30), st.integers(1, 30))


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    gt=st.lists(box, max_size=5),
    det=st.lists(box, max_size=5),
    flags=st.lists(st.booleans(), min_size=5, max_size=5),
)
def test_scores_are_between_zero_and_one_and_gt_as_det_scores_one(
    tmp_path: Path, gt: list[tuple[int, ...]], det: list[tuple[int, ...]], flags: list[bool]
) -> None:
    rect = [(x, y, x + w, y + h) for x, y, w, h in gt]
    g = ht_words_image(rect, legible=flags[: len(rect)])
    d = ht_words_image([(x, y, x + w, y + h) for x, y, w, h in det])
    for level in ("word", "line", "paragraph"):
        ev = evaluate(tmp_path, [g], [d], level)
        for v in (ev.recall, ev.precision, ev.hmean, ev.extras["tightness"], ev.extras["pq"]):
            assert 0.0 <= v <= 1.0
    if all(flags[: len(rect)]):
        same = evaluate(tmp_path, [g], [ht_words_image(rect)], "line")
        assert (same.recall, same.precision) == (1.0, 1.0) or len({*rect}) < len(rect)
