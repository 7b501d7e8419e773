"""Overlay building without Qt: what the canvas will draw for a sample and a result."""

from __future__ import annotations

import numpy as np

from metrics import evaluate
from metrics.io.demo import demo_paths
from metrics.io.reader import load_dataset
from viewer.scene.items import bounds
from viewer.scene.overlay import build_overlay
from viewer.scene.picking import hit_test
from viewer.scene.rows import sample_row


def _demo(metric: str, sample: str):
    d = demo_paths()
    ds = load_dataset(d.gt, d.det_b)
    ev = evaluate(ds, metric=metric)
    return ds[sample], ev.results[sample], ds


def test_instances_are_coloured_by_verdict() -> None:
    sample, result, _ = _demo("ic15_iou", "img_3")
    items = build_overlay(sample, result)
    gt = {it.ref[1]: it.style for it in items if it.layer == "gt"}
    assert len(gt) == len(sample.gt)
    assert gt[0] == "gt.missed"  # the near miss at IoU 0.48
    assert {it.style for it in items if it.layer == "det"} >= {"det.matched"}


def test_tiou_cut_and_outlier_regions_with_their_values() -> None:
    sample, result, _ = _demo("tiou", "img_4")
    items = [it for it in build_overlay(sample, result) if it.layer == "tiou"]
    styles = {it.style for it in items}
    assert {"tiou.cut", "tiou.outlier", "tiou.outlier.text"} <= styles
    texts = [t for it in items if it.shape == "texts" for t in it.data["texts"]]
    # labels say what they mean: the share cut off the GT, the outlier share of the det
    assert "cut 28 %" in texts and "outlier 22 %" in texts


def test_links_and_labels_follow_matches() -> None:
    sample, result, _ = _demo("ic15_iou", "img_2")
    items = build_overlay(sample, result)
    links = [it for it in items if it.layer == "links"]
    assert sum(len(it.coords) for it in links) == len(result.matches)
    assert {it.style for it in links} == {"link.one_to_one"}
    labels = [it for it in items if it.layer == "labels"]
    texts = [t for it in labels for t in it.data["texts"]]
    assert any(t.startswith("recall ") for t in texts)
    assert any(t.startswith("precision ") for t in texts)


def test_no_result_yet_draws_plain_boxes() -> None:
    sample, _, _ = _demo("ic15_iou", "img_1")
    items = build_overlay(sample, None)
    assert {it.style for it in items if it.layer == "gt"} <= {"gt.none", "gt.dont_care"}


def test_hit_test_picks_the_smallest_box_under_the_point() -> None:
    sample, result, _ = _demo("ic15_iou", "img_6")
    items = build_overlay(sample, result)
    c = sample.gt[0].points.mean(axis=0)
    ref = hit_test(items, float(c[0]), float(c[1]), {"gt", "det"})
    assert ref is not None and ref[0] in ("gt", "det")
    assert hit_test(items, -1000.0, -1000.0, {"gt", "det"}) is None
    assert hit_test(items, float(c[0]), float(c[1]), set()) is None


def test_bounds_and_failure_counts() -> None:
    sample, result, _ = _demo("ic15_iou", "img_5")
    x0, y0, x1, y1 = bounds(sample)
    assert x1 > x0 and y1 > y0
    row = sample_row(sample, result)
    assert row.n_gt == len(sample.gt) and row.missed >= 1
    assert np.isclose(row.hmean, result.hmean)


def test_a_link_of_curved_words_runs_inside_them_not_between_box_centres() -> None:
    # Total-Text img1 in B: a bent GT and its matched detection; the link joined their box
    # centres, both in the empty inside of the bend: a short segment floating over nothing
    import shapely

    from tests.support import gts, quad, run_one, sample

    g = "140,629,200,629,240,830,640,880,646,1000,560,1009,190,900"
    d = "140,630,205,632,246,826,644,876,653,1015,562,1004,186,906"
    s = sample(gts((g, "WORD")), [quad(d)])
    result = run_one("curved_tiou", s)
    assert result.matches  # the pair is matched
    (link,) = [it for it in build_overlay(s, result) if it.layer == "links"]
    (segment,) = link.coords
    gt_poly, det_poly = shapely.Polygon(s.gt[0].points), shapely.Polygon(s.det[0].points)
    assert gt_poly.contains(shapely.Point(segment[0]))
    assert det_poly.contains(shapely.Point(segment[1]))
    assert (segment[0] == segment[1]).all()  # overlapping there: no line (the painter skips)
