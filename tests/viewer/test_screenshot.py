"""``detlens view --screenshot``: the window rendered offscreen shows what was asked for."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtGui import QColor, QImage

from metrics.cli.main import main
from viewer.paint.style import stroke_color
from viewer.scene.layers import DEFAULT_LAYERS
from viewer.scene.palette import StyleKey


def _count(img: QImage, hex_color: str, tol: int = 40) -> int:
    """Pixels within ``tol`` of a colour (every pixel, via numpy)."""
    img = img.convertToFormat(QImage.Format.Format_RGB32)
    arr = np.frombuffer(img.constBits(), np.uint8).reshape(img.height(), img.width(), 4)
    want = QColor(hex_color)
    bgr = np.array([want.blue(), want.green(), want.red()])
    return int(np.count_nonzero(np.all(np.abs(arr[:, :, :3].astype(int) - bgr) <= tol, axis=2)))


def _differing(a: QImage, b: QImage) -> int:
    """Pixels that differ between two images of the same size."""
    arrays = []
    for img in (a, b):
        img = img.convertToFormat(QImage.Format.Format_RGB32)
        arrays.append(
            np.frombuffer(img.constBits(), np.uint8).reshape(img.height(), img.width(), 4)
        )
    return int(np.count_nonzero(np.any(arrays[0][:, :, :3] != arrays[1][:, :, :3], axis=2)))


def _shot(tmp_path: Path, name: str, *extra: str) -> QImage:
    out = tmp_path / name
    argv = ["view", "--screenshot", str(out), "--metric", "tiou", "--sample", "img_4"]
    assert main([*argv, "--size", "1200x800", *extra]) == 0
    return QImage(str(out))


def test_tiou_screenshot_shows_cut_and_outlier(qtbot, tmp_path: Path) -> None:
    full = _shot(tmp_path, "full.png")
    plain = _shot(tmp_path, "plain.png", "--layers", "image,det")
    no_tiou = _shot(
        tmp_path, "no_tiou.png", "--layers", ",".join(sorted(DEFAULT_LAYERS - {"tiou"}))
    )
    assert full.width() == 1200 and full.height() >= 800
    missed = stroke_color(StyleKey.GT_MISSED)
    assert _count(full, missed) > _count(plain, missed) + 50
    # the cut and outlier regions (hatched over the words; the legend is behind the inspector)
    assert _differing(full, no_tiou) > 500


def test_bad_option_is_a_clean_error(qtbot, tmp_path: Path, capsys) -> None:
    code = main(["view", "--screenshot", str(tmp_path / "x.png"), "--sample", "nope"])
    assert code == 2 and "no sample 'nope'" in capsys.readouterr().err


BAD_OPTIONS = [
    (["--sample", "img_99"], "no sample 'img_99'"),
    (["--metric", "deteval"], "does not apply"),
    (["--metric", "nope"], "unknown metric 'nope'"),
    (["--compare-metric", "nope"], "unknown metric 'nope'"),
    (["--layers", "gt,xyz"], "unknown layers ['xyz']"),
    (["--select", "foo"], "--select takes gt:N"),
    (["--select", "gt:0"], "N from 1"),
    (["--select", "gt:99"], "img_4 has 9 gt instance(s)"),
    (["--size", "100"], "--size takes WIDTHxHEIGHT"),
    (["--size", "0x0"], "between 200x150"),
    (["--gt", "/no/such/gt.zip"], "no such file or folder"),
    (["--sample", "", "--select", "gt:1"], "--select gt:1 needs --sample ID"),
    (["--state", "/no/such/state.json"], "cannot read state file"),
]


@pytest.mark.parametrize(
    ("extra", "message"), BAD_OPTIONS, ids=[" ".join(e) for e, _ in BAD_OPTIONS]
)
def test_every_option_mistake_exits_2_with_one_line(
    qtbot, tmp_path: Path, capsys, extra: list[str], message: str
) -> None:
    argv = ["view", "--screenshot", str(tmp_path / "x.png"), "--sample", "img_4"]
    if extra[0] == "--sample":
        argv = argv[:3]
    assert main([*argv, *extra]) == 2
    err = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert len(err) == 1 and message in err[0], err
    assert not (tmp_path / "x.png").exists()


@pytest.mark.parametrize("extra", [["--metric", "deteval"], ["--select", "gt:99"]])
def test_a_mistake_found_after_loading_ends_the_process_cleanly(
    tmp_path: Path, extra: list[str]
) -> None:
    """Mistakes found once the window exists used to abort the process (SIGABRT, "QThread:
    Destroyed while thread is still running"): the exit code is 2, and nothing else is said."""
    code = (
        "import sys; from metrics.cli import main; "
        f"sys.exit(main(['view', '--screenshot', {str(tmp_path / 'x.png')!r}, "
        f"'--sample', 'img_4', *{extra!r}]))"
    )
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 2, done.stderr
    assert "QThread" not in done.stderr and "Traceback" not in done.stderr


def test_a_screenshot_never_writes_an_input_nor_a_half_file(
    qtbot, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--screenshot`` naming an input (a zip, the demo's files) exits 2 with one line and
    leaves the input as it was; so do a missing folder and a name that is not an image."""
    import shutil

    from metrics.io.demo import demo_paths

    demo = demo_paths()
    gt = tmp_path / "gt"
    shutil.copytree(demo.gt, gt)
    det = tmp_path / "det.zip"
    det.write_bytes(b"PK\x05\x06" + b"\x00" * 18)  # an empty zip
    before = det.read_bytes()
    cases = [
        (["--gt", str(gt), "--det", str(det), "--screenshot", str(det)], "is an input"),
        (["--screenshot", str(demo.images / "img_1.png")], "is an input"),
        (["--screenshot", str(tmp_path / "no" / "x.png")], "does not exist"),
        (["--screenshot", str(tmp_path / "x.txt")], "ending in .png"),
    ]
    for argv, said in cases:
        assert main(["view", *argv]) == 2, argv
        err = capsys.readouterr().err.strip()
        assert said in err and len(err.splitlines()) == 1, err
    assert det.read_bytes() == before and not (tmp_path / "no").exists()
    assert not list(tmp_path.glob(".*tmp*"))
    out = tmp_path / "shot.jpg"
    assert main(["view", "--screenshot", str(out), "--size", "800x600"]) == 0
    assert QImage(str(out)).width() == 800 and not list(tmp_path.glob(".*tmp*"))
