"""TedEval parameters and input validation (spec 4.6 T7): official defaults, unknown
switches refused, empty care transcriptions, polygons and float coordinates are errors."""

from __future__ import annotations

import pytest

from metrics.core.model import Severity
from metrics.tedeval.metric import (
    TedEvalParams,
    validate,
)
from tests.support import WORD_G0 as G0
from tests.support import dets, gts, quad, sample


def test_official_defaults() -> None:
    p = TedEvalParams()
    assert (p.area_recall, p.area_precision, p.center_diff) == (0.4, 0.4, 1.0)
    assert (p.vertical_aspect, p.multiline_angle) == (1.5, 45.0)
    assert (p.pivot_center, p.confidences) == ("centroid", None)


def test_unknown_pivot_center_is_refused() -> None:
    with pytest.raises(ValueError, match="pivot_center"):
        TedEvalParams(pivot_center="median")


def test_empty_care_transcription_is_an_input_error() -> None:
    s = sample(gts(G0, ("0,30,100,30,100,50,0,50", "")), dets("0,0,60,0,60,20,0,20"))
    (problem,) = validate(s, TedEvalParams())
    assert problem.severity is Severity.ERROR
    assert (problem.source, problem.line, problem.sample_id) == ("gt:gt_img_1.txt", 2, "img_1")
    assert "transcription" in problem.message


def test_polygons_and_float_coordinates_are_input_errors() -> None:
    s = sample(gts(("0,0,10,0,10,10,5,15,0,10", "ABC")), [quad("0.5,0,10,0,10,10,0,10")])
    problems = validate(s, TedEvalParams(allow_float=False))  # --floats refuse
    assert [(p.source, p.line) for p in problems] == [
        ("gt:gt_img_1.txt", 1),
        ("det:res_img_1.txt", 1),
    ]
    assert validate(s, TedEvalParams(allow_float=True))[0].line == 1  # the polygon remains
    assert len(validate(s, TedEvalParams(allow_float=True))) == 1
    assert validate(sample(gts(G0, ("0,0,5,0,5,5,0,5", "###")), []), TedEvalParams()) == []
