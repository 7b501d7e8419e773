"""Datasets from zips and folders: same result either way, bad lines reported with member
and line, orphan detections, missing paths, degenerate polygons, confidence inference."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from metrics.core.model import BoxType, InputError
from metrics.io.reader import LoadOptions, load_dataset
from tests.support import write_dir, write_zip


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
