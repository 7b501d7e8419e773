"""Non-integer coordinates (``--floats``): evaluated as given in every metric and command by
default, said once per run; ``refuse`` / ``round`` / ``truncate`` as documented; values
within 1e-6 of an integer are that integer."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from metrics.cli.main import main
from metrics.core.floats import check_mode, float_note, settle
from metrics.core.model import BoxType, Instance, Sample

# Three 10 x 10 GT squares; each detection is its GT shifted right by dx. Under ICDAR15's
# IoU > 0.5: dx 3.6 as given: 64/136 = 0.47 (miss), truncated to 3: 70/130 (match),
# rounded to 4: 60/140 (miss); dx 0.4: a match in every mode; dx 3.4 as given: 66/134 =
# 0.4925 (miss), rounded or truncated to 3: a match.
SHIFTS = (3.6, 0.4, 3.4)
RECALL = {"as-given": 1 / 3, "truncate": 1.0, "round": 2 / 3}


def _square(x: float, y: float) -> list[float]:
    return [x, y, x + 10, y, x + 10, y + 10, x, y + 10]


def _line(values: list[float]) -> str:
    return ",".join(f"{v:g}" for v in values)


@pytest.fixture
def float_set(tmp_path: Path) -> tuple[Path, Path]:
    gt, det = tmp_path / "gt", tmp_path / "det"
    gt.mkdir()
    det.mkdir()
    rows = [_square(20.0 * k, 0) for k in range(len(SHIFTS))]
    (gt / "gt_img_1.txt").write_text("".join(f"{_line(r)},w{k}\n" for k, r in enumerate(rows)))
    shifted = [
        [v + dx if i % 2 == 0 else v for i, v in enumerate(r)]
        for r, dx in zip(rows, SHIFTS, strict=True)
    ]
    (det / "res_img_1.txt").write_text("".join(_line(r) + "\n" for r in shifted))
    (gt / "gt_img_2.txt").write_text(f"{_line(_square(0, 0))},x\n")
    (det / "res_img_2.txt").write_text(f"{_line(_square(0, 0))}\n")  # integers
    return gt, det


def _global(tmp_path: Path, gt: Path, det: Path, *extra: str) -> dict[str, float]:
    out = tmp_path / "o.json"
    argv = ["eval", "--gt", str(gt), "--det", str(det), "--json", str(out), "-q", *extra]
    assert main(argv) == 0
    data = json.loads(out.read_text())
    return dict(data["global"])


@pytest.mark.parametrize("mode", ["as-given", "truncate", "round"])
@pytest.mark.parametrize("metric", ["ic15_iou", "paddleocr_det_iou"])
def test_each_mode_scores_the_coordinates_it_says(
    float_set: tuple[Path, Path], tmp_path: Path, mode: str, metric: str
) -> None:
    gt, det = float_set
    got = _global(tmp_path, gt, det, "--metric", metric, "--floats", mode)
    # img_2 is one exact match on top of img_1's three GT
    assert got["recall"] == pytest.approx((RECALL[mode] * 3 + 1) / 4)


@pytest.mark.parametrize(
    "metric",
    ["ic15_iou", "siou", "tiou", "tedeval", "cleval_det", "cleval_legacy_det", "curved_tiou"],
)
def test_every_metric_evaluates_floats_without_skipping(
    float_set: tuple[Path, Path], tmp_path: Path, metric: str
) -> None:
    gt, det = float_set
    out = tmp_path / "o.json"
    argv = ["eval", "--gt", str(gt), "--det", str(det), "--metric", metric, "--json", str(out)]
    argv += ["-q", "--set", "auto_orient=true"] if metric.startswith("curved") else ["-q"]
    assert main(argv) == 0
    data = json.loads(out.read_text())
    assert set(data["per_image"]) == {"img_1", "img_2"}
    assert 0 < data["global"]["hmean"] < 1


def test_truncate_equals_the_integer_file(float_set: tuple[Path, Path], tmp_path: Path) -> None:
    gt, det = float_set
    ints = tmp_path / "ints"
    ints.mkdir()
    for f in det.iterdir():
        rows = [[float(v) for v in line.split(",")] for line in f.read_text().splitlines()]
        (ints / f.name).write_text("".join(_line([float(int(v)) for v in r]) + "\n" for r in rows))
    for metric in ("tiou", "tedeval", "cleval_det"):
        a = _global(tmp_path, gt, det, "--metric", metric, "--floats", "truncate")
        b = _global(tmp_path, gt, ints, "--metric", metric)
        assert a == b


def test_refuse_is_the_official_refusal_located(
    float_set: tuple[Path, Path],
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    gt, det = float_set
    argv = ["eval", "--gt", str(gt), "--det", str(det), "--metric", "tiou", "--floats", "refuse"]
    assert main(argv) == 2  # input errors, refused as a whole (policy strict)
    err = capsys.readouterr().err + caplog.text
    assert "res_img_1.txt:1: error: coordinates must be integers" in err


def test_the_note_is_said_once(
    float_set: tuple[Path, Path],
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    gt, det = float_set
    assert main(["eval", "--gt", str(gt), "--det", str(det), "--metric", "tiou,tedeval"]) == 0
    err = capsys.readouterr().err + caplog.text
    assert err.count("non-integer coordinates") == 1
    assert "3 of 4 detections" in err and "evaluated as given" in err


def test_compare_takes_floats_and_set(
    float_set: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gt, det = float_set
    argv = ["compare", "--gt", str(gt), "--det", str(det), "--det", str(det)]
    assert main([*argv, "--metric", "ic15_iou", "--floats", "truncate", "--resamples", "0"]) == 0
    out = capsys.readouterr().out
    assert "1.0000" in out  # truncated: every GT found
    assert main([*argv, "--metric", "ic15_iou", "--set", "iou_threshold=x"]) == 2


def _inst(points: list[list[float]], integer: bool) -> Instance:
    return Instance(np.array(points, dtype=np.float64), BoxType.QUAD, integer=integer)


def test_values_within_a_millionth_of_an_integer_are_that_integer() -> None:
    doctr = 370 / 720 * 720  # docTR's relative geometry x page size
    assert doctr != 370
    pts = [[doctr, 10.0], [20.0, 10.0], [20.0, 20.0], [10.0, 20.0]]
    s = Sample("a", (_inst(pts, False),), (_inst([[0.5, 0], [1, 0], [1, 1], [0, 1]], False),))
    got = settle([s], "as-given")[0]
    assert got.gt[0].integer and got.gt[0].points[0, 0] == 370.0
    assert not got.det[0].integer and got.det[0].points[0, 0] == 0.5
    assert settle([s], "refuse")[0] is s  # the official rule judges what was written
    whole = Sample("b", (_inst([[0, 0], [1, 0], [1, 1], [0, 1]], True),), ())
    assert settle([whole], "round")[0] is whole


def test_round_and_truncate() -> None:
    pts = [[2.5, -2.5], [3.7, -3.7], [1.2, 0.0], [0.0, 0.0]]
    s = Sample("a", (), (_inst(pts, False),))
    r = settle([s], "round")[0].det[0]
    t = settle([s], "truncate")[0].det[0]
    assert r.points.tolist() == [[3, -3], [4, -4], [1, 0], [0, 0]]
    assert t.points.tolist() == [[2, -2], [3, -3], [1, 0], [0, 0]]
    assert not r.integer  # as written: the run's note still counts it


def test_note_and_modes() -> None:
    assert float_note(0, 0, 5, "as-given") is None
    assert "rounded" in (float_note(0, 2, 5, "round") or "")
    assert "2 of 5 detections" in (float_note(0, 2, 5, "as-given") or "")
    with pytest.raises(ValueError, match="--floats"):
        check_mode("nearest")


def test_every_reading_command_has_the_same_floats_option(
    capsys: pytest.CaptureFixture[str],
) -> None:
    pytest.importorskip("PySide6")  # export, report and view are the viewer's commands
    for cmd in ("eval", "compare", "check", "convert", "export", "report", "view"):
        with pytest.raises(SystemExit):
            main([cmd, "--help"])
        text = " ".join(capsys.readouterr().out.split())
        for name in ("--floats", "--det-confidence", "--det-transcription", "--gt-format"):
            assert name in text, f"{cmd} has no {name}"
        assert "{as-given,refuse,round,truncate}" in text


def test_report_header_says_floats(float_set: tuple[Path, Path], tmp_path: Path) -> None:
    pytest.importorskip("PySide6")
    pytest.importorskip("pyqtgraph")
    gt, det = float_set
    out = tmp_path / "rep"
    argv = ["report", "--gt", str(gt), "--det", str(det), "--metric", "ic15_iou", "--out"]
    assert main([*argv, str(out), "--worst", "1"]) == 0
    page = (out / "index.html").read_text()
    assert "3 of 4 detections have non-integer coordinates: evaluated as given" in page
