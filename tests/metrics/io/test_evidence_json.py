"""``detlens eval --json --evidence`` writes the TedEval and CLEval evidence (hand-worked cases
of spec 4.7 E4 and 5.13 E4)."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

import pytest

from metrics.cli.main import main


def _zip(path: Path, name: str, text: str) -> Path:
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr(name, text)
    return path


def _evidence(tmp_path: Path, gt: str, det: str, metric: str) -> dict[str, Any]:
    g = _zip(tmp_path / "gt.zip", "gt_img_1.txt", gt)
    d = _zip(tmp_path / "det.zip", "res_img_1.txt", det)
    out = tmp_path / "out.json"
    assert (
        main(
            [
                "eval",
                "--gt",
                str(g),
                "--det",
                str(d),
                "--metric",
                metric,
                "--json",
                str(out),
                "--evidence",
                "-q",
            ]
        )
        == 0
    )
    return json.loads(out.read_text())["per_image"]["img_1"]


def test_tedeval_multiline_rejection_in_json(tmp_path: Path) -> None:
    sample = _evidence(
        tmp_path,
        "0,0,100,0,100,20,0,20,ABCDE\n0,30,100,30,100,50,0,50,FGHIJ\n",
        "0,0,100,0,100,50,0,50\n",
        "tedeval",
    )
    assert (sample["recall"], sample["precision"]) == (0.0, 0.0)
    (group,) = sample["evidence"]["evidence"]["multiline"]
    assert group["kind"] == "MO" and group["rejected"] is True
    assert group["rejecting_pair"] == [0, 1]
    assert group["pairs"][0]["angle"] == pytest.approx(59.036, abs=1e-3)
    assert sample["evidence"]["evidence"]["pcc"]["points"][0] == [
        [10.0, 10.0],
        [30.0, 10.0],
        [50.0, 10.0],
        [70.0, 10.0],
        [90.0, 10.0],
    ]


def test_cleval_overlapped_character_and_e2e_consumption_in_json(tmp_path: Path) -> None:
    gt = "0,0,100,0,100,20,0,20,ABCDE\n"
    det = "0,0,60,0,60,20,0,20,ABC\n40,0,100,0,100,20,40,20,CDE\n"
    sample = _evidence(tmp_path, gt, det, "cleval_e2e")
    ev = sample["evidence"]["evidence"]
    assert ev["pcc"]["hits"][0] == [1, 1, 2, 1, 1]  # x = 50 lies in both detections
    assert ev["pcc"]["hit_by"][0][2] == [0, 1]
    assert ev["counters"]["overlap"] == 1
    (e2e,) = ev["e2e"]
    assert e2e["dets"] == [0, 1] and e2e["text"] == "ABCCDE" and e2e["lcs"] == "ABCDE"
    assert ev["consumed"] == {"0": "ABC", "1": "DE"}
    assert (sample["recall"], sample["precision"]) == pytest.approx((0.8, 5 / 6))
