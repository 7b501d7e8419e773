"""Total-Text family: inputs the scripts cannot take, which datasets ``--metric all`` offers
the metrics for, empty-GT datasets (per image and through the runner), parameter checks."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from metrics.catalogue.registry import applicable, resolve
from metrics.core.model import Dataset, Severity
from metrics.core.results import Verdict
from metrics.declare.spec import totaltext_like
from metrics.run.runner import run
from metrics.totaltext.params import TotalTextDetEvalParams, TotalTextVocParams
from tests.support import dets, gts, quad, rect, sample

CURVED = "0,0,50,-5,100,0,100,10,50,5,0,10"


def test_detections_with_few_points_or_float_coordinates_are_errors() -> None:
    s = sample(
        gts((rect(0, 0, 10, 10), "A")), [quad("0,0,5,5", line=1), quad("0,0,9.5,0,9,9", line=2)]
    )
    for metric in ("totaltext_deteval", "totaltext_voc"):
        spec = resolve(metric)
        problems = spec.validate([s], spec.params_type(allow_float=False))  # --floats refuse
        assert [(p.severity, p.source, p.line) for p in problems] == [
            (Severity.ERROR, "det:res_img_1.txt", 1),
            (Severity.ERROR, "det:res_img_1.txt", 2),
        ]
        assert "3 points" in problems[0].message and "integers" in problems[1].message
        lenient = spec.validate([s], spec.params_type())  # as given, the default
        assert [p.line for p in lenient] == [1]


def _ds(*coords: str) -> Dataset:
    return Dataset((sample(gts(*((c, "A") for c in coords)), []),))


@pytest.mark.parametrize(
    ("coords", "offered"),
    [
        ((rect(0, 0, 10, 10), CURVED), True),  # Total-Text: quads and curved polygons
        (("0,0,10,0,5,8",), True),  # every GT box a polygon (here a triangle)
        ((rect(0, 0, 10, 10),), False),  # ICDAR 2015 quads
        ((rect(0, 0, 10, 10),) * 9 + (CURVED,), False),  # a few curved words: ICDAR-style
        ((",".join(["0,0"] * 13 + ["5,5"]),), False),  # 14-point GT: CTW1500's own protocol
    ],
)
def test_offered_for_polygon_gt(coords: tuple[str, ...], offered: bool) -> None:
    ds = _ds(*coords)
    assert totaltext_like(ds) is offered
    ids = {s.id for s in applicable(ds)}
    assert ({"totaltext_deteval", "totaltext_voc"} <= ids) is offered


@pytest.mark.parametrize("metric", ["totaltext_deteval", "totaltext_voc"])
def test_empty_gt_dataset(metric: str) -> None:
    """No GT anywhere: every image scores 0, globally too, nothing crashes."""
    ds = Dataset(
        (
            sample([], dets(rect(0, 0, 10, 10)), sid="img1"),
            sample([], [], sid="img2"),
        )
    )
    ev = run(ds, [resolve(metric)])[0]
    assert (ev.recall, ev.precision, ev.hmean) == (0.0, 0.0, 0.0)
    assert [r.det[0].verdict.value for r in ev.results.values() if r.det] == ["false_positive"]
    assert ev.summary is not None and ev.summary.tally["n_det_care"] == 1


@pytest.mark.parametrize("metric", ["totaltext_deteval", "totaltext_voc"])
def test_image_without_care_gt_lowers_global_precision(metric: str) -> None:
    ds = Dataset(
        (
            sample(gts((rect(0, 0, 100, 10), "A")), dets(rect(0, 0, 100, 10)), sid="img1"),
            sample(gts((rect(0, 0, 9, 9), "###")), dets(rect(50, 50, 60, 60)), sid="img2"),
        )
    )
    ev = run(ds, [resolve(metric)])[0]
    assert (ev.recall, ev.precision) == pytest.approx((1.0, 0.5))
    assert (ev.results["img2"].recall, ev.results["img2"].precision) == (0.0, 0.0)


@pytest.mark.parametrize(
    ("cls", "kwargs"),
    [
        (TotalTextDetEvalParams, {"merge_gt_threshold": "x"}),
        (TotalTextDetEvalParams, {"tr": 1.5}),
        (TotalTextVocParams, {"iou_threshold": -0.1}),
        (TotalTextVocParams, {"union_offset": -1.0}),
        (TotalTextVocParams, {"missing_det_file": "x"}),
    ],
)
def test_bad_parameters_are_refused(cls: type, kwargs: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        cls(**kwargs)


@pytest.mark.parametrize("metric", ["totaltext_deteval", "totaltext_voc"])
def test_image_without_detection_file_is_not_evaluated(metric: str) -> None:
    """Quirk 1: the scripts iterate over the detection files; ``missing_det_file="empty"``
    counts the image's GT as missed instead."""
    found = sample(gts((rect(0, 0, 100, 10), "A")), dets(rect(0, 0, 100, 10)), sid="img1")
    no_file = replace(sample(gts((rect(0, 0, 100, 10), "B")), [], sid="img2"), det_source=None)
    ds = Dataset((found, no_file))
    spec = resolve(metric)
    ev = run(ds, [spec])[0]
    assert (ev.recall, ev.precision) == (1.0, 1.0)
    skipped = ev.results["img2"]
    assert skipped.gt[0].verdict is Verdict.DONT_CARE and skipped.warnings
    assert "no detection file" in skipped.warnings[0].message
    ev = run(ds, [spec], {metric: {"missing_det_file": "empty"}})[0]
    assert (ev.recall, ev.precision) == (0.5, 1.0)
    assert ev.results["img2"].gt[0].verdict is Verdict.MISSED
