"""``detlens report`` on the demo data: an HTML page whose images exist and are real PNGs,
report.json with the numbers, refusals of outputs next to the inputs; the page opened in
QtWebEngine when it is installed."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from metrics.cli.main import main
from metrics.io.demo import demo_paths

os.environ.setdefault("QTWEBENGINE_CHROMIUM_FLAGS", "--no-sandbox")  # before WebEngine starts


def test_report_on_the_demo(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "rep"
    assert main(["report", "--out", str(out), "--worst", "3"]) == 0
    page = (out / "index.html").read_text(encoding="utf-8")
    assert "http://" not in page and "https://" not in page and "<script" not in page
    sources = re.findall(r"(?:src|href)='([^']+)'", page)
    assert sources
    for name in sources:
        assert (out / name).is_file(), name
        if name.endswith(".png"):
            img = QImage(str(out / name))
            assert not img.isNull() and img.width() > 50, name
    data = json.loads((out / "report.json").read_text())
    m = data["metrics"][0]
    assert m["metric"] == "tiou" and m["sweep"]["best_chosen_on"] == "the evaluated set itself"
    assert m["bootstrap"]["resamples"] == 10_000 and len(m["worst"]) == 3
    # every analysis for both sides: sweeps, attributions, buckets, B − A, images by ΔH
    assert [s["name"] for s in m["sides"]] == ["det_a", "det_b"]
    assert all(s["sweep"]["points"] and s["attribution"]["classes"] for s in m["sides"])
    split = next(c for c in m["classes_both"] if c["name"] == "split")
    assert split["impossible"].startswith("tiou has no split class")
    height = m["buckets_both"]["height"]
    assert {"a", "b", "delta_recall", "low", "high"} <= set(height[0])
    assert all(b["delta_recall"] == b["b"]["recall"] - b["a"]["recall"] for b in height)
    assert m["worst_groups"]["by_delta"] and m["worst_groups"]["by_hmean_b"]
    assert "tiou has no split class" in page and "class='na'" in page
    assert page.index("<table>") < page.index("<section>")  # headline figures first
    assert main(["report", "--out", str(out), "--worst", "1"]) == 0  # a report is replaced
    assert len(json.loads((out / "report.json").read_text())["metrics"][0]["worst"]) == 1
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]
    assert out.stat().st_mode & 0o755 == 0o755  # readable by others, like any folder


def test_report_refuses_the_input_folder(capsys: pytest.CaptureFixture[str]) -> None:
    d = demo_paths()
    assert main(["report", "--out", str(d.det_a)]) == 2
    assert "input" in capsys.readouterr().err


def test_report_page_in_a_browser(tmp_path: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    web = pytest.importorskip(
        "PySide6.QtWebEngineWidgets",
        reason="QtWebEngine not installed (pip install PySide6_Addons matching PySide6)",
    )
    from PySide6.QtCore import QUrl
    from PySide6.QtWebEngineCore import QWebEnginePage

    errors: list[str] = []

    class Page(QWebEnginePage):
        def javaScriptConsoleMessage(self, level, message, line, source):  # type: ignore[no-untyped-def]
            if level == QWebEnginePage.JavaScriptConsoleMessageLevel.ErrorMessageLevel:
                errors.append(f"{source}:{line}: {message}")

    out = tmp_path / "rep"
    assert main(["report", "--out", str(out), "--worst", "2"]) == 0
    view = web.QWebEngineView()
    qtbot.addWidget(view)
    view.setPage(Page(view))

    with qtbot.waitSignal(view.loadFinished, timeout=60_000) as done:
        view.load(QUrl.fromLocalFile(str(out / "index.html")))
    assert done.args == [True]
    broken: list[object] = []
    view.page().runJavaScript(
        "Array.from(document.images).filter(i => !(i.complete && i.naturalWidth > 0)).length",
        0,
        broken.append,
    )
    qtbot.waitUntil(lambda: bool(broken), timeout=10_000)
    assert broken == [0]
    view.resize(1400, 900)  # plots at the page's full width, pixels 1:1 (ticks >= 11 px)
    sizes: list[object] = []
    view.page().runJavaScript(
        "JSON.stringify(Array.from(document.querySelectorAll('figure.plot img')).map(i => "
        "[i.naturalWidth, Math.round(i.getBoundingClientRect().width), "
        "document.body.clientWidth]))",
        0,
        sizes.append,
    )
    qtbot.waitUntil(lambda: bool(sizes), timeout=10_000)
    plots = json.loads(str(sizes[0]))
    assert len(plots) >= 5
    for natural, shown, body in plots:
        assert natural >= 1000 and shown >= min(natural, body - 100) - 2, (natural, shown, body)
    assert errors == []


def test_an_empty_bucket_has_no_score() -> None:
    """A text-length bucket with GTs but no detection showed precision 0.0000."""
    from metrics.analysis.buckets import Bucket
    from viewer.analysis.tables import bucket_rows

    rows = bucket_rows([Bucket("≥ 11", 2, 0.5, 0.5, 0, 0.0), Bucket("2–3", 0, 0.0, 0.0, 3, 0.25)])
    assert rows == [("≥ 11", 2, "0.5000", 0, "–"), ("2–3", 0, "–", 3, "0.2500")]


def test_a_two_detector_report_fits_the_window(tmp_path: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    """Eight-column bucket tables (A, B, B − A, interval, both precisions) wider than the
    page made it scroll sideways; headers now wrap."""
    web = pytest.importorskip(
        "PySide6.QtWebEngineWidgets",
        reason="QtWebEngine not installed (pip install PySide6_Addons matching PySide6)",
    )
    from PySide6.QtCore import QUrl

    d, out = demo_paths(), tmp_path / "rep"
    args = ["report", "--gt", str(d.gt), "--det", str(d.det_a), "--det", str(d.det_b)]
    assert main([*args, "--worst", "1", "--out", str(out)]) == 0
    view = web.QWebEngineView()
    qtbot.addWidget(view)
    view.resize(900, 700)
    view.show()
    with qtbot.waitSignal(view.loadFinished, timeout=60_000):
        view.load(QUrl.fromLocalFile(str(out / "index.html")))
    widths: list[object] = []
    view.page().runJavaScript(
        "JSON.stringify([document.documentElement.scrollWidth, "
        "document.documentElement.clientWidth])",
        0,
        widths.append,
    )
    qtbot.waitUntil(lambda: bool(widths), timeout=10_000)
    scroll, client = json.loads(str(widths[0]))
    assert scroll <= client, (scroll, client)
