"""``detlens eval``: demo default, JSON/CSV output, parameters, bad input without traceback,
``--workers 2`` writing the same JSON as ``--workers 1``."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from metrics import evaluate, evaluate_all
from metrics.catalogue.registry import METRICS
from metrics.cli.main import main
from metrics.io.demo import demo_paths


def test_eval_without_paths_runs_the_demo(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["eval", "--json", str(tmp_path / "o.json"), "--csv", str(tmp_path / "o.csv")]) == 0
    out = capsys.readouterr().out
    assert "12 images" in out and "tiou" in out and "ic15_iou" in out
    data = json.loads((tmp_path / "o.json").read_text())
    assert isinstance(data, list)
    assert {d["metric"] for d in data} >= {"ic15_iou", "siou", "tiou"}
    first = data[0]
    assert set(first) >= {"metric", "params", "global", "per_image"}
    assert set(first["global"]) >= {"recall", "precision", "hmean"}
    assert set(first["per_image"]) == {f"img_{k}" for k in range(1, 13)}
    rows = list(csv.DictReader((tmp_path / "o.csv").open()))
    assert rows[0]["metric"] == first["metric"] and any(r["sample"] == "*" for r in rows)


def test_single_metric_json_is_one_object(tmp_path: Path) -> None:
    demo = demo_paths()
    assert (
        main(
            [
                "eval",
                "--gt",
                str(demo.gt),
                "--det",
                str(demo.det_b),
                "--metric",
                "iou",
                "--json",
                str(tmp_path / "o.json"),
                "-q",
            ]
        )
        == 0
    )
    data = json.loads((tmp_path / "o.json").read_text())
    assert data["metric"] == "ic15_iou" and data["params"]["iou_threshold"] == 0.5


def test_set_changes_a_parameter(tmp_path: Path) -> None:
    demo = demo_paths()
    common = ["eval", "--gt", str(demo.gt), "--det", str(demo.det_b), "--metric", "tiou", "-q"]
    assert main([*common, "--json", str(tmp_path / "a.json")]) == 0
    assert (
        main(
            [
                *common,
                "--set",
                "tolerance=0",
                "--set",
                "tiou.dc_as_outlier=false",
                "--json",
                str(tmp_path / "b.json"),
            ]
        )
        == 0
    )
    a = json.loads((tmp_path / "a.json").read_text())
    b = json.loads((tmp_path / "b.json").read_text())
    assert b["params"]["tolerance"] == 0.0 and b["params"]["dc_as_outlier"] is False
    assert b["global"]["recall"] <= a["global"]["recall"]


def test_python_api_matches_cli() -> None:
    demo = demo_paths()
    ev = evaluate(demo.gt, demo.det_a, metric="tiou", tolerance=0.0)
    assert ev.metric == "tiou" and ev.params.tolerance == 0.0
    assert 0.0 < ev.hmean < 1.0
    evs = evaluate_all(demo.gt, demo.det_a)
    assert isinstance(evs, list) and len(evs) >= 3


def test_evaluate_returns_one_evaluation_and_sends_all_to_evaluate_all() -> None:
    demo = demo_paths()
    with pytest.raises(ValueError, match="evaluate_all"):
        evaluate(demo.gt, demo.det_a, metric="all")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--metric", "nope"], "unknown metric"),
        (["--set", "nope=1", "--metric", "iou"], "no selected metric has a parameter"),
        (["--set", "tolerance", "--metric", "tiou"], "KEY=VALUE"),
        (["--metric", "wordline_tiou"], "--gt-lines"),
    ],
)
def test_user_errors_are_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    demo = demo_paths()
    code = main(["eval", "--gt", str(demo.gt), "--det", str(demo.det_a), *argv])
    err = capsys.readouterr().err
    assert code == 2 and message in err and "Traceback" not in err


def test_bad_file_refuses_with_file_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gt = tmp_path / "gt.zip"
    with zipfile.ZipFile(gt, "w") as zf:
        zf.writestr("gt_img_1.txt", "0,0,10,0,10,10,0,10,A\n")
        zf.writestr("gt_img_2.txt", "0,0,10,0,10,10,0,10,B\n0,0,10,oops\n")
    det = tmp_path / "det.zip"
    with zipfile.ZipFile(det, "w") as zf:
        zf.writestr("res_img_1.txt", "0,0,10,0,10,10,0,10\n")
        zf.writestr("res_img_2.txt", "0,0,10,0,10,10,0,10\n")
    code = main(["eval", "--gt", str(gt), "--det", str(det), "--metric", "iou"])
    err = capsys.readouterr().err
    assert code == 2 and "gt.zip:gt_img_2.txt:2" in err
    out = tmp_path / "o.json"
    assert (
        main(
            [
                "eval",
                "--gt",
                str(gt),
                "--det",
                str(det),
                "--metric",
                "iou",
                "--policy",
                "skip_sample",
                "--json",
                str(out),
                "-q",
            ]
        )
        == 0
    )
    data = json.loads(out.read_text())
    assert data["excluded"] == ["img_2"] and list(data["per_image"]) == ["img_1"]


def test_missing_file_exit_code(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "--gt", "/nonexistent/gt.zip", "--det", "/nonexistent/d.zip"]) == 2
    assert "no such file" in capsys.readouterr().err


def test_console_script_runs() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "metrics.cli.main", "eval", "--metric", "iou"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "ic15_iou" in proc.stdout


def test_evidence_is_written_when_asked(tmp_path: Path) -> None:
    demo = demo_paths()
    out = tmp_path / "e.json"
    argv = ["eval", "--gt", str(demo.gt), "--det", str(demo.det_a), "--metric", "tiou"]
    assert main([*argv, "--json", str(out), "--evidence", "-q"]) == 0
    sample = json.loads(out.read_text())["per_image"]["img_4"]
    ev = sample["evidence"]
    cropped = next(m for m in ev["matches"] if m["values"]["ct"] > 0)
    assert cropped["regions"]["cut"] and cropped["values"]["f_ct"] < 1
    assert {g["verdict"] for g in ev["gt"]} >= {"matched", "partial"}
    assert main([*argv, "--json", str(out), "-q"]) == 0
    assert "evidence" not in json.loads(out.read_text())["per_image"]["img_4"]


def test_all_skips_only_the_samples_a_metric_cannot_read(
    capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    demo = demo_paths()
    out = tmp_path / "all.json"
    assert (
        main(["eval", "--gt", str(demo.gt), "--det", str(demo.det_b), "--json", str(out), "-q"])
        == 0
    )
    by_metric = {d["metric"]: d for d in json.loads(out.read_text())}
    assert by_metric["tedeval"]["excluded"] == ["img_8"]  # the curved polygon
    assert "img_8" in by_metric["cleval_det"]["per_image"]
    assert {"cleval_e2e", "cleval_legacy_e2e"} <= set(by_metric)  # dets carry text
    assert "tedeval: 1 image(s) skipped" in caplog.text
    strict = main(
        ["eval", "--gt", str(demo.gt), "--det", str(demo.det_b), "--metric", "tedeval", "-q"]
    )
    assert strict == 2 and "gt_img_8.txt:1" in capsys.readouterr().err


@pytest.mark.parametrize("det", ["det_a", "det_b"])
def test_two_workers_write_the_same_json(det: str, tmp_path: Path) -> None:
    demo = demo_paths()
    argv = ["eval", "--gt", str(demo.gt), "--det", str(getattr(demo, det)), "-q", "--evidence"]
    assert main([*argv, "--workers", "1", "--json", str(tmp_path / "1.json")]) == 0
    assert main([*argv, "--workers", "2", "--json", str(tmp_path / "2.json")]) == 0
    one, two = (tmp_path / "1.json").read_bytes(), (tmp_path / "2.json").read_bytes()
    assert len(json.loads(one)) >= 8 and one == two


def test_list_metrics_names_every_metric_with_its_source(capsys) -> None:
    assert main(["eval", "--list-metrics"]) == 0
    out = capsys.readouterr().out
    for mid in METRICS:
        assert f"\n{mid}" in f"\n{out}", mid
    assert out.count("Reproduces ") == len(METRICS)  # every metric has its line


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--json", "{tmp}"], "is a folder"),
        (["--json", "{tmp}/missing/out.json"], "does not exist"),
        (["--csv", "{tmp}/file.txt/out.csv"], "is not a folder"),
        (["--set", "tolerance=abc"], "tolerance=abc: expected a number, got 'abc'"),
    ],
)
def test_output_and_parameter_mistakes_stop_before_evaluating(
    tmp_path: Path, capsys, extra: list[str], message: str
) -> None:
    (tmp_path / "file.txt").write_text("x")
    argv = ["eval", "--metric", "tiou", *(e.format(tmp=tmp_path) for e in extra)]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0], err


def test_explicit_metric_for_other_data_is_run_with_a_warning(caplog) -> None:
    """ctw1500_eval on the demo (quads with don't care): evaluated as asked, but said."""
    assert main(["eval", "--metric", "ctw1500_eval", "--quiet"]) == 0
    assert main(["eval", "--metric", "ctw1500_eval"]) == 0
    assert "ctw1500_eval is meant for SCUT-CTW1500's own protocol" in caplog.text


def test_an_input_is_never_overwritten(tmp_path: Path, capsys) -> None:
    """--json / --csv at an input file (or into an input folder) is refused before anything
    runs, and the input is untouched (eval and compare)."""
    demo = demo_paths()
    gt = tmp_path / "gt.zip"
    with zipfile.ZipFile(gt, "w") as zf:
        for f in sorted(Path(demo.gt).iterdir()):
            zf.write(f, f.name)
    before = gt.read_bytes()
    det = str(demo.det_a)
    for argv in (
        ["eval", "--gt", str(gt), "--det", det, "--json", str(gt)],
        ["eval", "--gt", str(gt), "--det", det, "--csv", str(Path(det) / "x.csv")],
        ["compare", "--gt", str(gt), "--det", det, "--det", str(demo.det_b), "--json", str(gt)],
    ):
        assert main(argv) == 2, argv
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "never writes its inputs" in err[0], err
    assert gt.read_bytes() == before
    assert not (Path(det) / "x.csv").exists()


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        ([], "--det missing: nothing to evaluate"),
        (["--det", "DET", "--workers", "0"], "--workers: 0: give 1 to 64"),
        (["--det", "DET", "--workers", "2000"], "--workers: 2000: give 1 to 64"),
        (["--det", "DET", "--bogus"], "unrecognized arguments: --bogus (see detlens --help)"),
        (["--det", "DET", "--box-type", "xml"], "argument --box-type: invalid choice"),
        (["--det", "DET", "--metric", ""], "--metric is empty"),
        (["--det", "DET", "--sweep-points", "5"], "--sweep-points goes with --sweep"),
        (["--det", "DET", "--evidence"], "--evidence goes with --json"),
        (["--det", "DET", "--images", "/no/such"], "--images /no/such: not a folder"),
        (["--det", "DET", "--metric", " , "], "--metric is empty"),
        (["--det", "DET", "--json", "/tmp/x.json", "--csv", "/tmp/x.json"], "two outputs"),
        (["--det", "DET", "--csv", "x.csv", "--instances", "./x.csv"], "two outputs"),
    ],
)
def test_option_mistakes_are_one_line(
    capsys: pytest.CaptureFixture[str], extra: list[str], said: str
) -> None:
    demo = demo_paths()
    swap = {"GT": str(demo.gt), "DET": str(demo.det_b)}
    argv = ["eval", "--gt", str(demo.gt), *(swap.get(x, x) for x in extra)]
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's own mistakes: one line too
        code = int(exc.code or 0)
    assert code == 2
    err = capsys.readouterr().err
    assert said in err and len(err.strip().splitlines()) == 1, err


