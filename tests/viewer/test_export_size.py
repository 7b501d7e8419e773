"""A large image's export reads at its size: the PNG's long side is at most
``MAX_SIDE_PX`` (a Total-Text image came out 5,956 x 3,148 with a 14-pixel header, and took
seconds); ``--full-size`` keeps every image pixel and scales the header with it."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QImage

from metrics.cli.main import main
from tests.support import write_zip
from tests.viewer.test_problems import _png
from viewer.export.render import HEADER_PX, MAX_SIDE_PX, MIN_PANEL_PX, page_layout

W, H = 4000, 2500  # words in opposite corners: the whole image is shown, not a crop


def _export(tmp_path: Path, *extra: str) -> QImage:
    gt = "100,100,400,100,400,160,100,160,NEAR\n3500,2300,3900,2300,3900,2380,3500,2380,FAR\n"
    det = "100,100,400,100,400,160,100,160\n3500,2300,3700,2300,3700,2380,3500,2380\n"
    g = write_zip(tmp_path / "gt.zip", {"gt_img_1.txt": gt})
    d = write_zip(tmp_path / "det.zip", {"res_img_1.txt": det})
    (tmp_path / "images").mkdir(exist_ok=True)
    _png(tmp_path / "images" / "img_1.png", W, H)
    out = tmp_path / ("out" + "".join(extra))
    argv = ["export", "--gt", str(g), "--det", str(d), "--images", str(tmp_path / "images")]
    assert main([*argv, "--metric", "ic15_iou", "--out", str(out), *extra]) == 0
    return QImage(str(out / "img_1.png"))


def _header_rows(img: QImage) -> int:
    """The rows of the header's dark band, down the left edge."""
    dark = QColor("#1f2937").rgb()
    n = 0
    while n < img.height() and img.pixel(2, n) == dark:
        n += 1
    return n


def test_a_large_image_is_exported_at_most_max_side(qtbot, tmp_path: Path) -> None:
    img = _export(tmp_path)
    assert max(img.width(), img.height()) <= MAX_SIDE_PX
    assert img.width() >= MAX_SIDE_PX - 2  # the long side fills it
    assert _header_rows(img) == HEADER_PX  # the header: 14-pixel text on a 1,600-pixel page


def test_full_size_keeps_the_pixels_and_scales_the_header(qtbot, tmp_path: Path) -> None:
    img = _export(tmp_path, "--full-size")
    assert img.width() >= W - 2
    ratio = img.width() / MAX_SIDE_PX
    assert abs(_header_rows(img) - HEADER_PX * ratio) <= 2  # as legible as the default


def test_the_layout_counts_the_header_and_legend_in_the_long_side() -> None:
    tall = page_layout(QRectF(0, 0, 1200, 3000), 1, 7)
    assert tall.h + HEADER_PX + tall.legend_h <= MAX_SIDE_PX
    wide = page_layout(QRectF(0, 0, 3000, 900), 2, 3)  # two panels side by side
    assert wide.panel_w * 2 <= MAX_SIDE_PX
    small = page_layout(QRectF(0, 0, 200, 100), 1, 3)  # a small crop is still drawn larger
    assert small.scale > 1 and small.panel_w >= MIN_PANEL_PX and small.shrink == 1


def test_the_help_names_the_same_limit() -> None:
    from viewer.export import cli

    assert cli.MAX_SIDE_PX == MAX_SIDE_PX  # --help says it without loading Qt
