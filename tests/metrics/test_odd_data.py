"""Issue 30, point 8: legal but odd data never ends in a traceback or a numpy warning:
``check`` on zero-area and one-point GT boxes, the analysis of a set with detections and no
GT box, file names with terminal escape sequences echoed as escapes."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

from metrics.analysis.buckets import ATTRIBUTES, buckets
from metrics.catalogue.registry import resolve
from metrics.check import check_dataset
from metrics.cli.main import main
from metrics.run.runner import run
from tests.metrics.io.formats_support import load, write

ICDAR_GT = {
    "zero-area": "10,10,10,10,10,10,10,10,word\n",
    "one-point": "5,5,###\n",
    "flat": "10,10,50,10,50,10,10,10,word\n",
    "ltrb-zero": "10,10,10,10,word\n",
}
ICDAR_DET = {
    "box": "10,10,50,10,50,30,10,30\n",
    "zero": "10,10,10,10,10,10,10,10\n",
    "none": "",
    "unit": "0.1,0.1,0.5,0.1,0.5,0.3,0.1,0.3\n",
}


@pytest.mark.parametrize("gt", sorted(ICDAR_GT))
@pytest.mark.parametrize("det", sorted(ICDAR_DET))
def test_check_on_degenerate_gt_boxes(tmp_path: Path, gt: str, det: str) -> None:
    for k in (1, 2):
        write(tmp_path / "gt", f"gt_img_{k}.txt", ICDAR_GT[gt])
        write(tmp_path / "det", f"res_img_{k}.txt", ICDAR_DET[det])
    ds = load(tmp_path / "gt", tmp_path / "det")
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)  # a numpy warning fails the test
        check_dataset(ds)


@pytest.mark.parametrize(
    "points", [[[5, 5]], [[1, 1], [1, 1], [1, 1], [1, 1]], [[1, 1], [5, 5]]], ids=str
)
def test_check_on_degenerate_json_gt(tmp_path: Path, points: list[list[int]]) -> None:
    box = {"points": points, "box_type": "POLY"}
    det = {"points": [[10, 10], [50, 10], [50, 30], [10, 30]], "box_type": "QUAD"}
    doc = {"format": "detlens", "version": 1, "samples": [{"id": "a", "gt": [box], "det": [det]}]}
    path = write(tmp_path, "d.json", doc)
    ds = load(path, path)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        check_dataset(ds)


def test_check_cli_prints_no_numpy_warning(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    write(tmp_path / "gt", "gt_img_1.txt", "5,5,###\n")
    write(tmp_path / "det", "res_img_1.txt", ICDAR_DET["box"])
    assert main(["check", "--gt", str(tmp_path / "gt"), "--det", str(tmp_path / "det")]) in (0, 1)
    err = capfd.readouterr().err
    assert "Warning" not in err and "Traceback" not in err, err


@pytest.mark.parametrize("attr", ATTRIBUTES)
def test_buckets_of_a_set_with_detections_and_no_gt(tmp_path: Path, attr: str) -> None:
    for k in (1, 2):
        write(tmp_path / "gt", f"gt_img_{k}.txt", "")
        write(tmp_path / "det", f"res_img_{k}.txt", "10,10,50,10,50,30,10,30,0.9\n")
    ds = load(tmp_path / "gt", tmp_path / "det")
    spec = resolve("iou")
    ev = run(ds, [spec], {})[0]
    got = buckets(ds, ev, attr, spec)
    assert sum(b.n_det for b in got) in (0, 2)


def test_escape_sequences_in_file_names_are_echoed_as_escapes(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    write(tmp_path / "gt", "gt_img_1.txt", "10,10,50,10,50,30,10,30,a\n")
    write(tmp_path / "gt", "gt_\x1b]0;pwned\x07.txt", "1,2\n")
    write(tmp_path / "det", "res_img_1\x1b[2J\x1b[31m.txt", "10,10,50,10,50,30,10,30\n")
    for cmd in ("eval", "check"):
        main([cmd, "--gt", str(tmp_path / "gt"), "--det", str(tmp_path / "det")])
        out = capfd.readouterr()
        text = out.out + out.err
        assert "\x1b" not in text and "\x07" not in text, text
        assert "\\x1b" in text


def test_json_ids_with_escapes_are_echoed_as_escapes(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    box = {"points": [[5, 5]], "box_type": "POLY"}
    doc = {"format": "detlens", "version": 1, "samples": [{"id": "a\x1b[2J", "gt": [box]}]}
    path = write(tmp_path, "d.json", json.dumps(doc))
    main(["eval", "--gt", str(path), "--det", str(path)])
    out = capfd.readouterr()
    assert "\x1b" not in out.out + out.err
