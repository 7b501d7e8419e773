"""What the strict policy says when it refuses: a metric that cannot read the set is one line
(the reason, where first, how many, the fix), never advice to skip every image; errors on
some images are listed grouped by message, and ``skip_sample`` is advised only where it
leaves a score."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from metrics.cli.listing import grouped
from metrics.cli.main import main
from metrics.core.model import Problem, Severity
from tests.metrics.run.test_refusal import failing_on
from tests.support import ht_files, ht_words_image, partial_set, write_zip


def _err(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str]]:
    code = main(args)
    return code, capsys.readouterr().err.strip().splitlines()


@pytest.mark.parametrize("loaded", [False, True], ids=["sharded", "loaded"])
def test_a_metric_every_image_breaks_is_one_line(
    loaded: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gt, det = partial_set(tmp_path, 4, ccw=range(4))  # ic15_iou refuses counter-clockwise
    more = ["--instances", str(tmp_path / "i.csv")] if loaded else []
    code, err = _err(
        ["eval", "--gt", str(gt), "--det", str(det), "--metric", "ic15_iou", *more], capsys
    )
    assert code == 2 and len(err) == 1, err
    (line,) = err
    assert line.startswith("detlens: error: ic15_iou does not read these inputs: ")
    assert "(8 lines on 4 of 4 images, first det.zip:res_img_0.txt:1)" in line
    assert "skip_sample" not in line and "detlens eval --list-metrics" in line
    assert not (tmp_path / "i.csv").exists()


def test_the_fix_a_reason_names_is_the_advice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gt, det = partial_set(tmp_path, 3)  # quads in the ICDAR order: curved TIoU wants the reverse
    code, err = _err(
        ["eval", "--gt", str(gt), "--det", str(det), "--metric", "curved_tiou"], capsys
    )
    assert code == 2 and len(err) == 1, err
    assert "curved_tiou does not read these inputs: polygon in the ICDAR order" in err[0]
    assert "on 3 of 3 images" in err[0] and "add --set curved_tiou.auto_orient=true" in err[0]
    assert "skip_sample" not in err[0]


def test_compare_says_it_in_one_line_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gt, det = partial_set(tmp_path, 3)
    args = ["compare", "--gt", str(gt), "--det", str(det), "--det", str(det)]
    code, err = _err([*args, "--metric", "curved_tiou", "--resamples", "0"], capsys)
    assert code == 2 and len(err) == 1, err
    assert "curved_tiou does not read these inputs" in err[0]


def test_some_images_broken_are_grouped_and_skip_sample_advised(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gt, det = partial_set(tmp_path, 4, ccw={0, 2})  # two boxes each: four errors, one message
    code, err = _err(["eval", "--gt", str(gt), "--det", str(det), "--metric", "ic15_iou"], capsys)
    assert code == 2 and len(err) == 2, err
    assert "4 input error(s) on 2 of 4 images" in err[0]
    assert "use skip_sample to evaluate the rest" in err[0]
    assert "first: det.zip:res_img_0.txt:1: error: " in err[0]
    assert err[1] == (
        "  and 3 more like it: det.zip:res_img_0.txt:2, det.zip:res_img_2.txt:1, "
        "det.zip:res_img_2.txt:2"
    )


def test_skip_sample_is_not_advised_when_it_would_leave_too_few(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gt, det = partial_set(tmp_path, 4, ccw={0, 1})  # two images the metric refuses
    with zipfile.ZipFile(det) as zf:
        files: dict[str, str | bytes] = {n: zf.read(n) for n in zf.namelist()}
    files["res_img_2.txt"] = "1,0,41\n"  # and a third that cannot be read
    bad = write_zip(tmp_path / "bad.zip", files)
    args = ["eval", "--gt", str(gt), "--det", str(bad), "--metric", "ic15_iou"]
    code, err = _err(args, capsys)
    assert code == 2, err
    assert "5 input error(s) on 3 of 4 images" in err[0]
    assert "use skip_sample" not in err[0]
    assert "skip_sample would leave ic15_iou 1 of 4 images, too few for a score" in err[0]


def test_a_listing_says_each_message_once() -> None:
    same = [Problem(Severity.ERROR, "a.txt", k, "bad box", "a") for k in range(1, 26)]
    other = Problem(Severity.ERROR, "b.txt", 3, "worse box", "b")
    lines = grouped([*same, other, *same], 20)
    assert lines == [
        "a.txt:1: error: bad box (and 24 more like it: a.txt:2, a.txt:3, a.txt:4, ...)",
        "b.txt:3: error: worse box",
    ]
    assert grouped([*same, other], 1, where="all in --json")[-1] == (
        "... and 1 more, of 1 other kind(s) (all in --json)"
    )


@pytest.mark.parametrize("loaded", [False, True], ids=["sharded", "loaded"])
def test_images_failing_in_evaluation_do_not_advise_a_skip_that_leaves_nothing(
    loaded: bool,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    gt, det = partial_set(tmp_path, 3)
    failing_on(monkeypatch, "ic15_iou", {"img_0", "img_2"})
    more = ["--instances", str(tmp_path / "i.csv")] if loaded else []
    args = ["eval", "--gt", str(gt), "--det", str(det), "--metric", "ic15_iou", *more]
    code, err = _err(args, capsys)
    assert code == 2 and len(err) == 2, err
    assert err[0].startswith("detlens: error: 2 image(s) could not be evaluated")
    assert "skip_sample would leave ic15_iou 1 of 3 images, too few for a score" in err[0]
    assert "use skip_sample" not in err[0]
    assert err[1] == "  and 1 more like it: gt.zip:gt_img_2.txt"


def test_a_json_set_counts_boxes_not_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hexagon = [[10, 10], [30, 5], [50, 10], [50, 30], [30, 35], [10, 30]]
    images = [ht_words_image([hexagon], f"img_{k}") for k in range(2)]
    gt, det = ht_files(tmp_path, images, images)  # DetEval takes axis-aligned boxes only
    code, err = _err(["eval", "--gt", str(gt), "--det", str(det), "--metric", "deteval"], capsys)
    assert code == 2 and len(err) == 1, err
    assert "(4 boxes on 2 of 2 images, 2 saying this, first " in err[0]
    assert f"first {gt} (image img_0, box 1))" in err[0] and " lines " not in err[0]


def test_compare_with_nothing_left_to_compare_says_why_and_where(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gt, det = partial_set(tmp_path, 3, ccw=range(3))  # skip_sample leaves no image of either
    args = ["compare", "--gt", str(gt), "--det", str(det), "--det", str(det), "--resamples", "0"]
    code, err = _err([*args, "--metric", "ic15_iou", "--policy", "skip_sample"], capsys)
    assert code == 2 and len(err) == 1, err
    assert err[0].startswith("detlens: error: the two evaluations share no evaluated image")
    assert "; first: det.zip:res_img_0.txt:1: error: " in err[0]


def test_lines_no_reader_can_read_advise_no_other_metric(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gt, det = partial_set(tmp_path, 3)
    with zipfile.ZipFile(det) as zf:
        files: dict[str, str | bytes] = {n: zf.read(n) for n in zf.namelist()}
    files["res_img_0.txt"] = files["res_img_1.txt"] = "1,0,41\n"  # no metric reads these
    bad = write_zip(tmp_path / "bad.zip", files)
    code, err = _err(["eval", "--gt", str(gt), "--det", str(bad)], capsys)
    assert code == 2, err
    assert (
        "skip_sample would leave 1 of 3 images, too few for a score: correct the files)" in err[0]
    )
    assert "choose a metric" not in err[0]


def test_a_json_message_is_grouped_without_its_path() -> None:
    at = [
        Problem(Severity.ERROR, "d.json", None, f"predictions[{k}]: names no image")
        for k in range(5)
    ]
    other = Problem(Severity.ERROR, "d.json", None, "predictions[0].det_scores[2]: not a number")
    plain = Problem(Severity.ERROR, "d.json", None, "top: not a list")  # no index: no path
    assert grouped([*at, other, plain], 20) == [
        "d.json: error: predictions[0]: names no image (and 4 more like it: d.json "
        "predictions[1], d.json predictions[2], d.json predictions[3], ...)",
        "d.json: error: predictions[0].det_scores[2]: not a number",
        "d.json: error: top: not a list",
    ]


def test_json_predictions_without_images_are_one_line_and_their_places(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gt, _ = partial_set(tmp_path, 2)
    det = tmp_path / "infer.json"  # what MMOCR's inferencer writes: no img_path
    polygons = [[10, 10, 60, 10, 60, 30, 10, 30]]
    preds = [{"det_polygons": polygons, "det_scores": [0.9]} for _ in range(3)]
    det.write_text(json.dumps({"predictions": preds}))
    code, err = _err(["eval", "--gt", str(gt), "--det", str(det)], capsys)
    assert code == 2 and len(err) == 2, err
    said = f"first: {det}: error: predictions[0]: names no image (img_path): it cannot be paired"
    assert err[0].endswith(said), err
    assert err[1] == f"  and 2 more like it: {det} predictions[1], {det} predictions[2]"
