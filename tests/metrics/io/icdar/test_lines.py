"""Line grammar of GT and detection files (spec 0.2-0.3): box types, transcriptions with
commas and quotes, don't-care marks, confidences, forced box types, malformed lines."""

from __future__ import annotations

import pytest

from metrics.core.model import BoxType
from metrics.io.icdar.lines import DetSchema, LineError, parse_det_line, parse_gt_line


def test_quad_with_transcription() -> None:
    inst = parse_gt_line("1,2,3,2,3,4,1,4,Hello", 7)
    assert inst.box_type is BoxType.QUAD and inst.text == "Hello" and inst.line == 7
    assert inst.points.tolist() == [[1, 2], [3, 2], [3, 4], [1, 4]]


def test_transcription_keeps_commas() -> None:
    assert parse_gt_line("1,2,3,2,3,4,1,4,a,b,,c", 1).text == "a,b,,c"


def test_ic13_quoted_ltrb_with_spaces() -> None:
    inst = parse_gt_line('38, 43, 920, 215, "Tired\\"ness"', 1)
    assert inst.box_type is BoxType.LTRB and inst.text == 'Tired"ness'
    assert inst.ltrb == (38, 43, 920, 215)


def test_unquoted_text_keeps_leading_space() -> None:
    assert parse_gt_line("10,10,20,20, abc", 1).text == " abc"


@pytest.mark.parametrize(
    ("text", "dc"), [("###", True), ('"###"', True), ("#", False), ("####", False), ("### ", False)]
)
def test_dont_care_is_exactly_three_hashes(text: str, dc: bool) -> None:
    assert parse_gt_line(f"0,0,10,0,10,10,0,10,{text}", 1).dont_care is dc


def test_numeric_transcription_of_gt() -> None:
    inst = parse_gt_line("0,0,10,0,10,10,0,10,2024", 1)
    assert inst.box_type is BoxType.QUAD and inst.text == "2024"


def test_polygon_gt_and_float_coordinates() -> None:
    inst = parse_gt_line("0,0,10,0,20,5,10,10,0.5,10,CARE", 1)
    assert inst.box_type is BoxType.POLY and len(inst.points) == 5 and not inst.integer


def test_detection_with_confidence_and_transcription() -> None:
    schema = DetSchema(confidence=True, transcription=True)
    inst = parse_det_line("0,0,10,0,10,10,0,10,0.93,SHOP", 1, schema)
    assert inst.confidence == pytest.approx(0.93) and inst.text == "SHOP"
    num = parse_det_line("0,0,10,0,10,10,0,10,0.5,42", 2, schema)
    assert num.confidence == 0.5 and num.text == "42" and num.box_type is BoxType.QUAD


def test_detection_trailing_comma_is_tolerated() -> None:
    inst = parse_det_line("1,2,3,4,", 1, DetSchema())
    assert inst.box_type is BoxType.LTRB and inst.text is None


def test_forced_box_type() -> None:
    inst = parse_gt_line("0,0,10,0,10,10,0,10,1,5", 1, BoxType.QUAD)
    assert inst.box_type is BoxType.QUAD and inst.text == "1,5"
    with pytest.raises(LineError, match="QUAD line needs 8"):
        parse_det_line("0,0,10,10", 1, DetSchema(), BoxType.QUAD)


@pytest.mark.parametrize("line", ["1,2,3", "a,b,c,d", "5,5,1,1", "0,0,10,0,10,10,0,x0"])
def test_malformed_lines_raise(line: str) -> None:
    with pytest.raises(LineError):
        parse_det_line(line, 1, DetSchema())
