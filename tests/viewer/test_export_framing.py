"""Issue 28, point 6: exports read like the canvas. No label is cut at an edge, a large
image is cropped to its boxes with a margin, the labels name the metric's limits, and the
index pages name the dataset, the detections, the metric and the global scores."""

from __future__ import annotations

import csv
import re
from pathlib import Path
from typing import Any

from PySide6.QtGui import QImage

import viewer.export.render as render
from metrics.cli.main import main
from tests.support import write_zip
from tests.viewer.test_problems import _png
from viewer.paint.painter import PreparedOverlay, RenderContext, paint_overlay


def _set(tmp_path: Path, image: tuple[int, int] | None = None) -> list[str]:
    """Three words in a 300 x 60 strip at (1500, 1000) of a 2000 x 1500 image; the last word
    touches the strip's right end, its detection too short (IoU 0.49: a label with a rule)."""
    gt = "".join(
        f"{x},{y},{x + w},{y},{x + w},{y + 20},{x},{y + 20},{t}\n"
        for x, y, w, t in (
            (1500, 1000, 90, "ONE"),
            (1600, 1000, 90, "TWO"),
            (1700, 1040, 100, "END"),
        )
    )
    det = "".join(
        f"{x},{y},{x + w},{y},{x + w},{y + 20},{x},{y + 20}\n"
        for x, y, w in ((1500, 1000, 90), (1600, 1000, 90), (1700, 1040, 49))
    )
    g = write_zip(tmp_path / "gt.zip", {"gt_img_1.txt": gt})
    d = write_zip(tmp_path / "det.zip", {"res_img_1.txt": det})
    args = ["--gt", str(g), "--det", str(d), "--metric", "ic15_iou"]
    if image is not None:
        (tmp_path / "images").mkdir()
        _png(tmp_path / "images" / "img_1.png", *image)
        args += ["--images", str(tmp_path / "images")]
    return args


def _capture(monkeypatch) -> list[tuple[Any, RenderContext]]:
    seen: list[tuple[Any, RenderContext]] = []
    real = render.paint_overlay

    def spy(p: Any, items: Any, ctx: RenderContext) -> None:
        seen.append((items, ctx))
        real(p, items, ctx)

    monkeypatch.setattr(render, "paint_overlay", spy)
    return seen


def test_a_large_image_is_cropped_to_its_boxes(qtbot, tmp_path: Path, monkeypatch) -> None:
    seen = _capture(monkeypatch)
    out = tmp_path / "out"
    assert main(["export", *_set(tmp_path, (2000, 1500)), "--out", str(out)]) == 0
    img = QImage(str(out / "img_1.png"))
    assert img.width() < 1000 and img.height() < 800  # not a 2000 x 1500 mostly empty panel
    ((_, ctx),) = seen
    x0, y0, x1, y1 = ctx.visible
    assert x0 < 1500 and y0 < 1000 and x1 > 1800 and y1 > 1060  # every box, with a margin
    assert x1 - x0 < 600 and ctx.scale >= 1.0


def test_no_label_crosses_the_frame(qtbot, tmp_path: Path, monkeypatch) -> None:
    seen = _capture(monkeypatch)
    assert main(["export", *_set(tmp_path, (2000, 1500)), "--out", str(tmp_path / "o")]) == 0
    ((items, ctx),) = seen
    prep = PreparedOverlay(items)
    image = QImage(2000, 2000, QImage.Format.Format_ARGB32)
    from PySide6.QtGui import QPainter

    p = QPainter(image)
    p.scale(ctx.scale, ctx.scale)
    paint_overlay(p, prep, ctx)
    p.end()
    assert prep.label_layout, "the missed word's label is shown"
    s = ctx.scale
    x0, y0, x1, y1 = (v * s for v in ctx.visible)
    for spot, text, _, _ in prep.label_layout:
        inside = x0 <= spot.x and spot.x + spot.w <= x1 and y0 <= spot.y and spot.y + spot.h <= y1
        assert inside, (text, spot)


def test_labels_name_the_metric_limit(qtbot, tmp_path: Path, monkeypatch) -> None:
    seen = _capture(monkeypatch)
    assert main(["export", *_set(tmp_path), "--out", str(tmp_path / "o")]) == 0
    ((items, _),) = seen
    texts = [t for it in items if it.shape == "texts" for t in it.data.get("texts", ())]
    assert any("≤ 0.5" in t for t in texts), texts  # "missed: IoU 0.49 ≤ 0.5"


def test_index_names_dataset_detections_metric_and_global_scores(qtbot, tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert main(["export", *_set(tmp_path), "--out", str(out)]) == 0
    page = re.sub(r"<[^>]+>", " ", (out / "index.html").read_text(encoding="utf-8"))
    page = re.sub(r"\s+", " ", page)
    assert f"ic15_iou on {(tmp_path / 'gt.zip').resolve()}" in page
    assert f"det {(tmp_path / 'det.zip').resolve()} 0.667 0.667 0.667" in page
    rows = list(csv.DictReader((out / "index.csv").open()))
    assert rows[0]["metric"] == "ic15_iou" and rows[0]["dataset"].endswith("gt.zip")
