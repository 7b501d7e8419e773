"""The Analysis plots, drawn with pyqtgraph into a ``PlotWidget`` (the panel shows them, the
report renders the same widgets offscreen and exports them to PNG and SVG).

Each ``draw_*`` clears the plot and draws from ``viewer.analysis.data.AnalysisData``;
bars carry their keys (``BarPlot.keys``) so a click can say which bar it hit.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pyqtgraph as pg
import pyqtgraph.exporters as pg_exporters
from PySide6.QtCore import QPointF, QRect
from PySide6.QtGui import QPainter
from PySide6.QtSvg import QSvgGenerator

from metrics.analysis.buckets import Bucket
from metrics.analysis.fixes import ALL
from viewer.analysis.data import AnalysisData

pg.setConfigOptions(antialias=True, background="w", foreground="k")

COLORS = {"recall": "#1f77b4", "precision": "#ff7f0e", "hmean": "#2ca02c", "bar": "#5b8db8"}
SHORT = {"false_positive": "false pos.", "localisation": "localis.", "multiline": "multi-line"}
TITLES = {
    "sweep": "H-mean, recall and precision against the score threshold",
    "pr": "Precision–recall over the score thresholds",
    "attribution": "Where the H-mean goes: ΔH per error class fixed",
    "buckets": "Recall by GT attribute",
    "histogram": "Per-image H-mean",
    "scatter": "Per-image H-mean: A against B",
}


def new_plot(title: str = "") -> pg.PlotWidget:
    w = pg.PlotWidget()
    w.setTitle(title)
    w.showGrid(x=True, y=True, alpha=0.25)
    w.setMouseEnabled(x=False, y=False)
    w.setMenuEnabled(False)
    w.hideButtons()
    for side in ("left", "bottom"):
        w.getAxis(side).enableAutoSIPrefix(False)
    return w


def draw_sweep(w: pg.PlotWidget, data: AnalysisData, threshold: float | None) -> pg.InfiniteLine:
    """H, R, P against the threshold and a draggable threshold line (returned)."""
    w.clear()
    w.addLegend(offset=(-10, -10))
    w.setLabel("bottom", "score threshold (detections with confidence ≥ it kept)")
    w.setLabel("left", "score")
    w.setYRange(0, 1.02)
    sw = data.sweep
    line = pg.InfiniteLine(angle=90, movable=True, pen=pg.mkPen("#d62728", width=2))
    if sw is None:
        w.setTitle(data.note or "no threshold sweep")
        return line
    w.setTitle(TITLES["sweep"])
    sc = sw.scores()
    for k, name in enumerate(("recall", "precision", "hmean")):
        w.plot(sw.thresholds, sc[:, k], pen=pg.mkPen(COLORS[name], width=2), name=name)
    best = sw.best_index
    w.plot(
        [sw.thresholds[best]],
        [sc[best, 2]],
        pen=None,
        symbol="o",
        symbolBrush=COLORS["hmean"],
        name=f"best {sw.thresholds[best]:.3g} (on this set)",
    )
    line.setBounds((float(sw.thresholds[0]), float(sw.thresholds[-1])))
    line.setValue(float(sw.thresholds[0]) if threshold is None else threshold)
    w.addItem(line)
    return line


def draw_pr(w: pg.PlotWidget, data: AnalysisData, threshold: float | None) -> None:
    w.clear()
    w.setLabel("bottom", "recall")
    w.setLabel("left", "precision")
    w.setXRange(0, 1.02)
    w.setYRange(0, 1.02)
    sw = data.sweep
    if sw is None:
        return
    sc = sw.scores()
    w.plot(sc[:, 0], sc[:, 1], pen=pg.mkPen(COLORS["hmean"], width=2))
    k = sw.index_at(threshold) if threshold is not None else 0
    w.plot([sc[k, 0]], [sc[k, 1]], pen=None, symbol="o", symbolBrush="#d62728")


class BarPlot:
    """Bars with a key each; ``key_at`` maps a scene click to the bar's key."""

    def __init__(self, w: pg.PlotWidget) -> None:
        self.w = w
        self.keys: list[str] = []

    def draw(self, keys: Sequence[str], labels: Sequence[str], values: Sequence[float]) -> None:
        self.w.clear()
        self.keys = list(keys)
        x = np.arange(len(values), dtype=float)
        bars = pg.BarGraphItem(
            x=x, height=np.asarray(values, float), width=0.7, brush=COLORS["bar"]
        )
        self.w.addItem(bars)
        axis = self.w.getAxis("bottom")
        axis.setTicks([list(zip(x.tolist(), labels, strict=True))])
        axis.setHeight(44)  # two-line labels
        for xi, v in zip(x, values, strict=True):
            text = pg.TextItem(f"{v:.3f}", color="k", anchor=(0.5, 1.0))
            text.setPos(float(xi), float(v))
            self.w.addItem(text)
        self.w.setXRange(-0.6, max(len(values) - 0.4, 0.6))

    def key_at(self, scene_pos: QPointF) -> str | None:
        p = self.w.getPlotItem().vb.mapSceneToView(scene_pos)
        k = round(p.x())
        return self.keys[k] if 0 <= k < len(self.keys) and abs(p.x() - k) <= 0.4 else None


