"""Text formats with their own columns or grammar: MLT, RCTW-17, Total-Text txt, CTW1500
(test txt, 32-value txt, XML) and MSRA-TD500, on small files written from their definitions."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from metrics.catalogue.registry import resolve
from metrics.core.model import BoxType, InputError
from metrics.run.runner import run
from tests.metrics.io.formats_support import errors, load, only_error, write

MLT_GT = (
    "10,10,50,10,50,30,10,30,Latin,Hello\n"
    "60,10,90,10,90,30,60,30,Arabic,###\n"
    "100,10,140,10,140,30,100,30,Chinese,中文,字\n"
)


def test_mlt_script_is_an_attribute_never_the_text(tmp_path: Path) -> None:
    ds = load(write(tmp_path, "gt/gt_img_1.txt", MLT_GT).parent)
    g = ds["img_1"].gt
    assert [i.text for i in g] == ["Hello", "###", "中文,字"]
    assert [i.dont_care for i in g] == [False, True, False]
    assert [dict(i.attrs or {}) for i in g] == [
        {"script": "Latin"},
        {"script": "Arabic"},
        {"script": "Chinese"},
    ]
    assert not errors(ds)


def test_mlt_scores_as_the_issue_example(tmp_path: Path) -> None:
    """3 lines, one care word: the 2 don't-care / other words no longer count as misses."""
    gt = write(tmp_path, "gt/gt_img_1.txt", MLT_GT.replace("Chinese,中文,字", "Latin,###")).parent
    det = write(tmp_path, "det/res_img_1.txt", "10,10,50,10,50,30,10,30\n").parent
    ev = run(load(gt, det), [resolve("ic15_iou")])[0]
    assert ds_care(gt) == 1
    assert ev.hmean == 1.0


def ds_care(gt: Path) -> int:
    return sum(s.n_gt_care for s in load(gt))


def test_mlt_bad_line_is_located(tmp_path: Path) -> None:
    bad = MLT_GT + "1,2,3,Latin,x\n"
    ds = load(write(tmp_path, "gt/gt_img_1.txt", bad).parent)
    assert only_error(ds).startswith(f"{tmp_path / 'gt' / 'gt_img_1.txt'}:4: error: expected 8")


def test_rctw_difficult_is_dont_care(tmp_path: Path) -> None:
    text = '1,1,20,1,20,9,1,9,0,"你好"\n30,1,50,1,50,9,30,9,1,"看不清"\n'
    ds = load(write(tmp_path, "gt/image_0.txt", text).parent)
    g = ds["image_0"].gt
    assert [i.text for i in g] == ["你好", "看不清"]
    assert [i.dont_care for i in g] == [False, True]
    assert g[1].attrs == {"difficult": 1}


def test_rctw_bad_difficult_is_located(tmp_path: Path) -> None:
    text = '1,1,20,1,20,9,1,9,0,"a"\n1,1,20,1,20,9,1,9,0,"b"\n1,1,2,1,2,9,1,9,x,"c"\n'
    ds = load(write(tmp_path, "gt/image_0.txt", text).parent, gt_format="rctw")
    assert ":3: error: difficult flag 'x' is not a number" in only_error(ds)


TOTALTEXT = (
    "x: [[115 503 494 115]], y: [[322 346 426 404]], ornt: [u'm'], transcriptions: [u'nauGHTY']\n"
    "x: [[734 1058 1011 682]], y: [[360 369 449 430]], ornt: [u'#'], transcriptions: [u'#']\n"
    "x: [[10 20 30 40 50\n 60]], y: [[1 2 30 31 2 1]], ornt: [u'c'], transcriptions: [u'ça va']\n"
)


def test_totaltext_txt_records(tmp_path: Path) -> None:
    ds = load(write(tmp_path, "gt/poly_gt_img11.txt", TOTALTEXT).parent)
    g = ds["img11"].gt
    assert [i.text for i in g] == ["nauGHTY", "#", "ça va"]
    assert [i.dont_care for i in g] == [False, True, False]
    assert [i.line for i in g] == [1, 2, 3]
    assert g[2].points.tolist()[-1] == [60.0, 1.0]
    assert g[0].attrs == {"orientation": "m"}
    assert g[0].box_type is BoxType.QUAD and g[2].box_type is BoxType.POLY


