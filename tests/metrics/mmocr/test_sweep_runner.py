"""The sweep under the runner and the CLI: ``finalize`` shows every image at the globally
best threshold with 1 or 2 workers alike, the JSON sweep, the CLI sweep table, and input
without confidences (one located error, exit 2; left out of ``--metric all``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from metrics.catalogue.registry import resolve
from metrics.cli.main import main
from metrics.core.results import SweepTally
from metrics.io.reader import load_dataset
from metrics.io.writers import write_json
from metrics.mmocr.evidence import SweepEvidence
from metrics.run.runner import run
from tests.support import write_zip

GT = {
    f"gt_img_{k}.txt": "0,0,10,0,10,10,0,10,word\n20,0,30,0,30,10,20,10,word\n"
    "40,0,50,0,50,10,40,10,###\n"
    for k in range(1, 7)
}
SCORES = [0.35, 0.95, 0.45, 0.75, 0.3, 0.9]
DET = {
    f"res_img_{k}.txt": f"0,0,10,0,10,10,0,10,{s}\n21,0,31,0,31,10,21,10,{SCORES[-k]}\n"
    "60,60,70,60,70,70,60,70,0.31\n80,80,90,80,90,90,80,90,0.33\n40,0,50,0,50,10,40,10,0.99\n"
    for k, s in enumerate(SCORES, start=1)
}
PLAIN = {name: "0,0,10,0,10,10,0,10\n" for name in (f"res_img_{k}.txt" for k in range(1, 7))}


@pytest.fixture
def paths(tmp_path: Path) -> tuple[Path, Path, Path]:
    return (
        write_zip(tmp_path / "gt.zip", GT),
        write_zip(tmp_path / "det.zip", DET),
        write_zip(tmp_path / "plain.zip", PLAIN),
    )


def test_finalize_under_one_and_two_workers_gives_identical_json(
    paths: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    ds = load_dataset(paths[0], paths[1])
    specs = [resolve("mmocr_hmean_iou"), resolve("mmocr_hmean_iou_maxmatch")]
    one, two = run(ds, specs, workers=1), run(ds, specs, workers=2)
    write_json(tmp_path / "1.json", one, evidence=True)
    write_json(tmp_path / "2.json", two, evidence=True)
    assert (tmp_path / "1.json").read_bytes() == (tmp_path / "2.json").read_bytes()
    sweep = one[0].sweep
    assert sweep is not None and sweep.best_index > 0  # the images must move
    for r in one[0].results.values():
        assert isinstance(r.evidence, SweepEvidence) and r.evidence.shown == sweep.best_index
        assert r.extra["score_threshold"] == sweep.best_threshold
        assert isinstance(r.tally, SweepTally)
        pt = r.tally.point(sweep.best_index)
        assert (r.recall, r.precision, r.hmean) == (pt.recall, pt.precision, pt.hmean)
    data = json.loads((tmp_path / "1.json").read_text())[0]
    assert data["global"]["best_threshold"] == sweep.best_threshold
    assert [p["threshold"] for p in data["global"]["sweep"]] == list(sweep.thresholds)
    assert len(data["per_image"]["img_1"]["sweep_counts"]) == 7


def test_cli_prints_the_sweep_with_the_best_marked(
    paths: tuple[Path, Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["eval", "--gt", str(paths[0]), "--det", str(paths[1]), "--metric", "mmocr"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "best of a 7-threshold sweep chosen on the evaluated set (as MMOCR reports it)" in out
    assert out.count("<- best") == 1
    assert "kept dets" in out


def test_cli_without_confidences_is_one_located_error(
    paths: tuple[Path, Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["eval", "--gt", str(paths[0]), "--det", str(paths[2]), "--metric", "mmocr_hmean_iou"]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert "plain.zip:res_img_1.txt:1" in err[0] and "no confidence" in err[0]


def test_cli_without_confidences_skip_sample_prints_no_numbers(
    paths: tuple[Path, Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["eval", "--gt", str(paths[0]), "--det", str(paths[2]), "--metric", "mmocr"]
    assert main([*argv, "--policy", "skip_sample"]) == 1  # no image scored: an error
    out = capsys.readouterr().out
    row = next(ln for ln in out.splitlines() if ln.startswith("mmocr"))
    assert "0.0000" not in row and "on 0 of 6 images: no score" in row
    assert "first problem: " in out and "no confidence" in out


def test_metric_all_says_it_is_not_offered(
    paths: tuple[Path, Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """Without scores --metric all does not run the sweep, and says so after the table."""
    argv = ["eval", "--gt", str(paths[0]), "--det", str(paths[2])]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "not offered for these inputs" in out and "mmocr_hmean_iou" in out.splitlines()[-1]
