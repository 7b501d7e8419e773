"""No figure that is not a score (issue 26, point 2): a metric that skipped images says on
how many of the set it scored, in its own row and in ``--json``; where it read fewer than
half of them it shows no recall / precision / H-mean but the first problem and the fix, and
``eval`` exits 1. A metric of a ``--metric`` list meant for other inputs that they break is
left out with the reason, and the others run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from metrics.cli.main import main
from metrics.core.model import Problem, Severity
from metrics.core.partial import Coverage
from tests.support import partial_set


def _row(out: str, metric: str) -> str:
    return next(ln for ln in out.splitlines() if ln.split(" ")[0] == metric)


def _eval(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["eval", *args])
    got = capsys.readouterr()
    return code, got.out, got.err


def test_a_metric_that_read_fewer_than_half_prints_no_score_but_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gt, det = partial_set(tmp_path, 4, ccw={1, 2, 3})
    code, out, _ = _eval(["--gt", str(gt), "--det", str(det)], capsys)
    assert code == 1
    row = _row(out, "tiou")
    assert "0." not in row and row.count("–") == 3
    assert "on 1 of 4 images: no score" in row
    assert "first problem: det.zip:res_img_1.txt:1: error: points are not clockwise" in out
    assert "fix: --set tiou.check_orientation=false" in out
    assert "0.8" in _row(out, "tedeval") or "1.0000" in _row(out, "tedeval")  # it read all
    assert "on " not in _row(out, "tedeval")


def test_a_metric_that_skipped_a_few_images_says_over_how_many_it_scored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gt, det = partial_set(tmp_path, 4, ccw={3})
    code, out, _ = _eval(["--gt", str(gt), "--det", str(det)], capsys)
    assert code == 0
    row = _row(out, "tiou")
    assert "1.0000" in row and row.rstrip().endswith("on 3 of 4 images")


def test_half_the_images_is_still_a_score(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gt, det = partial_set(tmp_path, 4, ccw={2, 3})
    code, out, _ = _eval(["--gt", str(gt), "--det", str(det)], capsys)
    assert code == 0 and "on 2 of 4 images" in _row(out, "tiou") and "1.0000" in _row(out, "tiou")


@pytest.mark.parametrize("workers", ["1", "2"])
def test_json_keeps_the_figures_marked_with_the_images_they_cover(
    workers: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Named metrics under skip_sample (each process reads its own files) and ``--metric
    all`` (the loaded set) mark their figures alike."""
    gt, det = partial_set(tmp_path, 4, ccw={1, 2, 3})
    for k, metric in enumerate(("tiou,tedeval", "all")):
        out = tmp_path / f"out{k}.json"
        args = ["--gt", str(gt), "--det", str(det), "--metric", metric, "--json", str(out)]
        code, _, _ = _eval([*args, "--policy", "skip_sample", "--workers", workers], capsys)
        assert code == 1
        docs = {d["metric"]: d for d in json.loads(out.read_text())}
        tiou = docs["tiou"]
        assert tiou["global"]["hmean"] == 1.0  # still there, for who wants it
        cov = tiou["coverage"]
        assert (cov["images"], cov["of"], cov["skipped"], cov["score"]) == (1, 4, 3, False)
        assert "fewer than half" in cov["why_no_score"] and "res_img_1.txt:1" in cov["why_no_score"]
        assert docs["tedeval"]["coverage"] == {"images": 4, "of": 4, "skipped": 0, "score": True}


def test_quiet_still_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gt, det = partial_set(tmp_path, 4, ccw={1, 2, 3})
    code, out, _ = _eval(["--gt", str(gt), "--det", str(det), "--quiet"], capsys)
    assert code == 1 and out == ""


@pytest.mark.parametrize("extra", [[], ["--instances", "inst.csv"]])
def test_a_metric_of_a_list_that_does_not_apply_is_left_out_and_the_others_run(
    extra: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch
) -> None:
    """DetEval takes LTRB only: on quads it is left out with its reason; TedEval and IoU run
    (read slice by slice, and loaded whole with ``--instances``)."""
    monkeypatch.chdir(tmp_path)
    gt, det = partial_set(tmp_path, 3)
    args = ["--gt", str(gt), "--det", str(det), "--metric", "tedeval,deteval,ic15_iou", *extra]
    code, out, err = _eval(args, capsys)
    assert code == 0
    assert "1.0000" in _row(out, "tedeval") and "1.0000" in _row(out, "ic15_iou")
    row = _row(out, "deteval")
    assert "left out: meant for" in row and "gt.zip:gt_img_0.txt:1: error: DetEval" in row
    assert "evaluated as asked" not in err


def test_a_single_named_metric_that_does_not_apply_is_still_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gt, det = partial_set(tmp_path, 3)
    code, out, err = _eval(["--gt", str(gt), "--det", str(det), "--metric", "deteval"], capsys)
    assert code == 2 and out == "" and "DetEval takes axis-aligned boxes" in err


def test_a_list_none_of_which_applies_is_refused_with_every_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gt, det = partial_set(tmp_path, 3)
    args = ["--gt", str(gt), "--det", str(det), "--metric", "deteval,hiertext_word"]
    code, out, err = _eval([*args, "--instances", str(tmp_path / "i.csv")], capsys)
    assert code == 2 and out == ""
    assert "deteval left out: meant for" in err and "hiertext_word left out: meant for" in err


def test_coverage_names_the_fix_its_first_problem_offers() -> None:
    p = Problem(Severity.ERROR, "d.zip:r.txt", 3, "bad order; set check_orientation=false to x")
    c = Coverage("tiou", 1, 4, p)
    assert (c.skipped, c.partial, c.scored) == (3, True, False)
    assert c.fix().startswith("--set tiou.check_orientation=false")
    assert "d.zip:r.txt:3" in c.reason()
    other = Coverage("tiou", 2, 4, Problem(Severity.ERROR, "f", 1, "odd count"))
    assert other.scored and "--list-metrics" in other.fix()
    assert not Coverage("tiou", 0, 0).scored
