"""A problem is located by file and line in text files; in JSON files, whose boxes have no
line of their own (often one line in all), by image id and the box's place (issue 26)."""

from __future__ import annotations

import json
from pathlib import Path

from metrics.core.model import Problem, Severity, locate
from metrics.io.reader import load_dataset


def test_text_files_keep_file_and_line() -> None:
    p = Problem(Severity.ERROR, "gt.zip:gt_img_1.txt", 3, "bad", "img_1")
    assert str(p) == "gt.zip:gt_img_1.txt:3: error: bad"


def test_json_boxes_are_located_by_image_and_box() -> None:
    assert locate("gt.json", 7, "img_3") == "gt.json (image img_3, box 7)"
    assert locate("gt.json", None, "img_3") == "gt.json (image img_3)"
    assert locate("p.zip:img_1.json", 2, "img_1") == "p.zip:img_1.json (image img_1, box 2)"
    # a JSON syntax error has a real line and no image: kept as it is
    assert locate("img_1.json", 1, None) == "img_1.json:1"


def test_a_hiertext_problem_names_its_image(tmp_path: Path) -> None:
    words = [{"vertices": [[1, 1], [2, 2]], "text": "a", "legible": True}]
    para = {"legible": True, "vertices": [], "lines": [{"legible": True, "words": words}]}
    ann = {"image_id": "img_9", "image_width": 50, "image_height": 50, "paragraphs": [para]}
    gt = tmp_path / "gt.json"
    gt.write_text(json.dumps({"annotations": [ann]}))  # one line, as HierText ships it
    ds = load_dataset(gt, gt)
    said = [str(p) for p in ds.problems]
    assert said and all("(image img_9" in s for s in said), said
    assert not any(f"{gt}:" in s for s in said), said
