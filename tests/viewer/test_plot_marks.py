"""Every mark of the sweep and PR plots says what it is: each point and line drawn has a
legend entry, for every detector alike; a static plot (the report) has no threshold line
and no point at it, since it has no threshold."""

from __future__ import annotations

import itertools

import pyqtgraph as pg
import pytest

from metrics.api import evaluate
from metrics.catalogue.registry import make_params, resolve
from metrics.io.demo import demo_paths
from metrics.io.reader import load_dataset
from viewer.analysis import plots
from viewer.analysis.data import AnalysisData, compute


@pytest.fixture(scope="module")
def data() -> AnalysisData:
    d = demo_paths()
    ds_a, ds_b = load_dataset(d.gt, d.det_a), load_dataset(d.gt, d.det_b)
    ev_a, ev_b = evaluate(ds_a, metric="tiou"), evaluate(ds_b, metric="tiou")
    params = make_params(resolve("tiou"), None)
    return compute(
        ds_a, ev_a, params, ev_b, ("det_a", "det_b"), resamples=50, other_side=(ds_b, params)
    )


def _legend(w: pg.PlotWidget) -> list[tuple[object, str]]:
    return [(sample.item, label.text) for sample, label in w.getPlotItem().detlens_legend.items]


def _unlabelled(w: pg.PlotWidget) -> list[object]:
    """Marks (points, lines) in the plot without a legend entry of their own."""
    legend = _legend(w)
    entries = {id(item) for item, _ in legend}
    red_lines = [i for i, _ in legend if isinstance(i, pg.PlotDataItem) and i.opts["pen"]]
    out: list[object] = []
    for item in w.getPlotItem().items:
        if isinstance(item, pg.InfiniteLine):
            colour = item.pen.color().name()
            if not any(pg.mkPen(i.opts["pen"]).color().name() == colour for i in red_lines):
                out.append(item)
        elif isinstance(item, pg.PlotDataItem) and id(item) not in entries:
            out.append(item)
    return out


def _plot(qtbot) -> pg.PlotWidget:  # type: ignore[no-untyped-def]
    w = plots.new_plot()
    qtbot.addWidget(w)
    return w


def test_the_report_plots_mark_only_what_their_legend_names(qtbot, data: AnalysisData) -> None:  # type: ignore[no-untyped-def]
    sweep, pr = _plot(qtbot), _plot(qtbot)
    plots.draw_sweep(sweep, data, None, movable=False)
    plots.draw_pr(pr, data, None, movable=False)
    for w in (sweep, pr):
        assert _unlabelled(w) == []
        assert not [i for i in w.getPlotItem().items if isinstance(i, pg.InfiniteLine)]
        texts = [t for _, t in _legend(w)]
        per_side = 4 if w is sweep else 2  # curves and the best mark: no threshold marks
        assert len(texts) == per_side * len(data.sides)
        for side in data.sides:  # each detector's best threshold, alike
            assert side.sweep is not None
            assert plots.best_words(side.name, side.sweep.best_threshold) in texts


def test_the_panel_plots_name_the_threshold_line_and_its_points(qtbot, data: AnalysisData) -> None:  # type: ignore[no-untyped-def]
    sweep, pr = _plot(qtbot), _plot(qtbot)
    assert data.sweep is not None
    t = float(data.sweep.thresholds[len(data.sweep.thresholds) // 2])
    line = plots.draw_sweep(sweep, data, t)
    plots.draw_pr(pr, data, t)
    assert line in sweep.getPlotItem().items and line.value() == t
    assert _unlabelled(sweep) == [] and _unlabelled(pr) == []
    texts = [text for _, text in _legend(pr)]
    for side in data.sides:
        assert plots.threshold_words(side.name, t) in texts
    plots.draw_pr(pr, data, None)
    assert plots.threshold_words(data.b.name, None) in [text for _, text in _legend(pr)]  # type: ignore[union-attr]


@pytest.mark.parametrize("top", [1, 7, 23, 92, 184, 1234])
def test_the_histogram_counts_in_round_steps(qtbot, data: AnalysisData, top: int) -> None:  # type: ignore[no-untyped-def]
    """The y ticks step by 1, 2 or 5 times a power of ten (184 images gave 23, 46, 69 …)."""
    import dataclasses

    ids = [f"s{k}" for k in range(top)]  # ``top`` images in one bin
    w = _plot(qtbot)
    plots.draw_histogram(
        w,
        dataclasses.replace(
            data, a=dataclasses.replace(data.a, hmeans=dict.fromkeys(ids, 0.5)), b=None
        ),
    )
    (major,) = w.getAxis("left")._tickLevels
    values = [v for v, _ in major]
    step = values[1] - values[0]
    assert step in {k * 10**e for e in range(5) for k in (1, 2, 5)}
    assert values[0] == 0 and all(b - a == step for a, b in itertools.pairwise(values))
    assert values[-1] >= top and len(values) <= 10