def test_the_gt_given_as_detections(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A sanity check (the GT scores itself 1.0) works, also for a GT whose transcriptions
    are numbers (154 is no confidence, so the set's trailing fields are text: issue 26)."""
    demo = demo_paths()
    assert main(["eval", "--gt", str(demo.gt), "--det", str(demo.gt), "--metric", "ic15_iou"]) == 0
    gt = tmp_path / "gt"
    gt.mkdir()
    (gt / "gt_img_1.txt").write_text("0,0,10,0,10,10,0,10,154\n0,20,10,20,10,30,0,30,2015\n")
    capsys.readouterr()
    assert main(["eval", "--gt", str(gt), "--det", str(gt), "--metric", "ic15_iou"]) == 0
    assert "ic15_iou             1.0000     1.0000   1.0000" in capsys.readouterr().out


def test_skip_sample_names_what_it_skipped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--policy skip_sample`` says which files made it skip an image (file:line: error:),
    and which detection file it ignored, not only "2 images skipped"."""
    import shutil

    demo = demo_paths()
    det = tmp_path / "det"
    shutil.copytree(demo.det_b, det)
    first = sorted(det.iterdir())[0]
    first.write_text(first.read_text() + "1,2,3\n")
    (det / "res_img_999.txt").write_text("0,0,10,0,10,10,0,10\n")
    argv = ["eval", "--gt", str(demo.gt), "--det", str(det), "--metric", "tiou"]
    assert main([*argv, "--policy", "skip_sample"]) == 0
    out, err = capsys.readouterr()
    n = len(first.read_text().splitlines())
    assert f"{first.name}:{n}: error: " in err
    assert "res_img_999.txt: error: detection file matches no GT file" in err
    assert "on 11 of 12 images" in out  # in the row: the figure is over 11 images


def test_swapped_gt_and_det_are_said_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--gt naming res_*.txt files and --det gt_*.txt ones: the refusal's first line says
    they look swapped, before the transcriptions read as confidences (in one process and
    with workers)."""
    from tests.support import write_dir

    gt = write_dir(tmp_path / "g", {"res_img_1.txt": "0,0,10,0,10,10,0,10,0.9\n"})
    det = write_dir(tmp_path / "d", {"gt_img_1.txt": "0,0,10,0,10,10,0,10,154\n"})
    for workers in ("1", "2"):
        argv = ["eval", "--gt", str(gt), "--det", str(det), "--metric", "tiou"]
        assert main([*argv, "--workers", workers]) == 2
        err = capsys.readouterr().err
        assert "first: " in err and "--gt and --det look swapped" in err.splitlines()[0], err


def test_the_demo_says_each_problem_once(
    capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    """``--metric all`` notes the images TedEval skips with the first problem; the listing
    of problems after it does not say that problem again."""
    assert main(["eval"]) == 0
    err = caplog.text + capsys.readouterr().err  # the notes are logged, the listing printed
    problem = "gt_img_8.txt:1: error: TedEval reads QUAD (8 numbers) or LTRB (4 numbers)"
    assert err.count(problem) == 1, err
    assert "tedeval: 1 image(s) skipped, first problem: " in err


@pytest.mark.parametrize("command", ["eval", "compare"])
def test_a_reader_that_leaves_does_not_lose_the_outputs(command: str, tmp_path: Path) -> None:
    """``detlens eval --json OUT | head -1``: once the pipe's reader has gone, what is still
    to be printed is dropped and the outputs are written (before: "[Errno 32] Broken
    pipe", exit 2, no file)."""
    out = tmp_path / ("o.json" if command == "eval" else "o.csv")
    args = [command, "--json", str(out)] if command == "eval" else [command, "--csv", str(out)]
    child = subprocess.Popen(
        [sys.executable, "-m", "metrics.cli", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
    )
    assert child.stdout is not None and child.stderr is not None
    child.stdout.close()  # the reader leaves before the first line
    err = child.stderr.read().decode()
    assert child.wait(timeout=120) == 0, err
    assert "Broken pipe" not in err and "Exception ignored" not in err
    assert out.stat().st_size > 0
