"""Issue 30, points 3 and 8: every input file goes through the size cap before it is read,
numeric options have upper bounds, parameter choices and thresholds are checked when set."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from metrics.cli.main import main
from metrics.io.demo import demo_paths

BIG = 2 * 1024 * 1024  # 2 MB, above a 1 MB cap


def _exit(argv: list[str]) -> int:
    try:
        return main(argv)
    except SystemExit as exc:  # argparse
        return int(str(exc.code))


@pytest.mark.parametrize("name", ["det.txt", "det.json", "hier.json", "det.gt", "noext"])
def test_a_file_given_directly_is_capped_before_it_is_read(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    name: str,
) -> None:
    monkeypatch.setenv("DETLENS_MAX_FILE_MB", "1")
    big = tmp_path / name
    head = '{"annotations": [' if name == "hier.json" else "["
    big.write_text(head + " " * BIG)
    code = _exit(["eval", "--gt", str(demo_paths().gt), "--det", str(big), "--metric", "iou"])
    err = capsys.readouterr().err
    assert code == 2 and name in err and "limit" in err, err


def test_a_hiertext_gt_given_directly_is_capped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DETLENS_MAX_FILE_MB", "1")
    big = tmp_path / "gt.json"
    big.write_text(json.dumps({"annotations": []}) + " " * BIG)
    assert _exit(["check", "--gt", str(big)]) == 2
    assert "limit" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv",
    [
        ["eval", "--workers", "2000"],
        ["eval", "--workers", "1" + "0" * 5000],
        ["eval", "--sweep", "--sweep-points", "100000000"],
        ["compare", "--resamples", "100000000"],
        ["compare", "--resamples", "-1"],
        ["compare", "--seed", "-1"],
        ["compare", "--top", "10000000000"],
        ["check", "--show", "-1"],
        ["check", "--show", "10000000000"],
    ],
)
def test_numeric_options_have_bounds(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert _exit(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "give" in err[0], err


@pytest.mark.parametrize(
    ("item", "said"),
    [
        ("wordline_iou.membership_op=zzz", "membership_op must be one of"),
        ("wordline_tiou.coverage_op=<", "coverage_op must be one of"),
        ("wordline_iou.skip_word=all", "skip_word must be one of"),
        ("score_threshold=2", "from 0 to 1"),
        ("score_threshold=-1", "from 0 to 1"),
    ],
)
def test_parameter_values_are_refused_when_set(
    item: str, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    metric, dot, _ = item.partition("=")[0].rpartition(".")
    demo = demo_paths()  # a metric's --set is refused unless it runs: the wordline ones, here
    lines = ["--gt", str(demo.gt), "--det", str(demo.det_b), "--gt-lines", str(demo.gt)]
    argv = ["eval", "--metric", f"iou,{metric}", *lines] if dot else ["eval", "--metric", "iou"]
    assert _exit([*argv, "--set", item]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and said in err[0], err
