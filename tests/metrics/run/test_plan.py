"""What ``--metric all`` runs on a dataset: the family that fits the data, fallbacks said."""

from __future__ import annotations

from metrics.catalogue.registry import applicable
from metrics.core.model import Dataset
from metrics.declare.spec import polygon_data
from metrics.run.runner import plan_all, run
from tests.support import dets, gts, sample

CW_POLY = "0,0,0,20,50,20,100,20,100,0,50,0"  # negative shoelace: curved TIoU accepts it
CCW_POLY = "0,0,50,0,100,0,100,20,50,20,0,20"  # the order Total-Text's TedEval copy uses
QUAD = "0,0,100,0,100,20,0,20"


def _ds(gt_coords: list[str], det_coords: list[str]) -> Dataset:
    return Dataset(
        (sample(gts(*[(c, "WORD") for c in gt_coords]), dets(*det_coords)),),
    )


def test_a_few_polygons_keep_the_quad_family() -> None:
    ds = _ds([QUAD] * 9 + [CW_POLY], [QUAD])
    ids = {s.id for s in applicable(ds)}
    assert not polygon_data(ds)
    assert {"ic15_iou", "tiou", "tedeval"} <= ids and "curved_tiou" not in ids


def test_total_text_mix_of_4_point_and_longer_polygons_is_polygon_data() -> None:
    """Total-Text has 48 % 4-point polygons: it is still curved data (once it ran the quad
    family with images skipped)."""
    ds = _ds([QUAD, QUAD, CW_POLY, CW_POLY], [CW_POLY])
    ids = {s.id for s in applicable(ds)}
    assert polygon_data(ds)
    assert {"curved_iou", "curved_tiou"} <= ids
    assert not {"ic15_iou", "tiou", "tedeval"} & ids


def test_counter_clockwise_polygons_switch_on_auto_orient_with_a_note() -> None:
    ds = _ds([CCW_POLY], [CCW_POLY])
    plan = plan_all(ds, applicable(ds))
    assert "curved_tiou" in {s.id for s in plan.specs}
    assert plan.overrides["curved_tiou"] == {"auto_orient": "true"}
    assert any(n.startswith("curved_tiou: evaluated with auto_orient=true") for n in plan.notes)
    ev = {e.metric: e for e in run(ds, plan.specs, plan.overrides)}
    assert ev["curved_iou"].hmean == 1.0


def test_fallback_is_not_used_when_the_user_set_the_parameter() -> None:
    ds = _ds([CCW_POLY], [CCW_POLY])
    plan = plan_all(ds, applicable(ds), {"curved_tiou": {"auto_orient": "false"}})
    assert "curved_tiou" in plan.left_out
    assert plan.overrides["curved_tiou"] == {"auto_orient": "false"}


def test_clockwise_polygons_need_no_fallback() -> None:
    ds = _ds([CW_POLY], [CW_POLY])
    plan = plan_all(ds, applicable(ds))
    assert not plan.notes and not plan.overrides.get("curved_tiou")
