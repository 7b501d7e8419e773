"""Wrong inputs named before any number: a GT set given as detections, an image folder that
does not fit the GT; in ``detlens check`` and in ``detlens eval`` (the shared load path)."""

from __future__ import annotations

from pathlib import Path

import pytest

from metrics.check import Level, check_dataset
from metrics.cli.main import main
from metrics.io.reader import load_dataset

QUADS = [
    "10,10,110,10,110,40,10,40,hello",
    "200,100,320,100,320,140,200,140,world",
    "400,300,460,300,460,320,400,320,###",
]
OTHER = [  # the GT of other images: boxes elsewhere
    "600,500,700,500,700,530,600,530,other",
    "50,400,90,400,90,420,50,420,###",
]


def _set(folder: Path, prefix: str, files: dict[int, list[str]]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for k, lines in files.items():
        (folder / f"{prefix}img_{k}.txt").write_text("\n".join(lines) + "\n")
    return folder


def _findings(gt: Path, det: Path, code: str) -> list:  # type: ignore[type-arg]
    return [f for f in check_dataset(load_dataset(gt, det), with_metrics=False) if f.code == code]


def test_another_gt_set_as_detections_is_an_error_of_check(tmp_path: Path) -> None:
    gt = _set(tmp_path / "gt", "gt_", {1: QUADS, 2: QUADS})
    other = _set(tmp_path / "other", "gt_", {1: OTHER, 2: OTHER})
    (f,) = _findings(gt, other, "det_is_gt")
    assert f.level is Level.ERROR and f.source == str(other)
    assert "--det looks like a GT set: its files are named gt_*.txt and 2 of its lines" in f.message
    assert "box-match rate with this GT is 0.00" in f.message


def test_the_gt_itself_as_detections_is_a_warning(tmp_path: Path) -> None:
    gt = _set(tmp_path / "gt", "gt_", {1: QUADS})
    (f,) = _findings(gt, gt, "det_is_gt")
    assert f.level is Level.WARNING and "box-match rate with this GT is 1.00" in f.message


def test_don_t_care_lines_alone_say_it(tmp_path: Path) -> None:
    gt = _set(tmp_path / "gt", "gt_", {1: QUADS})
    det = _set(tmp_path / "det", "res_", {1: OTHER})
    (f,) = _findings(gt, det, "det_is_gt")
    assert "1 of its lines are ### (don't care)" in f.message and "named" not in f.message


def test_detections_are_not_a_gt_set(tmp_path: Path) -> None:
    gt = _set(tmp_path / "gt", "gt_", {1: QUADS})
    det = _set(tmp_path / "det", "res_", {1: ["10,10,110,10,110,40,10,40"]})
    assert not _findings(gt, det, "det_is_gt")


@pytest.mark.parametrize("metric", [[], ["--metric", "ic15_iou"]])  # loaded, and sharded
def test_eval_names_a_gt_set_given_as_detections_before_the_scores(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], metric: list[str]
) -> None:
    gt = _set(tmp_path / "gt", "gt_", {1: QUADS, 2: QUADS})
    other = _set(tmp_path / "other", "gt_", {1: OTHER, 2: OTHER})
    assert main(["eval", "--gt", str(gt), "--det", str(other), *metric]) == 0
    err = capsys.readouterr().err
    assert f"{other}: warning: --det looks like a GT set: its files are named gt_*.txt" in err
