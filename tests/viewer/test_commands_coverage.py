"""``export``, ``report`` and ``compare`` say what they could not evaluate: a word +
text-line metric without ``--gt-lines`` is an option mistake (exit 2, one line, as ``eval``),
skipped images are named with the first reason, and a metric that evaluates no image refuses
the command instead of writing pictures or a report of nothing."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from metrics.cli.main import main
from tests.support import write_zip

QUADS = "0,0,40,0,40,20,0,20,abc\n60,0,99,0,99,20,60,20,de\n"
LINE = "0,0,99,0,99,20,0,20,abc de\n"


def _set(tmp_path: Path, bad_det: bool = False) -> dict[str, str]:
    gt = {f"gt_img_{k}.txt": QUADS for k in range(3)}
    det = {f"res_img_{k}.txt": "1,0,41,0,41,21,1,21\n" for k in range(3)}
    if bad_det:
        det["res_img_1.txt"] = "1,0,41\n"  # too few coordinates
    return {
        "gt": str(write_zip(tmp_path / "gt.zip", gt)),
        "det": str(write_zip(tmp_path / "det.zip", det)),
        "lines": str(write_zip(tmp_path / "lines.zip", dict.fromkeys(gt, LINE))),
    }


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(args)
    return code, capsys.readouterr().err.strip()


@pytest.mark.parametrize("command", ["export", "report", "compare"])
def test_a_text_line_metric_needs_the_text_lines(
    command: str, qtbot, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    s = _set(tmp_path)
    args = [command, "--gt", s["gt"], "--det", s["det"], "--metric", "wordline_iou"]
    if command == "compare":
        args += ["--det", s["det"], "--resamples", "0"]
    else:
        args += ["--out", str(tmp_path / "out")]
    code, err = _run(args, capsys)
    assert code == 2 and err.count("\n") == 0
    assert "wordline_iou needs the text-line GT: add --gt-lines PATH" in err
    assert not (tmp_path / "out").exists()
    assert main([*args, "--gt-lines", s["lines"]]) == 0


def test_export_refuses_a_metric_that_evaluates_no_image(
    qtbot, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    s = _set(tmp_path)
    out = tmp_path / "out"
    args = ["export", "--gt", s["gt"], "--det", s["det"], "--metric", "deteval", "--out", str(out)]
    code, err = _run(args, capsys)
    assert code == 2 and err.count("\n") == 0, err
    assert "nothing evaluated: deteval on det: 3 of 3 images skipped; first: " in err
    assert "gt.zip:gt_img_0.txt:1" in err and not out.exists()


def test_export_names_the_images_it_skipped(
    qtbot, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    s = _set(tmp_path, bad_det=True)
    out = tmp_path / "out"
    args = ["export", "--gt", s["gt"], "--det", s["det"], "--metric", "tiou", "--out", str(out)]
    code, err = _run(args, capsys)
    assert code == 0 and (out / "index.html").exists()
    assert "warning: tiou on det: 1 of 3 images skipped; first: det.zip:res_img_1.txt:1" in err


def test_report_says_which_named_metrics_it_left_out(
    qtbot, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    s = _set(tmp_path)
    base = ["report", "--gt", s["gt"], "--det", s["det"], "--metric", "deteval"]
    code, err = _run([*base, "--out", str(tmp_path / "a")], capsys)
    assert code == 2 and err.count("\n") == 0, err
    assert err.startswith("detlens: error: nothing to report: deteval does not read these inputs:")
    assert "(9 lines on 3 of 3 images, 6 saying this, first gt.zip:gt_img_0.txt:1)" in err
    assert err.endswith(
        "choose a metric that reads them (detlens eval --list-metrics, detlens check)"
    )
    assert not (tmp_path / "a").exists()
    code, err = _run([*base, "--metric", "tiou", "--out", str(tmp_path / "b")], capsys)
    assert code == 0 and "warning: deteval left out: " in err
    assert (tmp_path / "b" / "report.json").exists()


def test_a_narrow_image_is_exported_in_a_panel_wide_enough_for_its_header(
    qtbot, tmp_path: Path
) -> None:
    """The set's boxes span 139 px: each panel is MIN_PANEL_PX wide, the boxes centred, so
    the header's scores and the legend are not cut."""
    from PySide6.QtGui import QImage

    from viewer.export.render import MIN_PANEL_PX

    s = _set(tmp_path)
    out = tmp_path / "out"
    args = ["export", "--gt", s["gt"], "--det", s["det"], "--det", s["det"], "--out", str(out)]
    assert main([*args, "--samples", "img_0"]) == 0
    img = QImage(str(out / "img_0.png"))
    assert img.width() == 2 * MIN_PANEL_PX


# 8-point polygons in the ICDAR order (clockwise as drawn, y down), which curved TIoU refuses
POLY = "0,0,10,0,20,0,30,0,30,20,20,20,10,20,0,20\n"
POLY_B = "5,0,15,0,25,0,35,0,35,20,25,20,15,20,5,20\n"


def _polygons(tmp_path: Path) -> tuple[str, str, str]:
    gt = {f"gt_img_{k}.txt": POLY.rstrip() + ",word\n" for k in range(3)}
    a = {f"res_img_{k}.txt": POLY for k in range(3)}
    b = {f"res_img_{k}.txt": POLY_B for k in range(3)}
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    return (
        str(write_zip(tmp_path / "gt.zip", gt)),
        str(write_zip(tmp_path / "a" / "det.zip", a)),
        str(write_zip(tmp_path / "b" / "det.zip", b)),
    )


