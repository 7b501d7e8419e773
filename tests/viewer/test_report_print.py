"""The two-detector report printed to PDF on A4 by QtWebEngine (Chromium's own print path):
pages come out, and no plot or thumbnail is cut across a page boundary.

Chromium never splits an image that fits on a page (it moves it to the next one); one
taller than a page is sliced, each slice its own image object on its own page. So the page
is checked twice: in the DOM, every figure at the printed width fits an A4 page's height;
in the PDF, no image is drawn on more pages than it occurs in the page (a sliced image
adds a page reference). The second check is shown to fail on a page with a tall image."""

from __future__ import annotations

import collections
import json
import os
import re
from pathlib import Path

import pytest

from metrics.cli.main import main
from metrics.io.demo import demo_paths

os.environ.setdefault("QTWEBENGINE_CHROMIUM_FLAGS", "--no-sandbox")  # before WebEngine starts

MM_PX = 96 / 25.4  # CSS pixels per millimetre
MARGIN_MM = 12  # the report's @page margin
PRINT_W = round((210 - 2 * MARGIN_MM) * MM_PX)  # A4's printable width in CSS px (703)
PRINT_H = (297 - 2 * MARGIN_MM) * MM_PX  # and height (1032)

SIZES_JS = "JSON.stringify(Array.from(document.images).map(i => [i.naturalWidth, i.naturalHeight]))"
# the print style's body (no margin, no max width), then each figure's height
FIGURES_JS = (
    "document.body.style.margin = '0'; document.body.style.maxWidth = 'none';"
    "JSON.stringify(Array.from(document.querySelectorAll('figure')).map(f => "
    "[f.querySelector('img') ? f.querySelector('img').getAttribute('src') : '', "
    "f.getBoundingClientRect().height]))"
)


def image_pages(pdf: bytes) -> dict[tuple[int, int], list[int]]:
    """For each image size (width, height in pixels): the page of each page reference to
    an image object of that size (Chromium's PDF keeps page dictionaries uncompressed)."""
    starts = {int(m[1]): m.start() for m in re.finditer(rb"(?m)^(\d+) 0 obj\b", pdf)}
    out: dict[tuple[int, int], list[int]] = collections.defaultdict(list)
    pages = [m.start() for m in re.finditer(rb"/Type /Page\b", pdf)]
    for page, start in enumerate(pages):
        xobjects = re.search(rb"/XObject <<(.*?)>>", pdf[start : pdf.find(b"endobj", start)], re.S)
        for ref in re.findall(rb"/\w+ (\d+) 0 R", xobjects[1] if xobjects else b""):
            head = pdf[starts[int(ref)] : pdf.find(b"stream", starts[int(ref)])]
            w, h = re.search(rb"/Width (\d+)", head), re.search(rb"/Height (\d+)", head)
            if b"/Subtype /Image" in head and w and h:
                out[int(w[1]), int(h[1])].append(page)
    return out


def cut_images(pdf: bytes, sizes: list[list[int]]) -> dict[tuple[int, int], int]:
    """Image sizes drawn on more pages than the page has images of that size."""
    occurs = collections.Counter((w, h) for w, h in sizes)
    drawn = image_pages(pdf)
    return {k: len(v) for k, v in drawn.items() if len(v) > occurs[k]}


def _js(qtbot, view, script: str) -> object:  # type: ignore[no-untyped-def]
    got: list[object] = []
    view.page().runJavaScript(script, 0, got.append)
    qtbot.waitUntil(lambda: bool(got), timeout=10_000)
    return got[0]


def _load_and_print(qtbot, html: Path, pdf: Path):  # type: ignore[no-untyped-def]
    """The page loaded in a view ``PRINT_W`` wide and printed to ``pdf`` on A4."""
    web = pytest.importorskip(
        "PySide6.QtWebEngineWidgets",
        reason="QtWebEngine not installed (pip install PySide6_Addons matching PySide6)",
    )
    from PySide6.QtCore import QMarginsF, QUrl
    from PySide6.QtGui import QPageLayout, QPageSize

    view = web.QWebEngineView()
    qtbot.addWidget(view)
    view.resize(PRINT_W, 900)
    with qtbot.waitSignal(view.loadFinished, timeout=60_000) as done:
        view.load(QUrl.fromLocalFile(str(html)))
    assert done.args == [True]
    layout = QPageLayout(
        QPageSize(QPageSize.PageSizeId.A4),
        QPageLayout.Orientation.Portrait,
        QMarginsF(MARGIN_MM, MARGIN_MM, MARGIN_MM, MARGIN_MM),
        QPageLayout.Unit.Millimeter,
    )
    with qtbot.waitSignal(view.page().pdfPrintingFinished, timeout=60_000) as printed:
        view.page().printToPdf(str(pdf), layout)
    assert printed.args[1] is True
    return view


def test_the_two_detector_report_prints_on_a4_without_cut_images(
    tmp_path: Path,
    qtbot,  # type: ignore[no-untyped-def]
) -> None:
    d, out = demo_paths(), tmp_path / "rep"
    args = ["report", "--gt", str(d.gt), "--det", str(d.det_a), "--det", str(d.det_b)]
    assert main([*args, "--worst", "2", "--out", str(out)]) == 0
    pdf = tmp_path / "report.pdf"
    view = _load_and_print(qtbot, out / "index.html", pdf)
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF-")
    pages = len(re.findall(rb"/Type /Page\b", data))
    assert pages > 1
    assert b"/MediaBox [0 0 594.9" in data  # A4: 210 x 297 mm = 595 x 842 pt
    sizes = json.loads(str(_js(qtbot, view, SIZES_JS)))
    plots = [s for s in sizes if s[0] >= 1000]
    assert len(plots) >= 10  # sweep, PR, attribution, buckets, histogram, scatter
    drawn = image_pages(data)
    assert sum(len(v) for k, v in drawn.items() if k[0] >= 1000) == len(plots)
    assert cut_images(data, sizes) == {}
    figures = json.loads(str(_js(qtbot, view, FIGURES_JS)))
    assert figures
    tall = [(src, round(h)) for src, h in figures if h > PRINT_H]
    assert tall == [], f"figures taller than an A4 page ({PRINT_H:.0f} px): {tall}"


def test_a_sliced_image_is_caught(tmp_path: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    """The PDF check can fail: an image three pages tall is sliced across pages."""
    from PySide6.QtGui import QColor, QImage

    img = QImage(400, 3000, QImage.Format.Format_RGB32)
    img.fill(QColor("steelblue"))
    assert img.save(str(tmp_path / "tall.png"))
    (tmp_path / "page.html").write_text(
        "<html><body><p>text</p><figure><img src='tall.png' style='width:100%'></figure>"
        "</body></html>",
        encoding="utf-8",
    )
    view = _load_and_print(qtbot, tmp_path / "page.html", tmp_path / "page.pdf")
    sizes = json.loads(str(_js(qtbot, view, SIZES_JS)))
    assert sizes == [[400, 3000]]
    assert cut_images((tmp_path / "page.pdf").read_bytes(), sizes)
