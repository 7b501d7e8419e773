"""The Analysis panel through pytest-qt: dragging the threshold line re-evaluates (summary
and table change, and equal the sweep), clicking an attribution bar filters the table to
the images losing H-mean to that class (largest loss first); plots export to PNG and SVG."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPointF
from PySide6.QtGui import QImage

from tests.support import wait_evaluated
from viewer.app.main_window import MainWindow
from viewer.export.window import session_state
from viewer.scene.view_state import ViewState


def _analysis(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    window.analysis_dock.show()
    qtbot.waitUntil(lambda: window.analysis.data is not None, timeout=60_000)


def test_dragging_the_threshold_re_evaluates(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    _analysis(qtbot, window)
    panel, s = window.analysis, window.session
    sw = panel.data.sweep
    assert sw is not None
    before = s.evaluation().hmean
    rows_before = [(r.sample_id, r.hmean) for r in window.samples.model.rows]
    k = len(sw.thresholds) * 2 // 3
    panel.line.setValue(float(sw.thresholds[k]))  # the drag ...
    assert f"{sw.scores()[k, 2]:.4f}" in panel.reading.text()  # ... reads at once
    panel.line.sigPositionChangeFinished.emit(panel.line)  # ... and the release
    assert s.score_threshold == float(sw.thresholds[k])
    wait_evaluated(qtbot, s)
    ev = s.evaluation()
    assert ev.hmean != before
    a = s.a  # the other metrics follow, at the same threshold
    qtbot.waitUntil(lambda: set(a.metric_ids()) <= set(a.evaluations), timeout=60_000)
    for m in a.metric_ids():
        assert sum(len(a.dataset[x].det) for x in a.evaluations[m].results) < sum(
            len(a.full_dataset[x].det) for x in a.evaluations[m].results
        )
    assert abs(ev.hmean - sw.scores()[k, 2]) < 1e-12
    rows_after = [(r.sample_id, r.hmean) for r in window.samples.model.rows]
    assert rows_after != rows_before
    assert f"H {ev.hmean:.4f}" in window.summary.text()
    state = session_state(s)  # the threshold travels with exports and --state
    assert state.score_threshold == float(sw.thresholds[k])
    assert ViewState.from_json(state.to_json()).score_threshold == state.score_threshold
    panel.clear_button.click()
    wait_evaluated(qtbot, s)
    assert s.score_threshold is None and abs(s.evaluation().hmean - before) < 1e-12


def test_clicking_an_attribution_bar_filters_the_table(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    _analysis(qtbot, window)
    panel = window.analysis
    bars = panel.attribution
    k = bars.keys.index("missed")
    scene = bars.w.getPlotItem().vb.mapViewToScene(QPointF(k, 0.01))

    class Click:
        def scenePos(self) -> QPointF:
            return scene

    panel._on_attribution_clicked(Click())
    losing = panel.data.attribution.losing("missed")
    assert losing
    assert window.samples.visible_ids() == [sid for sid, _ in losing]
    assert window.samples.focus_button.isVisible()
    window.samples.focus_button.click()
    assert len(window.samples.visible_ids()) == len(window.session.sample_ids())


def test_clicking_a_bucket_bar_lights_up_its_gts(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    _analysis(qtbot, window)
    panel, s = window.analysis, window.session
    panel.attr.setCurrentText("height")
    bars = panel.buckets
    scene = bars.w.getPlotItem().vb.mapViewToScene(QPointF(0, 0.01))

    class Click:
        def scenePos(self) -> QPointF:
            return scene

    panel._on_bucket_clicked(Click())
    bucket = panel.data.buckets["height"][0]
    assert window.samples.visible_ids() == list(dict.fromkeys(sid for sid, _ in bucket.gts))
    sid = window.samples.visible_ids()[0]
    s.set_sample(sid)
    lit = window.canvas.render_context().highlighted
    assert {("gt", i) for x, i in bucket.gts if x == sid} <= lit
    window.samples.focus_button.click()  # the filter off: nothing lit any more
    assert not s.focus_gts and not window.canvas.render_context().highlighted


def test_plots_export_png_and_svg(qtbot, window: MainWindow, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    _analysis(qtbot, window)
    files = window.analysis.export(tmp_path)
    pngs = [f for f in files if f.suffix == ".png"]
    assert len(pngs) >= 5 and len(files) == 2 * len(pngs)
    for f in pngs:
        img = QImage(str(f))
        assert not img.isNull() and img.width() > 100
    assert all("<svg" in f.read_text() for f in files if f.suffix == ".svg")


def _labels(w) -> list[str]:  # type: ignore[no-untyped-def]
    leg = w.getPlotItem().detlens_legend
    return [label.text for _, label in leg.items]


def test_a_comparison_analyses_both_sides(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    from tests.support import demo_dataset_paths

    s = window.session
    assert s.add_detections(demo_dataset_paths("a").det)
    wait_evaluated(qtbot, s)
    window.analysis_dock.show()
    panel = window.analysis
    qtbot.waitUntil(lambda: panel.data is not None and panel.data.b is not None, timeout=60_000)
    na, nb = s.names()
    data = panel.data
    assert (data.a.name, data.b.name) == (na, nb)
    sweep = _labels(panel.sweep_plot)  # the sweep and PR curves of A and B on one plot each
    assert f"hmean ({na})" in sweep and f"hmean ({nb})" in sweep
    assert {na, nb} <= set(_labels(panel.pr_plot))
    assert set(_labels(panel.attribution.w)) == {na, nb}  # attribution side by side
    assert set(_labels(panel.buckets.w)) == {na, nb}
    text = panel.tables.text()
    assert "B − A" in text and f"gain {nb}" in text  # per class and per bucket
    assert f"Images where {nb} loses or gains most against {na}" in text  # worst by ΔH
    assert f"Lowest H-mean under {na}" in text and f"Lowest H-mean under {nb}" in text
    assert panel.scatter_plot.isVisible()
    assert "side by side" in panel.status.text()
    grab = panel.grab()
    assert grab.width() > 600 and not grab.toImage().isNull()
