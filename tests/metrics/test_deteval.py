"""DetEval (ICDAR 2013): worked examples of spec 2.6 / 2.7, quirks, and the official references."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from metrics.deteval.metric import DetEvalParams, evaluate_sample, validate
from metrics.io.reader import load_dataset
from metrics.model import BoxType, Instance, Sample, Severity, ltrb_points
from metrics.results import MatchKind, NearMiss, SampleResult, Verdict, aggregate

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared"
REFERENCE = SHARED / "reference"
DETSETS = ("original", "crop80", "split2", "overlap10", "merge_line")
LEGACY = DetEvalParams(variant="legacy")


def box(
    xmin: int, ymin: int, xmax: int, ymax: int, text: str | None = "ABCDE", line: int = 1
) -> Instance:
    return Instance(
        points=ltrb_points(xmin, ymin, xmax, ymax),
        box_type=BoxType.LTRB,
        text=text,
        dont_care=text == "###",
        line=line,
    )


def dets(*coords: tuple[int, int, int, int]) -> tuple[Instance, ...]:
    return tuple(box(*c, text=None, line=n) for n, c in enumerate(coords, start=1))


def make_sample(
    gt: tuple[Instance, ...], det: tuple[Instance, ...], det_file: bool = True
) -> Sample:
    return Sample(
        id="img_1",
        gt=gt,
        det=det,
        gt_source="gt.zip:gt_img_1.txt",
        det_source="res.zip:res_img_1.txt" if det_file else None,
    )


def run(
    gt: tuple[Instance, ...],
    det: tuple[Instance, ...],
    params: DetEvalParams | None = None,
    det_file: bool = True,
) -> SampleResult:
    return evaluate_sample(make_sample(gt, det, det_file), params or DetEvalParams())


def scores(r: SampleResult) -> tuple[float, float, float]:
    return r.recall, r.precision, r.hmean


def reasons(r: SampleResult) -> list[str]:
    return [d["reason"] for d in r.evidence["discarded"]]


G0 = box(0, 0, 99, 19)  # 100 x 20 = 2000 px (inclusive)
G1 = box(110, 0, 209, 19, "FGH", line=2)


# --------------------------------------------------------------------------- parameters


def test_official_defaults() -> None:
    p = DetEvalParams()
    assert (p.area_recall, p.area_precision, p.center_diff) == (0.8, 0.4, 1.0)
    assert (p.w_oo, p.w_om, p.w_mo) == (1.0, 0.8, 1.0)
    assert (p.variant, p.per_image_empty_rule) == ("rrc", "official")


@pytest.mark.parametrize("kwargs", [{"variant": "paper"}, {"per_image_empty_rule": "x"}])
def test_unknown_switch_values_are_refused(kwargs: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        DetEvalParams(**kwargs)


# --------------------------------------------------------------------------- validation


def test_quads_and_float_coordinates_are_errors() -> None:
    quad = Instance(points=ltrb_points(0, 0, 9, 9), box_type=BoxType.QUAD, line=3)
    floats = Instance(
        points=ltrb_points(0, 0, 9.5, 9), box_type=BoxType.LTRB, text="A", line=2, integer=False
    )
    problems = validate(make_sample((G0, floats), (quad,)), DetEvalParams())
    assert [(p.severity, p.source, p.line, p.sample_id) for p in problems] == [
        (Severity.ERROR, "gt.zip:gt_img_1.txt", 2, "img_1"),
        (Severity.ERROR, "res.zip:res_img_1.txt", 3, "img_1"),
    ]
    assert "integer" in problems[0].message
    assert "QUAD" in problems[1].message


def test_integer_ltrb_boxes_are_valid() -> None:
    assert validate(make_sample((G0, G1), dets((0, 0, 9, 9))), DetEvalParams()) == []


# --------------------------------------------------------------------------- spec 2.6


def test_too_short_detection_is_missed() -> None:  # E1
    r = run((G0,), dets((0, 0, 59, 19)))
    assert scores(r) == (0.0, 0.0, 0.0)
    assert r.matches == ()
    assert r.gt[0].verdict is Verdict.MISSED
    near = r.gt[0].near_miss
    assert near is not None
    assert (near.partner, near.measure) == (0, "area_recall")
    assert near.value == pytest.approx(0.6)
    assert r.det[0].verdict is Verdict.FALSE_POSITIVE
    assert r.det[0].near_miss == NearMiss(0, 1.0, "area_precision")
    (discard,) = r.evidence["discarded"]
    assert discard["reason"] == "sum_below_threshold"
    assert discard["stage"] == "OM"
    assert discard["S"] == pytest.approx(0.6)


def test_one_to_one_at_eighty_percent_recall() -> None:  # E2
    r = run((G0,), dets((0, 0, 79, 19)))
    assert scores(r) == (1.0, 1.0, 1.0)
    (m,) = r.matches
    assert (m.kind, m.label, m.gt, m.det) == (MatchKind.ONE_TO_ONE, "OO", (0,), (0,))
    assert m.values["area_recall"] == pytest.approx(0.8)
    expected_d = 2 * 10 / (math.hypot(100, 20) + math.hypot(80, 20))
    assert m.values["d"] == pytest.approx(expected_d)
    assert m.values["d"] == pytest.approx(0.108, abs=1e-3)
    assert r.gt[0].verdict is Verdict.MATCHED and r.gt[0].partners == (0,)
    assert r.det[0].verdict is Verdict.MATCHED and r.det[0].credit == 1.0


def test_split_into_two() -> None:  # E3
    r = run((G0,), dets((0, 0, 49, 19), (50, 0, 99, 19)))
    assert scores(r) == pytest.approx((0.8, 0.8, 0.8))
    (m,) = r.matches
    assert (m.kind, m.label, m.gt, m.det) == (MatchKind.SPLIT, "OM", (0,), (0, 1))
    assert m.values["recall_sum"] == pytest.approx(1.0)
    assert r.gt[0].verdict is Verdict.PARTIAL
    assert r.gt[0].credit == pytest.approx(0.8) and r.gt[0].partners == (0, 1)
    assert [d.credit for d in r.det] == pytest.approx([0.8, 0.8])
    assert all(d.verdict is Verdict.PARTIAL and d.partners == (0,) for d in r.det)
    assert r.tally["recall_credit"] == pytest.approx(0.8)
    assert r.tally["precision_credit"] == pytest.approx(1.6)
    assert reasons(r) == []


def test_merge_of_two_words() -> None:  # E4
    r = run((G0, G1), dets((0, 0, 209, 19)))
    assert scores(r) == (1.0, 1.0, 1.0)
    (m,) = r.matches
    assert (m.kind, m.label, m.gt, m.det) == (MatchKind.MERGE, "MO", (0, 1), (0,))
    assert m.values["precision_sum"] == pytest.approx(4000 / 4200)
    assert reasons(r) == ["not_unique", "not_unique", "om_not_single", "om_not_single"]
    assert r.evidence["discarded"][0]["col_count"] == 2
    assert r.evidence["discarded"][2]["gt_overlaps"] == 1
    assert [g.credit for g in r.gt] == [1.0, 1.0]
    assert r.det[0].credit == 1.0 and r.det[0].partners == (0, 1)
    assert r.tally["recall_credit"] == 2.0 and r.tally["precision_credit"] == 1.0


def test_extra_sliver_turns_one_to_one_into_split() -> None:  # E5
    r = run((G0,), dets((0, 0, 84, 19), (80, 0, 99, 19)))
    assert scores(r) == pytest.approx((0.8, 0.8, 0.8))
    (discard,) = r.evidence["discarded"]
    assert discard == {
        "reason": "not_single_overlap",
        "gt": 0,
        "det": 0,
        "gt_overlaps": 2,
        "det_overlaps": 1,
    }
    (m,) = r.matches
    assert (m.label, m.det) == ("OM", (0, 1))


# --------------------------------------------------------------------------- spec 2.7 legacy


def test_legacy_merge_becomes_single_member_split() -> None:  # E4 legacy
    r = run((G0, G1), dets((0, 0, 209, 19)), LEGACY)
    assert scores(r)[:2] == pytest.approx((0.4, 0.8))
    (m,) = r.matches
    assert (m.kind, m.label, m.gt, m.det) == (MatchKind.SPLIT, "OM", (0,), (0,))
    assert r.gt[0].credit == pytest.approx(0.8)
    assert r.gt[1].verdict is Verdict.MISSED
    assert r.det[0].verdict is Verdict.PARTIAL


def test_legacy_sliver_keeps_one_to_one() -> None:  # E5 legacy
    r = run((G0,), dets((0, 0, 84, 19), (80, 0, 99, 19)), LEGACY)
    assert scores(r)[:2] == (1.0, 0.5)
    (m,) = r.matches
    assert (m.label, m.gt, m.det) == ("OO", (0,), (0,))
    assert r.det[1].verdict is Verdict.FALSE_POSITIVE
    assert r.det[1].near_miss == NearMiss(0, 1.0, "area_precision")


def test_legacy_split_into_two_is_unchanged() -> None:  # E3 legacy
    r = run((G0,), dets((0, 0, 49, 19), (50, 0, 99, 19)), LEGACY)
    assert scores(r) == pytest.approx((0.8, 0.8, 0.8))


# --------------------------------------------------------------------------- quirks 2.5


def test_touching_neighbours_are_recovered_as_one_to_one_via_split() -> None:  # Q2 + Q3
    touching = box(99, 0, 198, 19, "FGH", line=2)  # shares column x = 99 with G0
    r = run((G0, touching), dets((0, 0, 99, 19), (99, 0, 198, 19)))
    assert scores(r) == (1.0, 1.0, 1.0)
    assert reasons(r) == ["not_single_overlap", "not_single_overlap"]
    assert [(m.kind, m.label, m.gt, m.det) for m in r.matches] == [
        (MatchKind.ONE_TO_ONE, "OO", (0,), (0,)),
        (MatchKind.ONE_TO_ONE, "OO", (1,), (1,)),
    ]
    assert r.evidence["match_types"] == ("OO-via-OM", "OO-via-OM")
    legacy = run((G0, touching), dets((0, 0, 99, 19), (99, 0, 198, 19)), LEGACY)
    assert legacy.evidence["match_types"] == ("OO", "OO")


def test_split_sum_is_rounded_to_four_decimals() -> None:  # Q4
    gt = (box(0, 0, 99, 249),)  # 25000 px
    det = dets((0, 0, 99, 99), (0, 100, 98, 200))  # 10000 + 9999 px: S = 0.79996
    r = run(gt, det)
    assert scores(r) == pytest.approx((0.8, 0.8, 0.8))
    assert r.matches[0].values["recall_sum"] == pytest.approx(0.79996)
    assert r.matches[0].values["rounded_sum"] == 0.8
    legacy = run(gt, det, LEGACY)  # no rounding: 0.79996 < 0.8
    assert scores(legacy) == (0.0, 0.0, 0.0)
    assert legacy.evidence["discarded"][0]["reason"] == "sum_below_threshold"


def test_far_centers_discard_one_to_one_and_lonely_groups() -> None:
    r = run((G0,), dets((0, 0, 79, 19)), DetEvalParams(center_diff=0.05))
    assert scores(r) == (0.0, 0.0, 0.0)
    assert reasons(r) == ["center_distance", "om_not_single", "mo_not_single"]
    assert r.evidence["discarded"][0]["d"] == pytest.approx(0.108, abs=1e-3)
    assert r.evidence["discarded"][2]["det_overlaps"] == 1


def test_uniqueness_counts_dont_care_detections() -> None:  # Q5
    dc = box(0, 20, 99, 59, "###", line=2)  # right below G0
    # det 1 qualifies for G0 (R 1, P 0.4) but lies mostly in the dc region (0.6 > 0.4) -> dc;
    # it still breaks the uniqueness of (G0, det 0), while the overlap counts of OM / MO
    # ignore it, so G0 and det 0 each have a single overlap: no match at all.
    r = run((G0, dc), dets((0, 0, 99, 19), (0, 0, 99, 49)))
    assert r.det[1].verdict is Verdict.DONT_CARE and r.det[1].absorbed_by == 1
    assert reasons(r) == ["not_unique", "om_not_single", "mo_not_single"]
    assert r.evidence["discarded"][0]["row_count"] == 2
    assert r.matches == ()
    assert scores(r) == (0.0, 0.0, 0.0)


def test_dont_care_detections_are_absorbed() -> None:
    dc = box(200, 0, 299, 19, "###", line=2)
    det = dets((0, 0, 99, 19), (210, 0, 289, 19), (250, 0, 349, 19), (260, 0, 359, 19))
    r = run((G0, dc), det)
    assert [d.verdict for d in r.det] == [
        Verdict.MATCHED,
        Verdict.DONT_CARE,
        Verdict.DONT_CARE,
        Verdict.FALSE_POSITIVE,
    ]
    assert [d.absorbed_by for d in r.det] == [None, 1, 1, None]
    assert r.det[2].values["dc_precision"] == pytest.approx(0.5)
    # exactly 0.4 of det 3 lies in the dc box: the dc test is strict (>)
    assert r.det[3].near_miss is None
    assert r.evidence["dc_dets"] == (
        {"det": 1, "gt": 1, "precision": 1.0},
        {"det": 2, "gt": 1, "precision": 0.5},
    )
    assert r.gt[1].verdict is Verdict.DONT_CARE
    assert scores(r)[:2] == (1.0, 0.5)
    assert r.extra["num_gt_care"] == 1 and r.extra["num_det_care"] == 2


# --------------------------------------------------------------------------- per-image rules


def test_image_without_detections_scores_zero_even_if_all_gt_dont_care() -> None:  # Q6
    dc = box(0, 0, 99, 19, "###")
    r = run((dc,), (), det_file=False)
    assert scores(r) == (0.0, 0.0, 0.0)
    assert r.tally["n_gt_care"] == 0 and r.tally["n_det_care"] == 0
    ic15 = run((dc,), (), DetEvalParams(per_image_empty_rule="ic15"), det_file=False)
    assert scores(ic15) == (1.0, 1.0, 1.0)


def test_missed_word_without_detection_file() -> None:
    r = run((G0,), (), det_file=False)
    assert scores(r) == (0.0, 0.0, 0.0)
    assert r.gt[0].verdict is Verdict.MISSED and r.gt[0].near_miss is None
    assert r.tally["n_gt_care"] == 1


def test_empty_gt_file_with_empty_det_file() -> None:
    r = run((), ())
    assert scores(r) == (1.0, 1.0, 0.0)  # official: H is only computed with detections
    assert scores(run((), (), det_file=False)) == (0.0, 0.0, 0.0)


def test_detections_without_care_gt() -> None:
    r = run((), dets((0, 0, 9, 9)))
    assert scores(r) == (1.0, 0.0, 0.0)
    assert r.tally["n_det_care"] == 1
    assert r.det[0].verdict is Verdict.FALSE_POSITIVE


def test_only_dont_care_detections_give_zero_precision() -> None:
    dc = box(200, 0, 299, 19, "###", line=2)
    r = run((G0, dc), dets((200, 0, 299, 19)))
    assert scores(r) == (0.0, 0.0, 0.0)
    assert r.tally["n_det_care"] == 0


# --------------------------------------------------------------------------- conformance


def _reference(detset: str) -> dict[str, Any]:
    path = REFERENCE / f"ic13__{detset}__deteval.json"
    if not path.is_file():
        pytest.skip(f"reference file {path} not found (shared folder missing)")
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _as_tuple(v: int | list[int]) -> tuple[int, ...]:
    return tuple(v) if isinstance(v, list) else (v,)


def _evaluate(ref: dict[str, Any], params: DetEvalParams) -> list[SampleResult]:
    ds = load_dataset(ROOT.parent / ref["inputs"]["gt"], ROOT.parent / ref["inputs"]["det"])
    assert not ds.errors
    assert all(validate(s, params) == [] for s in ds)
    return [evaluate_sample(s, params) for s in ds]


@pytest.mark.conformance
@pytest.mark.parametrize("detset", DETSETS)
def test_reproduces_official_reference(detset: str) -> None:
    ref = _reference(detset)
    results = _evaluate(ref, DetEvalParams())
    assert {r.sample_id for r in results} == set(ref["per_image"])
    for r in results:
        expected = ref["per_image"][r.sample_id]
        for key in ("recall", "precision", "hmean"):
            assert getattr(r, key) == pytest.approx(expected[key], abs=1e-6), (r.sample_id, key)
        assert r.extra["num_gt_care"] == expected["num_gt_care"]
        assert r.extra["num_det_care"] == expected["num_det_care"]
    total = aggregate(results)
    for key in ("recall", "precision", "hmean"):
        assert getattr(total, key) == pytest.approx(ref["global"][key], abs=1e-6), key
    assert total.tally["n_gt_care"] == ref["global"]["num_gt_care"]
    assert total.tally["n_det_care"] == ref["global"]["num_det_care"]


@pytest.mark.conformance
@pytest.mark.parametrize("detset", DETSETS)
def test_reproduces_official_pairs(detset: str) -> None:
    ref = _reference(detset)
    for r in _evaluate(ref, DetEvalParams()):
        expected = [
            (p["type"], _as_tuple(p["gt"]), _as_tuple(p["det"]))
            for p in ref["per_image"][r.sample_id]["pairs"]
        ]
        assert [(m.label, m.gt, m.det) for m in r.matches] == expected, r.sample_id


@pytest.mark.conformance
@pytest.mark.parametrize(
    ("detset", "recall", "precision"),
    [
        ("original", 0.99890, 0.99963),
        ("crop80", 0.79452, 0.79452),
        ("merge_line", 0.81717, 0.99141),
    ],
)
def test_legacy_variant_global_numbers(detset: str, recall: float, precision: float) -> None:
    total = aggregate(_evaluate(_reference(detset), LEGACY))  # spec 2.7 (5 decimals)
    assert (total.recall, total.precision) == pytest.approx((recall, precision), abs=5e-6)
