"""JSON and label formats: MMOCR (dataset and predictions), PaddleOCR (label files, infer_det
results, 3.x res.json), COCO-Text / TextOCR, ArT / LSVT, ReCTS, docTR, HierText words and
detlens JSON, on small files written from their definitions."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from metrics.core.model import BoxType, InputError
from metrics.io.reader import load_dataset
from tests.metrics.io.formats_support import errors, load, only_error, write

SQ = [[10, 10], [50, 10], [50, 30], [10, 30]]
FLAT = [10, 10, 50, 10, 50, 30, 10, 30]


def mmocr_gt() -> dict[str, Any]:
    return {
        "metainfo": {"dataset_type": "TextDetDataset", "task_name": "textdet"},
        "data_list": [
            {
                "img_path": "textdet_imgs/test/img_1.jpg",
                "height": 100,
                "width": 200,
                "instances": [
                    {
                        "polygon": FLAT,
                        "bbox": [10, 10, 50, 30],
                        "bbox_label": 0,
                        "ignore": False,
                        "text": "Straße",
                    },
                    {"polygon": [60.5, 10, 90, 10, 90, 30], "bbox_label": 0, "ignore": True},
                    {"bbox": [1, 2, 3, 4], "bbox_label": 0, "ignore": False},
                ],
            },
            {"img_path": "textdet_imgs/test/img_2.jpg", "instances": []},
        ],
    }


def test_mmocr_dataset_and_prediction_folder(tmp_path: Path) -> None:
    gt = write(tmp_path, "textdet_test.json", mmocr_gt())
    write(tmp_path, "preds/img_1.json", {"det_polygons": [FLAT], "det_scores": [0.75]})
    write(tmp_path, "preds/img_2.json", {"det_polygons": [], "det_scores": []})
    ds = load(gt, tmp_path / "preds")
    g = ds["img_1"].gt
    assert [i.dont_care for i in g] == [False, True, False]
    assert g[0].text == "Straße" and g[0].attrs == {"bbox_label": 0}
    assert g[1].box_type is BoxType.POLY and not g[1].integer
    assert g[2].box_type is BoxType.LTRB and g[2].ltrb == (1, 2, 3, 4)
    assert ds["img_1"].det[0].confidence == 0.75
    assert ds["img_2"].gt == () and ds["img_2"].det == () and ds["img_2"].det_source
    assert not errors(ds)


def test_mmocr_inferencer_output_and_name_map(tmp_path: Path) -> None:
    gt = write(tmp_path, "gt.json", mmocr_gt())
    one = {"predictions": [{"img_path": "x/img_1.jpg", "det_polygons": [FLAT], "det_scores": [1]}]}
    assert len(load(gt, write(tmp_path, "a.json", one))["img_1"].det) == 1
    names = {"img_2.jpg": {"det_polygons": [FLAT, FLAT], "det_scores": [0.5, 0.25]}}
    assert [d.confidence for d in load(gt, write(tmp_path, "b.json", names))["img_2"].det] == [
        0.5,
        0.25,
    ]


def test_mmocr_malformed_located(tmp_path: Path) -> None:
    data = mmocr_gt()
    data["data_list"][0]["instances"][1]["polygon"] = [1, 2, 3]
    ds = load(write(tmp_path, "gt.json", data))
    assert only_error(ds).endswith(
        "error: data_list[0].instances[1].polygon: has an odd number of coordinates (3)"
    )
    preds = write(tmp_path, "img_1.json", {"det_polygons": [FLAT], "det_scores": [0.5, 0.1]})
    ds = load(write(tmp_path, "gt2.json", mmocr_gt()), preds)
    assert "det_scores: must be a list as long as det_polygons" in only_error(ds)


PADDLE_GT = (
    'ch4_test_images/img_1.jpg\t[{"transcription": "Genaxis", "points": '
    '[[377, 117], [463, 117], [465, 130], [378, 130]]}, {"transcription": "###", "points": '
    '[[493, 115], [519, 115], [519, 131], [493, 131]]}, {"transcription": "x", "points": '
    '[[1, 1], [9, 1], [9, 9]], "difficult": true}]\n'
    "ch4_test_images/img_2.jpg\t[]\n"
)


def test_paddle_label_gt_and_infer_det_results(tmp_path: Path) -> None:
    gt = write(tmp_path, "test_label.txt", PADDLE_GT)
    det = write(
        tmp_path,
        "det_results.txt",
        'ch4_test_images/img_1.jpg\t[{"transcription": "", "points": [[377, 117], [463, 117], '
        "[465, 130], [378, 130]]}]\nimg_2.jpg\t[[[1.5, 1], [9, 1], [9, 9], [1, 9]]]\n",
    )
    ds = load(gt, det)
    g = ds["img_1"].gt
    assert [i.dont_care for i in g] == [False, True, True]
    assert g[2].attrs == {"difficult": True}
    assert ds["img_1"].det[0].text is None
    assert not ds["img_2"].det[0].integer and ds["img_2"].gt == ()
    assert ds["img_1"].gt_source == f"{gt}:1"


def test_paddle_bad_line_located(tmp_path: Path) -> None:
    gt = write(tmp_path, "label.txt", PADDLE_GT + "img_3.jpg\tnot json\n")
    assert only_error(load(gt)) == (
        f"{gt}:3: error: expected 'image path<TAB>[JSON list of boxes]'"
    )
    gt = write(tmp_path, "l2.txt", 'a.jpg\t[{"points": [[1, 2]]}]\n')
    assert only_error(load(gt)).endswith("line 1: [0].points: has 1 points (at least 3 needed)")


def test_paddle3_res_json(tmp_path: Path) -> None:
    gt = write(tmp_path, "label.txt", PADDLE_GT)
    res = {"res": {"input_path": "/data/img_1.jpg", "dt_polys": [SQ], "dt_scores": [0.9]}}
    write(tmp_path, "out/img_1_res.json", res)
    write(tmp_path, "out/img_2_res.json", {"input_path": None, "dt_polys": [], "dt_scores": []})
    ds = load(gt, tmp_path / "out")
    assert ds["img_1"].det[0].confidence == 0.9
    assert ds["img_2"].det_source is not None


def coco() -> dict[str, Any]:
    return {
        "imgs": {
            "1": {"id": 1, "file_name": "COCO_train2014_000000000001.jpg", "set": "val"},
            "2": {"id": 2, "file_name": "COCO_train2014_000000000002.jpg", "set": "val"},
        },
        "anns": {
            "10": {
                "id": 10,
                "image_id": 1,
                "bbox": [10, 10, 40, 20],
                "mask": FLAT,
                "utf8_string": "café",
                "legibility": "legible",
                "language": "english",
                "class": "machine printed",
            },
            "11": {
                "id": 11,
                "image_id": 1,
                "bbox": [60.5, 10, 30, 20],
                "utf8_string": "",
                "legibility": "illegible",
                "language": "na",
                "class": "handwritten",
            },
        },
        "imgToAnns": {"1": [10, 11], "2": []},
    }


def test_cocotext_legibility_and_empty_images(tmp_path: Path) -> None:
    ds = load(write(tmp_path, "cocotext.v2.json", coco()))
    g = ds["COCO_train2014_000000000001"].gt
    assert [i.dont_care for i in g] == [False, True]
    assert g[0].text == "café" and g[0].box_type is BoxType.QUAD
    assert g[1].box_type is BoxType.LTRB and g[1].ltrb == (60.5, 10, 90.5, 30)
    assert g[1].attrs == {"legibility": "illegible", "language": "na", "class": "handwritten"}
    assert ds["COCO_train2014_000000000002"].gt == ()


def test_textocr_dot_is_dont_care(tmp_path: Path) -> None:
    data = {
        "imgs": {"a1": {"id": "a1", "file_name": "train/a1.jpg", "width": 9, "height": 9}},
        "anns": {
            "a1_1": {
                "id": "a1_1",
                "image_id": "a1",
                "bbox": [1, 1, 2, 2],
                "points": FLAT,
                "utf8_string": ".",
            }
        },
        "img2Anns": {"a1": ["a1_1", "a1_9"]},
    }
    ds = load(write(tmp_path, "TextOCR_0.1_val.json", data))
    assert ds["a1"].gt[0].dont_care
    assert "imgToAnns['a1'][1]: annotation 'a1_9' is not in anns" in only_error(ds)


def test_art_gt_and_submission(tmp_path: Path) -> None:
    gt = {
        "gt_1": [
            {"points": SQ, "transcription": "مرحبا", "language": "Arabic", "illegibility": False},
            {"points": SQ, "transcription": "###", "language": "Latin", "illegibility": True},
        ],
        "gt_2": [],
    }
    det = {"res_1": [{"points": SQ, "confidence": 0.5}], "res_2": []}
    ds = load(write(tmp_path, "train_labels.json", gt), write(tmp_path, "sub.json", det))
    g = ds["1"].gt
    assert [i.dont_care for i in g] == [False, True]
    assert g[0].attrs == {"language": "Arabic", "illegibility": False}
    assert ds["1"].det[0].confidence == 0.5 and ds["2"].det == ()


def test_rects_lines_with_ignore(tmp_path: Path) -> None:
    data = {
        "chars": [{"points": FLAT, "transcription": "a", "ignore": 0}],
        "lines": [
            {"points": FLAT, "transcription": "招牌", "ignore": 0},
            {"points": FLAT, "transcription": "###", "ignore": 1},
        ],
    }
    ds = load(write(tmp_path, "gt/train_ReCTS_000001.json", data).parent)
    g = ds["train_ReCTS_000001"].gt
    assert [i.dont_care for i in g] == [False, True] and g[0].text == "招牌"


def doctr_page() -> dict[str, Any]:
    word = {
        "value": "Hi",
        "confidence": 0.875,
        "geometry": [[0.1, 0.2], [0.5, 0.4]],
        "objectness_score": 0.5,
        "crop_orientation": {"value": 0, "confidence": None},
    }
    rotated = {
        "value": "Yo",
        "confidence": 0.5,
        "geometry": [[0.1, 0.1], [0.2, 0.1], [0.2, 0.2], [0.1, 0.2]],
    }
    return {
        "pages": [
            {
                "page_idx": 0,
                "dimensions": [100, 200],
                "orientation": {"value": None, "confidence": None},
                "language": {"value": None, "confidence": None},
                "blocks": [
                    {
                        "geometry": [[0, 0], [1, 1]],
                        "lines": [{"geometry": [[0, 0], [1, 1]], "words": [word, rotated]}],
                        "artefacts": [],
                    }
                ],
            }
        ]
    }


def test_doctr_relative_geometry_scaled_by_page(tmp_path: Path) -> None:
    gt = write(tmp_path, "gt/scan.txt", "20,20,100,40,Hi\n").parent
    ds = load(gt, write(tmp_path, "det/scan.json", doctr_page()).parent)
    d = ds["scan"].det
    assert d[0].box_type is BoxType.LTRB and d[0].ltrb == (20, 20, 100, 40)
    assert d[0].confidence == 0.875 and d[0].text == "Hi"
    assert d[0].attrs == {"objectness_score": 0.5}
    assert d[1].box_type is BoxType.QUAD and d[1].points.tolist()[2] == [40, 20]


def test_doctr_bad_dimensions_located(tmp_path: Path) -> None:
    page = doctr_page()
    page["pages"][0]["dimensions"] = [100]
    gt = write(tmp_path, "gt/scan.txt", "20,20,100,40,Hi\n").parent
    ds = load(gt, write(tmp_path, "det/scan.json", page).parent)
    assert "pages[0].dimensions: must be [height, width] in pixels" in only_error(ds)


def test_hiertext_words_paired_with_icdar_detections(tmp_path: Path) -> None:
    word = {"vertices": SQ, "legible": True, "vertical": False, "handwritten": True, "text": "a"}
    bad = {"vertices": SQ, "legible": False, "vertical": False, "text": "b"}
    line = {"vertices": SQ, "legible": True, "text": "a b", "words": [word, bad]}
    gt = {
        "annotations": [
            {
                "image_id": "img_1",
                "image_width": 99,
                "image_height": 99,
                "paragraphs": [{"vertices": SQ, "legible": True, "lines": [line]}],
            }
        ]
    }
    ds = load(write(tmp_path, "gt.json", gt), write(tmp_path, "det/res_img_1.txt", "").parent)
    g = ds["img_1"].gt
    assert [i.dont_care for i in g] == [False, True]
    assert g[0].attrs == {"legible": True, "vertical": False, "handwritten": True}
    assert ds["img_1"].hierarchy is None


def test_detlens_json_keeps_everything(tmp_path: Path) -> None:
    box = {
        "points": [[1, 2], [5, 2], [5, 6], [1, 6]],
        "box_type": "LTRB",
        "text": "x",
        "dont_care": True,
        "integer": False,
        "line": 7,
        "attrs": {"script": "Latin"},
    }
    data = {
        "format": "detlens",
        "version": 1,
        "samples": [{"id": "a", "gt": [box], "det": None}, {"id": "b", "gt": [], "det": []}],
    }
    path = write(tmp_path, "all.json", data)
    ds = load(path, path)
    g = ds["a"].gt[0]
    assert (g.box_type, g.text, g.dont_care, g.integer, g.line) == (
        BoxType.LTRB,
        "x",
        True,
        False,
        7,
    )
    assert g.attrs == {"script": "Latin"}
    assert ds["a"].det_source is None and ds["b"].det_source is not None


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"data_list": [', "1: error: not valid JSON: Expecting value (column 16)"),
        ({"format": "detlens", "samples": {}}, "samples: must be a list"),
    ],
)
def test_broken_json_says_where(tmp_path: Path, content: Any, message: str) -> None:
    path = write(tmp_path, "gt.json", content)
    fmt = "mmocr" if isinstance(content, str) else None
    with pytest.raises(InputError) as caught:
        load(path, gt_format=fmt)
    assert any(message in str(p) for p in caught.value.problems), caught.value.problems


def test_hiertext_gt_at_the_line_level(tmp_path: Path) -> None:
    word = {"vertices": SQ, "legible": True, "text": "a"}
    line_ok = {"vertices": SQ, "legible": True, "text": "a b", "words": [word]}
    line_bad = {"vertices": [[1, 1]], "legible": False, "text": "?", "words": []}
    line_blur = {"vertices": SQ, "legible": False, "handwritten": True, "text": "", "words": []}
    par = {"vertices": SQ, "legible": True, "lines": [line_ok, line_bad, line_blur]}
    gt = {
        "annotations": [
            {"image_id": "img_1", "image_width": 99, "image_height": 99, "paragraphs": [par]}
        ]
    }
    path = write(tmp_path, "gt.json", gt)
    ds = load(path, gt_format="hiertext_line")
    g = ds["img_1"].gt
    assert [(i.text, i.dont_care) for i in g] == [("a b", False), ("", True)]
    assert g[1].attrs == {"legible": False, "handwritten": True}
    assert only_error(ds).endswith(
        "annotations[0].paragraphs[0].lines[1].vertices: has 1 points (at least 3 needed)"
    )
    paragraphs = load(path, gt_format="hiertext_paragraph")["img_1"].gt
    assert len(paragraphs) == 1 and not paragraphs[0].dont_care


def test_images_paired_by_the_formats_own_names(tmp_path: Path) -> None:
    gt = write(tmp_path, "label.txt", PADDLE_GT)
    (tmp_path / "imgs").mkdir()
    (tmp_path / "imgs" / "img_1.jpg").write_bytes(b"x")
    (tmp_path / "imgs" / "notes.txt").write_text("")
    ds = load_dataset(gt, images=tmp_path / "imgs")
    assert ds["img_1"].image == str(tmp_path / "imgs" / "img_1.jpg")
    assert ds["img_2"].image is None
