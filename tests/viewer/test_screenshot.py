"""``detlens view --screenshot``: the window rendered offscreen shows what was asked for."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PySide6.QtGui import QColor, QImage

from metrics.cli.main import main
from viewer.scene.palette import StyleKey
from viewer.style import stroke_color


def _count(img: QImage, hex_color: str, tol: int = 40) -> int:
    """Pixels within ``tol`` of a colour (every pixel, via numpy)."""
    img = img.convertToFormat(QImage.Format.Format_RGB32)
    arr = np.frombuffer(img.constBits(), np.uint8).reshape(img.height(), img.width(), 4)
    want = QColor(hex_color)
    bgr = np.array([want.blue(), want.green(), want.red()])
    return int(np.count_nonzero(np.all(np.abs(arr[:, :, :3].astype(int) - bgr) <= tol, axis=2)))


def _shot(tmp_path: Path, name: str, *extra: str) -> QImage:
    out = tmp_path / name
    argv = ["view", "--screenshot", str(out), "--metric", "tiou", "--sample", "img_4"]
    assert main([*argv, "--size", "1200x800", *extra]) == 0
    return QImage(str(out))


def test_tiou_screenshot_shows_cut_and_outlier(qtbot, tmp_path: Path) -> None:
    full = _shot(tmp_path, "full.png")
    plain = _shot(tmp_path, "plain.png", "--layers", "image,det")
    assert full.width() == 1200 and full.height() >= 800
    outlier, missed = stroke_color(StyleKey.TIOU_OUTLIER), stroke_color(StyleKey.GT_MISSED)
    assert _count(full, outlier) > _count(plain, outlier) + 50
    assert _count(full, missed) > _count(plain, missed) + 50


def test_bad_option_is_a_clean_error(qtbot, tmp_path: Path, capsys) -> None:
    code = main(["view", "--screenshot", str(tmp_path / "x.png"), "--sample", "nope"])
    assert code == 2 and "no sample 'nope'" in capsys.readouterr().err
