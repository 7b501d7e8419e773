"""``detlens check`` on the command line: exit codes, grouping, --json, the demo."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from metrics.cli.main import main
from tests.support import shared_path, skip_reason


def test_demo_reports_nothing_but_what_it_shows(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check"]) == 0
    out = capsys.readouterr().out
    assert "0 error(s), 0 warning(s)" in out
    assert "[demo: img_8's curved GT" in out


def test_warnings_exit_1_and_json_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "gt").mkdir()
    lines = [f"0,0,10,10,10,0,0,10,t{k}" for k in range(8)]
    (tmp_path / "gt" / "gt_img_1.txt").write_text("\n".join(lines) + "\n")
    out_json = tmp_path / "check.json"
    code = main(["check", "--gt", str(tmp_path / "gt"), "--json", str(out_json), "--show", "2"])
    assert code == 1
    text = capsys.readouterr().out
    assert "warning bow_tie: 8" in text and "... and 6 more" in text
    data = json.loads(out_json.read_text())
    ties = [f for f in data["findings"] if f["code"] == "bow_tie"]
    assert [f["line"] for f in ties] == list(range(1, 9))
    assert ties[0]["instance"] == 1 and ties[0]["points"] == [[5.0, 5.0]]


def test_option_mistakes_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--gt", str(tmp_path / "missing")]) == 2
    assert main(["check", "--det", str(tmp_path)]) == 2
    gt = tmp_path / "gt_img_1.txt"
    gt.write_text("0,0,10,0,10,10,0,10,a\n")
    assert main(["check", "--gt", str(gt), "--json", str(gt)]) == 2
    with pytest.raises(SystemExit) as exc:  # argparse: --show takes 0 to 1,000,000
        main(["check", "--gt", str(gt), "--show", "-1"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.count("detlens: error:") == 3 and "Traceback" not in err
    assert "detlens check: error: argument --show: -1: give 0" in err
    assert gt.read_text() == "0,0,10,0,10,10,0,10,a\n"


def test_totaltext_read_as_quad_reports_swallowed_coordinates(
    capsys: pytest.CaptureFixture[str],
) -> None:
    gt = shared_path("data", "totaltext", "gt.zip")
    if not gt.exists():
        pytest.skip(skip_reason(gt))
    assert main(["check", "--gt", str(gt), "--box-type", "QUAD"]) == 1
    out = capsys.readouterr().out
    assert "error swallowed_coords: " in out
    assert "gt_img1.txt:1: error: transcription '620,926" in out


def test_images_that_are_not_a_folder_is_an_option_mistake(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gt = tmp_path / "gt_img_1.txt"
    gt.write_text("0,0,10,0,10,10,0,10,a\n")
    assert main(["check", "--gt", str(gt), "--images", str(gt)]) == 2
    assert "not a folder" in capsys.readouterr().err


def test_every_shared_dataset_is_checked_without_error(capsys: pytest.CaptureFixture[str]) -> None:
    pairs = [
        ("ic15/gt.zip", "ic15/det_pixellink.zip", 0),
        ("ic13/gt.zip", None, 0),
        ("ctw1500/gt.zip", "ctw1500/det.zip", 0),
        ("totaltext/gt.zip", "totaltext/det_baseline.zip", 1),
    ]
    for gt, det, expect in pairs:
        path = shared_path("data", gt)
        if not path.exists():
            pytest.skip(skip_reason(path))
        argv = ["check", "--gt", str(path), "--show", "1"]
        argv += ["--det", str(shared_path("data", det))] if det else []
        assert main(argv) == expect, gt
        assert "Traceback" not in capsys.readouterr().err
