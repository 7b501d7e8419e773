"""Wrong inputs named before any number: a GT set given as detections, an image folder that
does not fit the GT; in ``detlens check`` and in ``detlens eval`` (the shared load path)."""

from __future__ import annotations

import struct
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


def _png(path: Path, w: int, h: int) -> None:
    """A PNG header: enough for the size (what check reads)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    ihdr = struct.pack(">II", w, h) + b"\x08\x02\x00\x00\x00"
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + ihdr)


def _images(folder: Path, names: list[str], size: tuple[int, int]) -> Path:
    for n in names:
        _png(folder / n, *size)
    return folder


def test_images_whose_names_pair_with_few_gt_files(tmp_path: Path) -> None:
    gt = _set(tmp_path / "gt", "gt_", {k: QUADS for k in range(1, 5)})
    images = _images(tmp_path / "img", ["img1001.png", "img1002.png", "img_1.png"], (640, 480))
    ds = load_dataset(gt, None, images=images)
    (f,) = [f for f in check_dataset(ds, with_metrics=False) if f.code == "images"]
    assert f.level is Level.WARNING and f.source == str(images)
    assert "1 of 4 GT files pair with one of its 3 images (names like img1001.png" in f.message
    assert "GT ids like img_1, img_2, img_3" in f.message


def test_images_that_fit_are_not_named(tmp_path: Path) -> None:
    gt = _set(tmp_path / "gt", "gt_", {k: QUADS for k in range(1, 5)})
    images = _images(tmp_path / "img", [f"img_{k}.jpg" for k in (1, 2, 3)], (640, 480))
    found = check_dataset(load_dataset(gt, None, images=images), with_metrics=False)
    assert not [f for f in found if f.code in ("images", "images_misfit")]


def test_images_whose_sizes_do_not_fit_the_gt(tmp_path: Path) -> None:
    gt = _set(tmp_path / "gt", "gt_", {k: QUADS for k in range(1, 5)})
    images = _images(tmp_path / "img", [f"img_{k}.png" for k in range(1, 5)], (320, 240))
    found = check_dataset(load_dataset(gt, None, images=images), with_metrics=False)
    (f,) = [f for f in found if f.code == "images_misfit"]
    assert f.level is Level.ERROR and f.source == str(images)
    assert "in 4 of 4 images GT boxes reach beyond the image" in f.message
    assert "first: img_1, GT up to x 460, y 320 in a 320x240 image" in f.message


@pytest.mark.parametrize("metric", [[], ["--metric", "ic15_iou"]])  # loaded, and sharded
def test_eval_names_images_that_do_not_fit_before_the_scores(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
    metric: list[str],
) -> None:
    gt = _set(tmp_path / "gt", "gt_", {k: QUADS for k in range(1, 5)})
    det = _set(tmp_path / "det", "res_", {k: ["10,10,110,10,110,40,10,40"] for k in range(1, 5)})
    small = _images(tmp_path / "small", [f"img_{k}.png" for k in range(1, 5)], (320, 240))
    other = _images(tmp_path / "other", ["img1001.png"], (640, 480))
    args = ["eval", "--gt", str(gt), "--det", str(det), *metric, "--images"]
    assert main([*args, str(small)]) == 0
    assert f"{small}: the images do not fit the GT: in 4 of 4 images" in caplog.text
    assert main([*args, str(other)]) == 0
    assert f"{other}: warning: images: 0 of 4 GT files pair" in capsys.readouterr().err


CHECK_WITH_FIFO = """
import sys
from metrics.cli.main import main
sys.exit(main(["check", "--gt", "gt", "--det", "det", "--images", "images"]))
"""


def test_a_fifo_among_the_images_is_never_opened(tmp_path: Path) -> None:
    """Issue 30, point 6: ``check`` read each image's header and hung on a FIFO named like
    an image; now it is not paired (a warning names it) and never opened."""
    import os
    import subprocess
    import sys

    from tests.support import ROOT

    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs on this platform")
    _set(tmp_path / "gt", "gt_", {1: QUADS, 2: QUADS})
    _set(tmp_path / "det", "res_", {1: QUADS, 2: QUADS})
    images = tmp_path / "images"
    images.mkdir()
    _png(images / "img_1.png", 800, 600)
    os.mkfifo(images / "img_2.png")
    done = subprocess.run(
        [sys.executable, "-c", CHECK_WITH_FIFO],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,  # was a hang
    )
    assert done.returncode in (0, 1), done.stderr
    assert "img_2.png: warning: images: a pipe (FIFO), not an image file" in done.stdout
    ds = load_dataset(tmp_path / "gt", tmp_path / "det", images=images)
    assert ds["img_1"].image == str(images / "img_1.png") and ds["img_2"].image is None


def test_image_size_never_blocks_on_a_fifo_or_a_device(tmp_path: Path) -> None:
    import os

    from metrics.check import image_size
    from tests.support import bounded_on_fifo

    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs on this platform")
    os.mkfifo(tmp_path / "x.png")
    assert bounded_on_fifo(tmp_path / "x.png", lambda: image_size(tmp_path / "x.png")) is None
    if os.path.exists("/dev/zero"):
        assert image_size("/dev/zero") is None
    _png(tmp_path / "y.png", 3, 2)
    assert image_size(tmp_path / "y.png") == (3, 2)
