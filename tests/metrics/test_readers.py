"""Readers: line grammar (spec 0.2-0.3), archives and folders, id pairing, bad input."""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pytest

from metrics.io.archive import Member, split_lines
from metrics.io.lines import DetSchema, LineError, parse_det_line, parse_gt_line
from metrics.io.pairing import IdMatcher, gt_id
from metrics.io.reader import LoadOptions, load_dataset
from metrics.model import BoxType, InputError, Severity


def write_zip(path: Path, files: dict[str, str | bytes]) -> Path:
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in files.items():
            zf.writestr(name, data)
    return path


def write_dir(path: Path, files: dict[str, str | bytes]) -> Path:
    path.mkdir()
    for name, data in files.items():
        (path / name).write_bytes(data if isinstance(data, bytes) else data.encode())
    return path


# ----------------------------------------------------------------------------- line grammar


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


def test_bom_crlf_and_empty_lines() -> None:
    m = Member("gt_img_1.txt", "gt:gt_img_1.txt", b"\xef\xbb\xbf1,1,2,2,a\r\n\r\n3,3,4,4,b\r\n")
    lines = split_lines(m, [])
    assert [(ln.number, ln.text) for ln in lines] == [(1, "1,1,2,2,a"), (3, "3,3,4,4,b")]


def test_non_utf8_is_a_warning_with_line_number() -> None:
    problems: list = []
    lines = split_lines(Member("x.txt", "gt:x.txt", b"1,1,2,2,ok\n1,1,2,2,caf\xe9\n"), problems)
    assert lines[1].text == "1,1,2,2,caf\ufffd"
    assert problems[0].severity is Severity.WARNING and problems[0].line == 2
    assert "UTF-8" in problems[0].message


# ----------------------------------------------------------------------------- pairing


@pytest.mark.parametrize(
    ("gt", "other", "sid"),
    [
        ("gt_img_12.txt", "res_img_12.txt", "img_12"),
        ("poly_gt_img7.txt", "img7.txt", "img7"),
        ("1001.txt", "1001.txt", "1001"),
        ("gt_img_3.txt", "res_3.txt", "img_3"),
        ("gt_img_12.txt", "img_12.jpg", "img_12"),
    ],
)
def test_ids_are_paired_from_file_names(gt: str, other: str, sid: str) -> None:
    assert gt_id(gt) == sid
    assert IdMatcher([gt_id(gt), "img_99"]).match(other) == sid


# ----------------------------------------------------------------------------- datasets


def test_zip_and_folder_give_the_same_dataset(tmp_path: Path) -> None:
    gt = {"gt_img_1.txt": "0,0,10,0,10,10,0,10,A\n", "gt_img_2.txt": "0,0,5,5,B\n"}
    det = {"res_img_1.txt": "0,0,10,0,10,10,0,10\n"}
    a = load_dataset(write_zip(tmp_path / "gt.zip", gt), write_zip(tmp_path / "d.zip", det))
    b = load_dataset(write_dir(tmp_path / "gt", gt), write_dir(tmp_path / "det", det))
    assert [s.id for s in a] == [s.id for s in b] == ["img_1", "img_2"]
    assert a["img_2"].det == () and a["img_2"].det_source is None
    assert np.array_equal(a["img_1"].det[0].points, b["img_1"].det[0].points)


def test_bad_lines_are_reported_with_member_and_line(tmp_path: Path) -> None:
    gt = write_zip(tmp_path / "gt.zip", {"gt_img_1.txt": "0,0,10,0,10,10,0,10,A\n1,2,3,x\n"})
    ds = load_dataset(gt)
    (err,) = ds.errors
    assert err.source == "gt.zip:gt_img_1.txt" and err.line == 2 and err.sample_id == "img_1"
    assert len(ds["img_1"].gt) == 1  # the good line is kept


def test_detection_without_gt_is_an_error(tmp_path: Path) -> None:
    gt = write_zip(tmp_path / "gt.zip", {"gt_img_1.txt": "0,0,1,1,A\n"})
    det = write_zip(tmp_path / "det.zip", {"res_img_1.txt": "", "res_img_9.txt": "0,0,1,1\n"})
    ds = load_dataset(gt, det)
    assert any("matches no GT" in p.message and "res_img_9" in p.source for p in ds.errors)


def test_missing_path_raises_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        load_dataset(tmp_path / "nope.zip")


def test_degenerate_polygons_are_warnings(tmp_path: Path) -> None:
    gt = write_zip(
        tmp_path / "gt.zip",
        {"gt_img_1.txt": "0,0,100,20,100,0,0,20,bowtie\n0,0,10,0,20,0,5,0,flat\n"},
    )
    ds = load_dataset(gt)
    msgs = [(p.line, p.message) for p in ds.warnings]
    assert any(line == 1 and "self-intersecting" in m for line, m in msgs)
    assert any(line == 2 and "zero area" in m for line, m in msgs)
    assert not ds.errors


def test_confidence_is_inferred_over_the_whole_detection_set(tmp_path: Path) -> None:
    gt = write_zip(tmp_path / "gt.zip", {"gt_img_1.txt": "0,0,10,0,10,10,0,10,A\n"})
    det = write_zip(
        tmp_path / "det.zip", {"res_img_1.txt": "0,0,10,0,10,10,0,10,0.9\n0,0,10,0,10,10,0,10,1\n"}
    )
    ds = load_dataset(gt, det)
    assert [d.confidence for d in ds["img_1"].det] == [0.9, 1.0]
    forced = load_dataset(
        gt, det, options=LoadOptions(det_confidence=False, det_transcription=True)
    )
    assert [d.text for d in forced["img_1"].det] == ["0.9", "1"]


def test_one_point_dont_care_gt_is_read_with_a_warning(tmp_path: Path) -> None:
    gt = write_zip(tmp_path / "gt.zip", {"gt_img1.txt": "0,0,10,0,10,10,0,10,A\n39,292,###\n"})
    ds = load_dataset(gt)
    g = ds["img1"].gt[1]
    assert g.box_type is BoxType.POLY and len(g.points) == 1 and g.dont_care
    assert not ds.errors and any(p.line == 2 and "zero area" in p.message for p in ds.warnings)