def test_totaltext_broken_record_is_located(tmp_path: Path) -> None:
    text = TOTALTEXT + "x: [[1 2 3]], y: [[1 2]], ornt: [u'h'], transcriptions: [u'a']\n"
    ds = load(write(tmp_path, "gt/poly_gt_img11.txt", text).parent)
    assert ":5: error: x and y must be lists of numbers of the same length" in only_error(ds)


CTW_TEST = (
    "10,10,40,10,40,30,10,30,####HELLO\n"
    "50,10,90,10,90,30,50,30,#######\n"
    "1.5,2,30,2,30,20,1.5,20,####a,b\n"
)


def test_ctw1500_test_txt_text_after_hashes(tmp_path: Path) -> None:
    ds = load(write(tmp_path, "gt/1001.txt", CTW_TEST).parent)
    g = ds["1001"].gt
    assert [i.text for i in g] == ["HELLO", "###", "a,b"]
    assert [i.dont_care for i in g] == [False, True, False]
    assert [i.integer for i in g] == [True, True, False]


def test_ctw1500_32_values_decoded_from_box_and_offsets(tmp_path: Path) -> None:
    offsets = [v for k in range(14) for v in (k * 2, 0 if k < 7 else 10)]
    line = ",".join(str(v) for v in [100, 50, 130, 60, *offsets])
    ds = load(write(tmp_path, "gt/0001.txt", line + "\n" + line + "\n").parent)
    pts = ds["0001"].gt[0].points
    assert pts.shape == (14, 2)
    assert pts[0].tolist() == [100.0, 50.0] and pts[13].tolist() == [126.0, 60.0]


def test_ctw1500_xml(tmp_path: Path) -> None:
    xml = (
        '<Annotations><image file="0200.jpg"><box height="20" left="1" top="2" width="30">'
        "<label>OLATHE</label><segs>1,2,31,2,31,22,1,22</segs></box>"
        "<box><label>###</label><segs>40,2,60,2,60,22</segs></box>"
        "<box><label>x</label><segs>1,2</segs></box></image></Annotations>"
    )
    ds = load(write(tmp_path, "gt/0200.xml", xml))
    g = ds["0200"].gt
    assert [i.text for i in g] == ["OLATHE", "###"]
    assert [i.dont_care for i in g] == [False, True]
    assert "image[0].box[2]: <segs> must hold at least 3 x,y pairs" in only_error(ds)


def test_ctw1500_xml_malformed_is_located(tmp_path: Path) -> None:
    path = write(tmp_path, "gt.xml", "<Annotations>\n<image file='1.jpg'>\n<box></image>")
    with pytest.raises(InputError) as caught:
        load(path)
    assert "no file parsed as GT" in str(caught.value)
    assert [str(p) for p in caught.value.problems] == [
        f"{path}:3: error: not well-formed XML: mismatched tag: line 3, column 7"
    ]


def test_msra_td500_rotated_rectangle(tmp_path: Path) -> None:
    text = f"0 0 10 20 40 10 0\n1 1 0 0 20 10 {math.pi / 2}\n"
    ds = load(write(tmp_path, "gt/IMG_0059.gt", text).parent)
    g = ds["IMG_0059"].gt
    assert g[0].points.tolist() == [[10, 20], [50, 20], [50, 30], [10, 30]]
    # turned a quarter about its centre (10, 5): width and height swap
    assert np.allclose(g[1].points, [[15, -5], [15, 15], [5, 15], [5, -5]])
    assert [i.dont_care for i in g] == [False, True]
    assert g[1].attrs == {"difficult": 1, "angle": math.pi / 2}


def test_msra_bad_line_is_located(tmp_path: Path) -> None:
    ds = load(write(tmp_path, "gt/IMG_1.gt", "0 0 1 2 3 4 0\n0 0 1 2\n").parent)
    assert ":2: error: expected 'index difficult x y w h angle'" in only_error(ds)


def test_empty_image_file_is_a_sample_without_boxes(tmp_path: Path) -> None:
    write(tmp_path, "gt/gt_img_2.txt", "")
    ds = load(write(tmp_path, "gt/gt_img_1.txt", MLT_GT).parent)
    assert [s.id for s in ds] == ["img_1", "img_2"]
    assert ds["img_2"].gt == ()
