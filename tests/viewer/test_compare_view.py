"""Comparison in the viewer: two detectors (or two metrics), synchronized canvases, the
difference sort and filters, per-instance marks, both verdicts, and the GUI exports."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QImage

from metrics.cli.main import main
from metrics.io.demo import demo_paths
from tests.support import demo_dataset_paths, wait_evaluated
from viewer.app.main_window import MainWindow
from viewer.export.window import export_image, export_view
from viewer.widgets.sample_table import COLUMNS


def _compare(qtbot, det_b: bool = True) -> MainWindow:
    w = MainWindow()
    qtbot.addWidget(w)
    w.resize(1500, 900)
    w.show()
    assert w.open_paths(demo_dataset_paths("a"))
    wait_evaluated(qtbot, w.session)
    if det_b:
        assert w.session.add_detections(str(demo_paths().det_b))
        qtbot.waitUntil(
            lambda: bool(w.session.b.evaluations) and not w.session.is_busy(), timeout=60000
        )
    return w


def test_two_canvases_mirror_zoom_pan_and_selection(qtbot) -> None:
    w = _compare(qtbot)
    assert w.canvas_b.isVisible() and w.compare_bar.isVisible()
    assert w.session.names() == ["det_a", "det_b"]
    w.session.set_sample("img_7")
    w.canvas.fit()
    w.canvas.zoom(8.0)
    qtbot.wait(20)
    assert abs(w.canvas_b.transform().m11() - w.canvas.transform().m11()) < 1e-9
    w.canvas.horizontalScrollBar().setValue(w.canvas.horizontalScrollBar().value() + 40)
    ca = w.canvas.mapToScene(w.canvas.viewport().rect().center())
    cb = w.canvas_b.mapToScene(w.canvas_b.viewport().rect().center())
    assert abs(ca.x() - cb.x()) < 2 and abs(ca.y() - cb.y()) < 2
    w.session.select(("gt", 1))
    assert w.canvas_b.render_context().selected == ("gt", 1)
    qtbot.keyClick(w.canvas, Qt.Key.Key_D)  # navigation moves both
    assert w.canvas_b._content()[0].id == w.session.sample_id


def test_difference_sort_and_filters(qtbot) -> None:
    w = _compare(qtbot)
    panel = w.samples
    model = panel.model
    assert model.columnCount() > len(COLUMNS)
    delta_col = model.fields().index("delta")
    panel.view.sortByColumn(delta_col, Qt.SortOrder.AscendingOrder)
    ids = panel.visible_ids()
    rows = {r.sample_id: r for r in model.rows}
    deltas = [rows[i].delta for i in ids if rows[i].delta is not None]
    assert deltas == sorted(deltas) and deltas[0] < 0
    panel.kind_boxes["a_better"].setChecked(True)
    assert all(rows[i].delta < 0 for i in panel.visible_ids())
    panel.kind_boxes["a_better"].setChecked(False)
    panel.kind_boxes["a_only"].setChecked(True)
    found = panel.visible_ids()
    assert "img_7" in found and all(rows[i].a_only > 0 for i in found)
    assert "A: det_a" in w.summary.text() and "B − A" in w.summary.text()


def test_gts_treated_differently_are_marked_and_explained(qtbot) -> None:
    w = _compare(qtbot)
    w.session.set_sample("img_7")
    marked = w.canvas.render_context().marked
    assert {("gt", 1), ("gt", 2), ("gt", 3)} <= marked  # OPEN, DAILY, Books
    assert w.canvas_b.render_context().marked == marked
    w.session.select(("gt", 1))
    text = w.inspector.toPlainText()
    assert "A and B" in text and "det_b: missed" in text and "det_a: partial" in text


def test_swipe_and_blend_in_one_canvas(qtbot) -> None:
    w = _compare(qtbot)
    assert w.compare.slider.isHidden() and w.compare.slider_label.isHidden()  # side by side
    w.compare.mode.setCurrentIndex(1)  # swipe
    assert not w.compare.slider.isHidden() and w.compare.slider_label.text() == "divider"
    assert not w.canvas_b.isVisible() and w.canvas.mix_mode == "swipe"
    assert w.canvas._b_overlay is not None
    w.compare.slider.setValue(30)
    assert abs(w.canvas.mix - 0.3) < 1e-9
    w.compare.cycle()  # blend
    assert w.canvas.mix_mode == "blend" and w.compare.slider_label.text() == "B opacity"
    w.compare.name_b.setText("weaker")
    w.compare.name_b.editingFinished.emit()
    assert w.session.names()[1] == "weaker"


def test_metric_disagreement_on_one_detector(qtbot) -> None:
    w = _compare(qtbot, det_b=False)
    s = w.session
    s.set_metric("tiou")
    assert s.compare_metrics("ic15_iou")
    assert s.names() == ["tiou", "ic15_iou"]
    col = w.samples.model.fields().index("disagreement")
    w.samples.view.sortByColumn(col, Qt.SortOrder.DescendingOrder)
    ids = w.samples.visible_ids()
    rows = {r.sample_id: r for r in w.samples.model.rows}
    values = [rows[i].disagreement for i in ids if rows[i].disagreement is not None]
    assert values == sorted(values, reverse=True) and values[0] > 0


def test_gui_exports_and_their_state(qtbot, tmp_path: Path) -> None:
    w = _compare(qtbot)
    w.session.set_sample("img_4")
    qtbot.wait(20)
    one = export_view(w.view_widget(), tmp_path / "v1.png", w.session, 1.0)
    two = export_view(w.view_widget(), tmp_path / "v2.png", w.session, 2.0)
    assert QImage(str(two)).width() == 2 * QImage(str(one)).width()
    svg = export_view(w.view_widget(), tmp_path / "v.svg", w.session)
    assert "<svg" in svg.read_text()[:500]
    full = export_image(tmp_path / "full.png", w.session)
    assert QImage(str(full)).width() == 2 * 1024  # both detectors, full resolution
    state = json.loads((tmp_path / "full.json").read_text())
    assert state["sample"] == "img_4" and len(state["det"]) == 2
    assert state["names"] == ["det_a", "det_b"]
    shot = tmp_path / "restored.png"
    assert main(["view", "--state", str(tmp_path / "full.json"), "--screenshot", str(shot)]) == 0
    assert shot.exists()


def test_state_file_round_trips_into_the_command_line(qtbot, tmp_path: Path) -> None:
    from metrics.cli.main import build_parser
    from viewer.app.view import _apply_state
    from viewer.export.window import view_state, write_state

    w = _compare(qtbot)
    w.session.set_sample("img_5")
    w.session.set_layers(frozenset({"image", "gt", "det"}))
    path = write_state(tmp_path / "x.png", w.session, zoom=2.5)
    args = build_parser().parse_args(["view", "--state", str(path)])
    _apply_state(args)
    state = view_state(w.session, zoom=2.5)
    assert (args.gt, args.det, args.sample, args.metric) == (
        state["gt"],
        state["det"],
        "img_5",
        w.session.metric,
    )
    assert set(args.layers.split(",")) == {"image", "gt", "det"}
    assert args.zoom == 2.5 and args.names == ["det_a", "det_b"]


def test_a_comparison_opens_on_the_largest_difference_with_a_columns_named(qtbot) -> None:
    w = _compare(qtbot)
    rows = {r.sample_id: r for r in w.samples.model.rows}
    qtbot.waitUntil(lambda: w.session.sample_id == w.samples.visible_ids()[0], timeout=10000)
    top = rows[w.session.sample_id]
    assert top.delta is not None
    assert abs(top.delta) == max(abs(r.delta) for r in rows.values() if r.delta is not None)
    header = w.samples.model.headerData
    names = [header(k, Qt.Orientation.Horizontal) for k in range(len(COLUMNS))]
    assert names[:4] == ["sample", "GT", "det(A)", "R(A)"] and "H(A)" in names


def _visible(view) -> tuple[float, float, float, float]:
    r = view.mapToScene(view.viewport().rect()).boundingRect()
    return r.left(), r.top(), r.right(), r.bottom()


def test_comparing_fits_the_boxes_not_the_image(qtbot) -> None:
    # demo img_4 is 1024 x 768 with its words in x 120..860, y 60..580: fitted to the image,
    # each half-width canvas showed them in a middle band; now the boxes (with a small
    # margin) fill the canvas in side by side, swipe and blend alike
    w = _compare(qtbot)
    w.session.set_sample("img_4")
    for mode in (0, 1, 2):  # side by side, swipe, blend
        w.compare.mode.setCurrentIndex(mode)
        qtbot.wait(20)
        w.canvas.fit()
        x0, y0, x1, y1 = _visible(w.canvas)
        assert x0 >= 60 and x1 <= 930, (mode, x0, x1)  # not the image's 0..1024
        assert x0 <= 120 and x1 >= 860 and y0 <= 60 and y1 >= 580  # every word in view
    w.session.close_comparison()
    qtbot.wait(20)
    w.canvas.fit()
    x0, _, x1, _ = _visible(w.canvas)
    assert x0 <= 1 and x1 >= 1023  # one detector: the whole image, as before
