"""No figure that is not a score, in the report and the viewer's summary (issue 26, point
2): a metric that skipped images says on how many of the set it scored; where it read fewer
than half of them there is no R / P / H but why; B − A covers the images both evaluated."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from metrics.cli.main import main
from tests.support import partial_set, wait_evaluated
from viewer.app.main_window import MainWindow
from viewer.app.paths import DatasetPaths


def _text(page: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))


def test_report_header_and_table_say_what_was_read(
    qtbot, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gt, det = partial_set(tmp_path, 4, ccw={1, 2, 3})
    out = tmp_path / "rep"
    assert (
        main(["report", "--gt", str(gt), "--det", str(det), "--worst", "1", "--out", str(out)]) == 0
    )
    page = (out / "index.html").read_text(encoding="utf-8")
    head = _text(page[page.index("<h1>") : page.index("<h2>")])
    assert "tiou on det: on 1 of 4 images; no score: 1 of 4 images read, fewer than half" in head
    assert "det.zip:res_img_1.txt:1: error: points are not clockwise" in head
    assert "fix: --set tiou.check_orientation=false" in head
    start = page.index("<h2>")  # the metric's own table (the headline table comes first)
    table = _text(page[start : page.index("</table>", start)])
    assert "det – – – 1 of 4" in table and "1.0000" not in table
    side = json.loads((out / "report.json").read_text())["metrics"][0]["sides"][0]
    assert side["hmean"] == 1.0 and side["coverage"]["score"] is False


def test_report_of_a_few_skipped_images_keeps_the_figure(
    qtbot, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gt, det = partial_set(tmp_path, 4, ccw={3})
    out = tmp_path / "rep"
    assert (
        main(["report", "--gt", str(gt), "--det", str(det), "--worst", "1", "--out", str(out)]) == 0
    )
    page = (out / "index.html").read_text(encoding="utf-8")
    assert "tiou on det: on 3 of 4 images; 1 skipped (input errors)" in _text(page)
    assert "det 1.0000 1.0000 1.0000 3 of 4" in _text(page)


def _window(qtbot, gt: Path, det: Path) -> MainWindow:
    w = MainWindow()
    qtbot.addWidget(w)
    w.resize(1400, 800)
    w.show()
    assert w.open_paths(DatasetPaths(str(gt), str(det)))
    wait_evaluated(qtbot, w.session)
    return w


def test_summary_of_a_set_read_in_part(qtbot, tmp_path: Path) -> None:
    gt, det = partial_set(tmp_path, 4, ccw={1, 2, 3})
    w = _window(qtbot, gt, det)
    assert w.session.metric == "tiou"
    text = w.summary.text()
    assert "R – · P – · H –" in text and "H 1.0000" not in text
    assert "on 1 of 4 images: no score: 1 of 4 images read, fewer than half" in text
    assert "fix: --set tiou.check_orientation=false" in text


def test_summary_of_a_comparison_is_on_the_images_both_evaluated(qtbot, tmp_path: Path) -> None:
    """A skips two images where B missed a word: B − A on the two images both evaluated
    is 0, not B's 4-image score minus A's 2-image one."""
    gt, det_a = partial_set(tmp_path, 4, ccw={2, 3}, name="a")
    _, det_b = partial_set(tmp_path, 4, miss={2, 3}, name="b")
    w = _window(qtbot, gt, det_a)
    assert w.session.add_detections(str(det_b))
    qtbot.waitUntil(
        lambda: bool(w.session.b.evaluations) and not w.session.is_busy(), timeout=60000
    )
    text = w.summary.text()
    assert "H 1.0000 (on 2 of 4 images)" in text  # A
    assert "B − A (on the 2 images both evaluated)</b>: R +0.0000 · P +0.0000 · H +0.0000" in text
