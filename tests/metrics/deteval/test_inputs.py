"""DetEval parameters and input validation: the official defaults, unknown switch
values refused, integer LTRB boxes only (quads and float coordinates are errors with file:line)."""

from __future__ import annotations

from typing import Any

import pytest

from metrics.core.model import BoxType, Instance, Severity, ltrb_points
from metrics.deteval.metric import DetEvalParams, validate
from tests.support import DETEVAL_G0 as G0
from tests.support import DETEVAL_G1 as G1
from tests.support import boxes, ltrb_sample


def test_official_defaults() -> None:
    p = DetEvalParams()
    assert (p.area_recall, p.area_precision, p.center_diff) == (0.8, 0.4, 1.0)
    assert (p.w_oo, p.w_om, p.w_mo) == (1.0, 0.8, 1.0)
    assert (p.variant, p.per_image_empty_rule) == ("rrc", "official")


@pytest.mark.parametrize("kwargs", [{"variant": "paper"}, {"per_image_empty_rule": "x"}])
def test_unknown_switch_values_are_refused(kwargs: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        DetEvalParams(**kwargs)


def test_quads_and_float_coordinates_are_errors() -> None:
    quad = Instance(points=ltrb_points(0, 0, 9, 9), box_type=BoxType.QUAD, line=3)
    floats = Instance(
        points=ltrb_points(0, 0, 9.5, 9), box_type=BoxType.LTRB, text="A", line=2, integer=False
    )
    sample = ltrb_sample((G0, floats), (quad,))
    # as given by default (--floats as-given): only the QUAD is an error
    assert [p.line for p in validate(sample, DetEvalParams())] == [3]
    problems = validate(sample, DetEvalParams(allow_float=False))  # --floats refuse
    assert [(p.severity, p.source, p.line, p.sample_id) for p in problems] == [
        (Severity.ERROR, "gt.zip:gt_img_1.txt", 2, "img_1"),
        (Severity.ERROR, "res.zip:res_img_1.txt", 3, "img_1"),
    ]
    assert "integer" in problems[0].message
    assert "QUAD" in problems[1].message


def test_integer_ltrb_boxes_are_valid() -> None:
    assert validate(ltrb_sample((G0, G1), boxes((0, 0, 9, 9))), DetEvalParams()) == []