@pytest.mark.parametrize("command", ["export", "report", "compare"])
def test_without_a_metric_polygons_get_curved_tiou_as_in_the_viewer(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], qtbot
) -> None:
    """No --metric on polygon data: the metric the viewer shows first (curved TIoU, with the
    auto_orient its defaults need on ICDAR-ordered polygons), not TIoU on quads (which
    refused every polygon, or skipped images)."""
    import json

    from metrics.catalogue.registry import default_metric
    from metrics.io.demo import demo_paths
    from metrics.io.reader import load_dataset

    gt, a, b = _polygons(tmp_path)
    assert default_metric(load_dataset(gt, a)).id == "curved_tiou"  # type: ignore[union-attr]
    demo = demo_paths()
    assert default_metric(load_dataset(demo.gt, demo.det_b)).id == "tiou"  # type: ignore[union-attr]
    out = tmp_path / "out"
    args = {
        "export": ["export", "--gt", gt, "--det", a, "--out", str(out)],
        "report": ["report", "--gt", gt, "--det", a, "--out", str(out)],
        "compare": ["compare", "--gt", gt, "--det", a, "--det", b, "--resamples", "0"],
    }[command]
    code = main(args)
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "error" not in captured.err and "skipped" not in captured.err, captured.err
    said = "evaluated with auto_orient=true: its defaults refuse these inputs"  # as eval says
    if command != "compare":  # on stderr too, once (compare: in its head line)
        assert captured.err.count("auto_orient") == 1, captured.err
        assert f"warning: curved_tiou: {said}\n" in captured.err
    if command == "compare":
        assert f"compare curved_tiou ({said}): A = det, B = det'" in captured.out
        assert "1.0000" in captured.out  # A is the GT itself
    elif command == "export":
        state = json.loads(next(out.glob("*.json")).read_text())
        assert state["metric"] == "curved_tiou" and state["params"]["auto_orient"] is True
    else:
        assert "curved_tiou" in (out / "report.json").read_text()
        page = (out / "index.html").read_text(encoding="utf-8")
        section = page[page.index("<section><h2>curved_tiou</h2>") :]
        assert section.index(f"curved_tiou {said}.") < section.index("<table")  # by its heading


@pytest.mark.parametrize("command", ["export", "report", "gallery"])
def test_the_fallback_and_skipped_images_are_each_said_once(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], qtbot
) -> None:
    """On ICDAR-ordered polygons with one bow-tie GT: the fallback once, the skipped image
    once (gallery said it twice: its plan's note, then each detector's)."""
    gt, a, _ = _polygons(tmp_path)
    with zipfile.ZipFile(gt) as zf:
        files: dict[str, str | bytes] = {n: zf.read(n) for n in zf.namelist()}
    files["gt_img_1.txt"] = "0,0,30,20,30,0,0,20,word\n"  # self-intersecting: skipped
    bad = str(write_zip(tmp_path / "bad.zip", files))
    code = main([command, "--gt", bad, "--det", a, "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err.splitlines()
    assert code == 0, err
    assert [x.split(":")[1] for x in err if x.startswith("warning:")] == [
        " curved_tiou",
        " curved_tiou on det",
    ], err
    assert "evaluated with auto_orient=true" in err[0]
    assert "1 of 3 images skipped; first: bad.zip:gt_img_1.txt:1" in err[1]


@pytest.mark.parametrize("command", ["export", "report", "gallery", "compare"])
def test_policy_is_one_option_with_each_commands_default(
    command: str, qtbot, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The picture-making commands skip a bad image by default and say so; ``--policy
    strict`` makes them refuse the set as ``eval`` does (one line naming file and line).
    ``compare`` refuses by default, as ``eval``, and skips with ``--policy skip_sample``."""
    s = _set(tmp_path, bad_det=True)
    out = tmp_path / "out"
    args = [command, "--gt", s["gt"], "--det", s["det"], "--metric", "tiou", "--workers", "2"]
    if command == "compare":
        args += ["--det", s["det"], "--resamples", "0"]
    else:
        args += ["--out", str(out)]
    strict, lenient = (
        ([], ["--policy", "skip_sample"]) if command == "compare" else (["--policy", "strict"], [])
    )
    code, err = _run([*args, *strict], capsys)
    assert code == 2 and err.count("\n") == 0, err
    assert "det.zip:res_img_1.txt:1" in err and "policy strict" in err
    assert not out.exists()
    code = main([*args, *lenient])
    said = capsys.readouterr()  # compare says it in its table's head, the others as warnings
    assert code == 0, said.err
    assert "res_img_1.txt:1" in (said.out if command == "compare" else said.err)


@pytest.mark.parametrize("command", ["eval", "compare", "export", "report"])
def test_a_set_for_a_metric_not_run_is_refused(
    command: str, qtbot, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--set METRIC.KEY=VALUE`` for a metric the command does not run would be ignored
    without a word: every command that takes ``--set`` refuses it in one line."""
    s = _set(tmp_path)
    args = [command, "--gt", s["gt"], "--det", s["det"], "--metric", "tiou"]
    if command == "compare":
        args += ["--det", s["det"], "--resamples", "0"]
    elif command != "eval":
        args += ["--out", str(tmp_path / "out")]
    code, err = _run([*args, "--set", "deteval.variant=legacy"], capsys)
    assert code == 2 and err.count("\n") == 0, err
    assert (
        err == "detlens: error: --set deteval.variant: deteval is not among the metrics run (tiou)"
    )
    assert not (tmp_path / "out").exists()
