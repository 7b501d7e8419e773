"""DetEval keeps only the (GT, det) pairs that overlap: the evidence is sparse, a batch gives
the same results as each image alone, and thresholds <= 0 (under which pairs that do not
overlap can qualify) keep every pair."""

from __future__ import annotations

import dataclasses

import numpy as np

from metrics.core.model import Sample
from metrics.deteval.evidence import DetEvalEvidence
from metrics.deteval.metric import DetEvalParams, evaluate_batch, evaluate_sample
from tests.support import box, boxes, ltrb_sample


def _evidence(s: Sample, params: DetEvalParams | None = None) -> DetEvalEvidence:
    ev = evaluate_sample(s, params or DetEvalParams()).evidence
    assert isinstance(ev, DetEvalEvidence)
    return ev


def test_only_overlapping_pairs_are_kept() -> None:
    # GT 0 overlaps det 0 by 10 x 10 inclusive pixels; det 1 is far away; det 2 touches GT 0
    # on its right edge (x = 19 in both: a one-pixel-wide overlap, 10 pixels)
    s = ltrb_sample(
        (box(10, 10, 19, 19),),
        boxes((10, 10, 19, 19), (100, 100, 120, 120), (19, 10, 30, 19)),
    )
    recall = _evidence(s).area_recall
    assert recall.shape == (1, 3)
    assert recall.gt.tolist() == [0, 0] and recall.det.tolist() == [0, 2]
    assert recall.values.tolist() == [1.0, 0.1]
    table = _evidence(s).pair_table()
    assert table is not None
    assert table.measure("area recall").tolist() == [[1.0, 0.0, 0.1]]


def test_a_batch_gives_what_each_image_gives_alone() -> None:
    rng = np.random.default_rng(3)
    samples = []
    for k in range(6):
        xy = rng.integers(0, 200, size=(12, 2))
        gt = tuple(
            box(int(x), int(y), int(x) + 30, int(y) + 12, line=n) for n, (x, y) in enumerate(xy, 1)
        )
        det = boxes(*((int(x) + 2, int(y) - 1, int(x) + 29, int(y) + 13) for x, y in xy[::2]))
        samples.append(dataclasses.replace(ltrb_sample(gt, det), id=f"img_{k}"))
    together = evaluate_batch(samples, DetEvalParams())
    for s, r in zip(samples, together, strict=True):
        alone = evaluate_sample(s, DetEvalParams())
        assert (r.recall, r.precision, r.tally) == (alone.recall, alone.precision, alone.tally)
        assert r.matches == alone.matches


def test_zero_thresholds_keep_every_pair() -> None:
    # with area_recall = area_precision = 0 a pair that does not overlap qualifies (the
    # official comparisons are >=), so the far detection makes the GT's row count 2
    s = ltrb_sample((box(10, 10, 19, 19),), boxes((10, 10, 19, 19), (100, 100, 120, 120)))
    params = DetEvalParams(area_recall=0.0, area_precision=0.0)
    ev = _evidence(s, params)
    assert ev.area_recall.det.tolist() == [0, 1]
    assert ev.area_recall.values.tolist() == [1.0, 0.0]
    assert [d.reason for d in ev.discarded][:1] == ["not_unique"]
