"""``detlens convert``: the canonical forms, what they cannot hold said with counts, outputs
written atomically and never onto an input."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from metrics.cli.main import main
from tests.metrics.io.formats_support import load, write

MMOCR_GT = {
    "metainfo": {},
    "data_list": [
        {
            "img_path": "imgs/img_1.jpg",
            "instances": [
                {"polygon": [10.4, 10, 50, 10, 50, 30.6, 10, 30], "ignore": False, "text": "12"},
                {
                    "polygon": [60, 10, 90, 10, 90, 30],
                    "ignore": True,
                    "text": "blur",
                    "bbox_label": 0,
                },
            ],
        },
        {"img_path": "imgs/img_2.jpg", "instances": []},
    ],
}
PREDS = {"det_polygons": [[10, 10, 50, 10, 50, 30, 10, 30]], "det_scores": [0.8125]}


def _inputs(tmp_path: Path) -> tuple[Path, Path]:
    gt = write(tmp_path, "gt.json", MMOCR_GT)
    write(tmp_path, "preds/img_1.json", PREDS)
    return gt, tmp_path / "preds"


def test_to_icdar_reports_what_it_cannot_hold(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gt, det = _inputs(tmp_path)
    out = tmp_path / "out.zip"
    assert main(["convert", "--gt", str(gt), "--det", str(det), "--to", "icdar", str(out)]) == 0
    captured = capsys.readouterr()
    assert f"{out}: 2 images, 2 GT boxes, 1 detections (icdar)" in captured.out
    assert "2 decimal coordinate(s) in 1 box(es) rounded to integers" in captured.err
    assert "1 don't-care box(es) had a transcription other than ###" in captured.err
    assert "attribute 'bbox_label' dropped from 1 box(es)" in captured.err
    with zipfile.ZipFile(out) as zf:
        assert sorted(zf.namelist()) == ["gt_img_1.txt", "gt_img_2.txt", "res_img_1.txt"]
        assert zf.read("gt_img_1.txt").decode().splitlines() == [
            '10,10,50,10,50,31,10,30,"12"',
            "60,10,90,10,90,30,###",
        ]
        assert zf.read("res_img_1.txt").decode() == "10,10,50,10,50,30,10,30,0.8125\n"
    ds = load(out, out)
    assert ds["img_1"].gt[0].text == "12" and ds["img_1"].gt[1].dont_care
    assert ds["img_1"].det[0].confidence == 0.8125 and ds["img_2"].det_source is None
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_to_json_keeps_everything(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gt, det = _inputs(tmp_path)
    out = tmp_path / "out.json"
    assert main(["convert", "--gt", str(gt), "--det", str(det), "--to", "json", str(out)]) == 0
    assert capsys.readouterr().err == ""
    data = json.loads(out.read_text())
    assert data["samples"][0]["gt"][0]["points"][0] == [10.4, 10]
    assert data["samples"][1]["det"] is None
    back = load(out, out)
    assert back["img_1"].gt[1].attrs == {"bbox_label": 0}
    assert not back["img_1"].gt[0].integer and back["img_1"].gt[1].integer


def test_side_det_writes_a_submission(tmp_path: Path) -> None:
    gt, det = _inputs(tmp_path)
    out = tmp_path / "submit.zip"
    argv = ["convert", "--gt", str(gt), "--det", str(det), "--side", "det", "--to", "icdar"]
    assert main([*argv, str(out)]) == 0
    with zipfile.ZipFile(out) as zf:
        assert zf.namelist() == ["res_img_1.txt"]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--to", "icdar", "{gt}"], "is an input"),
        (["--to", "icdar", "{tmp}"], "is a folder: give a file name"),
        (["--to", "icdar", "{tmp}/no/such/out.zip"], "does not exist"),
        (["--side", "det", "--to", "json", "{tmp}/o.json"], "--side det needs --det"),
    ],
)
def test_option_mistakes_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    gt, _ = _inputs(tmp_path)
    argv = ["convert", "--gt", str(gt), *(a.format(gt=gt, tmp=tmp_path) for a in extra)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("detlens: error: ") and message in err and err.count("\n") == 1
    assert gt.read_text() == json.dumps(MMOCR_GT, ensure_ascii=False)


def test_no_gt_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["convert", "--to", "json", str(tmp_path / "o.json")]) == 2
    assert "convert needs --gt" in capsys.readouterr().err


def _ctw_like(tmp_path: Path) -> tuple[Path, Path]:
    """12 images (ids 1..12: ``samples[10]`` sorts before ``samples[2]``), each with a GT
    polygon and a detection that hits it or misses, so the AP depends on the image order."""
    gt, det = tmp_path / "gt", tmp_path / "det"
    gt.mkdir()
    det.mkdir()
    box = "0,0,50,0,100,0,100,20,50,20,0,20"
    for k in range(1, 13):
        (gt / f"{k}.txt").write_text(f"{box},CARE\n")
        hit = box if k % 3 else "200,0,250,0,300,0,300,20,250,20,200,20"
        (det / f"{k}.txt").write_text(f"{hit}\n" if k % 2 else f"{hit}\n{box}\n")
    return gt, det


def test_a_json_conversion_keeps_the_ctw1500_ap(tmp_path: Path) -> None:
    from metrics.catalogue.registry import resolve
    from metrics.io.reader import load_dataset
    from metrics.run.runner import run

    gt, det = _ctw_like(tmp_path)
    out = tmp_path / "both.json"
    assert main(["convert", "--gt", str(gt), "--det", str(det), "--to", "json", str(out)]) == 0
    spec = resolve("ctw1500_eval")
    (txt,) = run(load_dataset(gt, det), [spec])
    (js,) = run(load_dataset(out, out), [spec])
    assert dict(js.extras) == pytest.approx(dict(txt.extras), abs=1e-12)
    back = tmp_path / "back.zip"
    assert main(["convert", "--gt", str(out), "--det", str(out), "--to", "icdar", str(back)]) == 0
    (zipped,) = run(load_dataset(back, back), [spec])
    assert dict(zipped.extras) == pytest.approx(dict(txt.extras), abs=1e-12)