def draw_attribution(bars: BarPlot, data: AnalysisData) -> None:
    a = data.attribution
    bars.w.setLabel("left", "ΔH-mean")
    if not a.classes:
        bars.draw([], [], [])
        bars.w.setTitle(f"no attribution: {a.note}")
        return
    cls = [c for c in a.classes if c.name != ALL]
    everything = next((c for c in a.classes if c.name == ALL), None)
    labels = [f"{SHORT.get(c.name, c.name)}\n{c.errors}" for c in cls]
    bars.draw([c.name for c in cls], labels, [c.gain for c in cls])
    if everything is not None:
        bars.w.setTitle(f"ΔH per class fixed (all: {a.hmean:.3f} → {everything.hmean:.3f})")


def draw_buckets(bars: BarPlot, attr: str, items: Sequence[Bucket]) -> None:
    bars.w.setLabel("left", "recall")
    bars.draw(
        [b.label for b in items],
        [f"{b.label}\n{b.n_gt} GT" for b in items],
        [b.recall for b in items],
    )
    bars.w.setYRange(0, 1.1)
    bars.w.setTitle(f"Recall by {attr} (GTs under the bars)")


def draw_histogram(w: pg.PlotWidget, data: AnalysisData) -> None:
    w.clear()
    values = np.asarray(list(data.hmeans.values()), float)
    counts, edges = np.histogram(values, bins=20, range=(0.0, 1.0))
    w.plot(edges, counts, stepMode="center", fillLevel=0, brush=COLORS["bar"], pen="k")
    w.setLabel("bottom", "H-mean of the image")
    w.setLabel("left", "images")


def draw_scatter(w: pg.PlotWidget, data: AnalysisData) -> pg.ScatterPlotItem:
    w.clear()
    a, b = data.names
    w.setLabel("bottom", f"H-mean under A ({a})")
    w.setLabel("left", f"H-mean under B ({b})")
    w.plot([0, 1], [0, 1], pen=pg.mkPen("#999", style=pg.QtCore.Qt.PenStyle.DashLine))
    ids = list(data.pairs)
    xy = np.asarray([data.pairs[s] for s in ids], float).reshape(-1, 2)
    scatter = pg.ScatterPlotItem(
        x=xy[:, 0], y=xy[:, 1], data=ids, size=8, brush=pg.mkBrush(31, 119, 180, 140)
    )
    w.addItem(scatter)
    w.getPlotItem().vb.setRange(xRange=(0, 1.02), yRange=(0, 1.02), padding=0)
    boot = data.bootstrap
    if boot is not None:
        w.setTitle(f"ΔH (B − A) {boot.delta:+.4f} [{boot.low:+.4f}, {boot.high:+.4f}]")
    return scatter


def export(w: pg.PlotWidget, stem: Path, width: int = 900) -> tuple[Path, Path]:
    """The plot as ``stem.png`` (``width`` pixels wide) and ``stem.svg``."""
    png, svg = stem.with_suffix(".png"), stem.with_suffix(".svg")
    image = pg_exporters.ImageExporter(w.getPlotItem())
    image.parameters()["width"] = width
    image.export(str(png))
    # pyqtgraph's own SVGExporter fails on this Qt (it cannot parse the paths Qt writes);
    # Qt's SVG generator paints the same scene as vectors
    gen = QSvgGenerator()
    gen.setFileName(str(svg))
    gen.setSize(w.size())
    gen.setViewBox(QRect(0, 0, w.width(), w.height()))
    gen.setTitle(w.getPlotItem().titleLabel.text or "detlens plot")
    painter = QPainter(gen)
    try:
        w.render(painter)
    finally:
        painter.end()
    return png, svg
