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
from PySide6.QtGui import QFont, QPainter
from PySide6.QtSvg import QSvgGenerator

from metrics.analysis.attribution import ClassGain
from metrics.analysis.buckets import Bucket
from metrics.analysis.fixes import ALL
from viewer.analysis.data import AnalysisData

pg.setConfigOptions(antialias=True, background="w", foreground="k")

COLORS = {"recall": "#1f77b4", "precision": "#ff7f0e", "hmean": "#2ca02c", "bar": "#5b8db8"}
SIDE_COLORS = ("#5b8db8", "#e07b39")  # A, B
GREY = "#c8c8c8"
SHORT = {"false_positive": "false pos.", "localisation": "localis.", "multiline": "multi-line"}
TITLES = {
    "sweep": "H-mean, recall and precision against the score threshold",
    "pr": "Precision against recall over the score thresholds",
    "attribution": "Where the H-mean goes: ΔH per error class fixed",
    "buckets": "Recall by GT attribute",
    "histogram": "Images by their H-mean",
    "scatter": "Per-image H-mean: A against B",
}
ATTRIBUTE_WORDS = {
    "height": "box height",
    "aspect": "aspect ratio (long side / short side)",
    "angle": "angle of the box",
    "shape": "box shape",
    "vertical": "vertical text",
    "text_length": "text length (characters)",
}
FONT_PX = 13  # tick labels and axis labels: >= 11 px when the report shows a plot at 1:1


def _font(px: int) -> QFont:
    f = QFont()
    f.setPixelSize(px)
    return f


def new_plot(title: str = "") -> pg.PlotWidget:
    w = pg.PlotWidget()
    w.setTitle(title, size=f"{FONT_PX + 1}px")
    w.showGrid(x=True, y=True, alpha=0.25)
    w.setMouseEnabled(x=False, y=False)
    w.setMenuEnabled(False)
    w.hideButtons()
    for side in ("left", "bottom"):
        axis = w.getAxis(side)
        axis.enableAutoSIPrefix(False)
        axis.setTickFont(_font(FONT_PX))
        axis.label.setFont(_font(FONT_PX))
    return w


def set_title(w: pg.PlotWidget, title: str) -> None:
    w.setTitle(title, size=f"{FONT_PX + 1}px")


def legend(w: pg.PlotWidget, columns: int = 3) -> pg.LegendItem:
    """A legend under the plot, off the curves (a row of the plot's own layout)."""
    item = w.getPlotItem()
    old = getattr(item, "detlens_legend", None)
    if old is not None:
        old.clear()
        old.setColumnCount(columns)
        return old
    leg = pg.LegendItem(labelTextSize=f"{FONT_PX}px", colCount=columns)
    item.layout.addItem(leg, 4, 1)
    item.detlens_legend = leg
    return leg


def _fit(values: Sequence[float], low: float = 0.0, high: float = 1.0) -> tuple[float, float]:
    """A range that fits ``values`` within [low, high] with a small margin."""
    v = np.asarray([x for x in values if np.isfinite(x)], float)
    if not len(v):
        return low, high
    lo, hi = float(v.min()), float(v.max())
    pad = max(0.02, 0.05 * (hi - lo))
    return max(low, lo - pad), min(high, hi + pad)


THRESHOLD_RED = "#d62728"
SIDE_SYMBOLS = ("o", "s")  # A's marks round, B's square: each mark says whose it is


def _mark(w: pg.PlotWidget, x: float, y: float, n: int, brush: str) -> pg.PlotDataItem:
    """One point mark of side ``n`` (its own symbol), outlined so it reads on any curve."""
    return w.plot(
        [x],
        [y],
        pen=None,
        symbol=SIDE_SYMBOLS[n % 2],
        symbolSize=11,
        symbolBrush=brush,
        symbolPen=pg.mkPen("k", width=1),
    )


def best_words(name: str, threshold: float) -> str:
    """The legend entry of a side's best-H-mean mark (the same on the sweep and PR plots)."""
    return f"best H-mean of {name}: ≥ {threshold:.3g} (on this set)"


def threshold_words(name: str, threshold: float | None) -> str:
    """The legend entry of a side's point at the panel's threshold line (None: every
    detection kept)."""
    return (
        f"{name}, all kept" if threshold is None else f"{name} at the red line (≥ {threshold:.3g})"
    )


def draw_sweep(
    w: pg.PlotWidget, data: AnalysisData, threshold: float | None, *, movable: bool = True
) -> pg.InfiniteLine:
    """H, R, P against the threshold for each side (B dashed), each side's best H-mean
    marked; with ``movable`` (the panel) a draggable threshold line on A's thresholds, in
    the legend too. The line is returned; a static plot (the report) does not show it."""
    w.clear()
    leg = legend(w, 2 if data.b is not None else 3)  # both sides: long labels, two columns
    w.setLabel("bottom", "score threshold (detections with confidence ≥ it kept)")
    w.setLabel("left", "score")
    pen = pg.mkPen(THRESHOLD_RED, width=2)
    line = pg.InfiniteLine(angle=90, movable=True, pen=pen)
    sw = data.sweep
    if sw is None:
        set_title(w, data.note or "no threshold sweep")
        return line
    set_title(w, TITLES["sweep"])
    styles = (pg.QtCore.Qt.PenStyle.SolidLine, pg.QtCore.Qt.PenStyle.DashLine)
    lows: list[float] = []
    for n, (side, style) in enumerate(zip(data.sides, styles, strict=False)):
        if side.sweep is None:
            continue
        sc = side.sweep.scores()
        lows.append(float(sc.min()))
        for k, name in enumerate(("recall", "precision", "hmean")):
            curve = w.plot(
                side.sweep.thresholds, sc[:, k], pen=pg.mkPen(COLORS[name], width=2, style=style)
            )
            leg.addItem(curve, f"{name} ({side.name})" if data.b is not None else name)
        best = side.sweep.best_index
        t_best = float(side.sweep.thresholds[best])
        leg.addItem(
            _mark(w, t_best, sc[best, 2], n, COLORS["hmean"]), best_words(side.name, t_best)
        )
    lo = min(
        float(sw.thresholds[0]), *(float(s.sweep.thresholds[0]) for s in data.sides if s.sweep)
    )
    hi = max(
        float(sw.thresholds[-1]), *(float(s.sweep.thresholds[-1]) for s in data.sides if s.sweep)
    )
    w.setXRange(lo, hi, padding=0.02)
    w.setYRange(max(0.0, min(lows) - 0.05), 1.0, padding=0.02)
    line.setBounds((float(sw.thresholds[0]), float(sw.thresholds[-1])))
    line.setValue(float(sw.thresholds[0]) if threshold is None else threshold)
    if movable:
        w.addItem(line)
        leg.addItem(pg.PlotDataItem([], [], pen=pen), "score threshold (drag the red line)")
    return line


def draw_pr(
    w: pg.PlotWidget, data: AnalysisData, threshold: float | None, *, movable: bool = True
) -> None:
    """Precision against recall of each side, each side's best H-mean marked; with
    ``movable`` (the panel, which has the threshold line) each side's point at
    ``threshold`` too (None: every detection kept)."""
    w.clear()
    leg = legend(w, 2 if data.b is not None else 3)
    w.setLabel("bottom", "recall")
    w.setLabel("left", "precision")
    set_title(w, TITLES["pr"])
    xs: list[float] = []
    ys: list[float] = []
    marks: list[tuple[pg.PlotDataItem, str]] = []
    for n, (side, color) in enumerate(zip(data.sides, SIDE_COLORS, strict=False)):
        if side.sweep is None:
            continue
        sw = side.sweep
        sc = sw.scores()
        leg.addItem(w.plot(sc[:, 0], sc[:, 1], pen=pg.mkPen(color, width=2)), side.name)
        xs += sc[:, 0].tolist()
        ys += sc[:, 1].tolist()
        b = sw.best_index
        marks.append(
            (_mark(w, sc[b, 0], sc[b, 1], n, color), best_words(side.name, sw.best_threshold))
        )
        if movable:
            k = sw.index_at(threshold) if threshold is not None else 0
            dot = _mark(w, sc[k, 0], sc[k, 1], n, THRESHOLD_RED)
            marks.append((dot, threshold_words(side.name, threshold)))
    for item, words in marks:
        leg.addItem(item, words)
    w.setXRange(*_fit(xs), padding=0)
    w.setYRange(*_fit(ys), padding=0)


class BarPlot:
    """Bars with a key each (one group of bars per key: A and B); ``key_at`` maps a scene
    click to the key of the group under it."""

    def __init__(self, w: pg.PlotWidget) -> None:
        self.w = w
        self.keys: list[str] = []

    def draw(self, keys: Sequence[str], labels: Sequence[str], values: Sequence[float]) -> None:
        self.draw_groups(keys, labels, [("", list(values))])

    def draw_groups(
        self,
        keys: Sequence[str],
        labels: Sequence[str],
        series: Sequence[tuple[str, Sequence[float]]],
        greyed: Sequence[bool] = (),
        y_range: tuple[float, float] | None = None,
    ) -> None:
        """One bar per series in each group (A, B); a greyed group is drawn empty, labelled
        "n/a" (a class the metric cannot have)."""
        self.w.clear()
        self.keys = list(keys)
        width = 0.8 / max(1, len(series))
        leg = legend(self.w) if len(series) > 1 else None
        all_values: list[float] = [0.0]
        for n, (name, values) in enumerate(series):
            x = np.arange(len(values), dtype=float) + (n - (len(series) - 1) / 2) * width
            v = np.asarray(values, float)
            brushes = [
                GREY if k < len(greyed) and greyed[k] else SIDE_COLORS[n % 2] for k in range(len(v))
            ]
            bars = pg.BarGraphItem(x=x, height=v, width=width * 0.9, brushes=brushes)
            self.w.addItem(bars)
            if leg is not None:  # a square of the side's colour (the bars have several)
                swatch = pg.BarGraphItem(x=[], height=[], width=1, brush=SIDE_COLORS[n % 2])
                leg.addItem(swatch, name)
            for xi, vi, k in zip(x, v, range(len(v)), strict=True):
                text = "n/a" if k < len(greyed) and greyed[k] else f"{vi:.3f}"
                item = pg.TextItem(text, color="k", anchor=(0.5, 1.0 if vi >= 0 else 0.0))
                item.setFont(_font(FONT_PX - 1))
                item.setPos(float(xi), float(vi))
                self.w.addItem(item)
            all_values += v.tolist()
        axis = self.w.getAxis("bottom")
        axis.setTicks([list(zip(np.arange(len(labels)).tolist(), labels, strict=True))])
        axis.setHeight(2 * FONT_PX + 16)  # two-line labels
        self.w.setXRange(-0.6, max(len(labels) - 0.4, 0.6), padding=0)
        if y_range is None:
            lo, hi = min(all_values), max(all_values)
            pad = 0.12 * (hi - lo or 1.0)
            y_range = (lo - pad if lo < 0 else 0.0, hi + pad)
        self.w.setYRange(*y_range, padding=0)

    def key_at(self, scene_pos: QPointF) -> str | None:
        p = self.w.getPlotItem().vb.mapSceneToView(scene_pos)
        k = round(p.x())
        return self.keys[k] if 0 <= k < len(self.keys) and abs(p.x() - k) <= 0.45 else None


def draw_attribution(bars: BarPlot, data: AnalysisData) -> None:
    """ΔH per class fixed, A and B side by side; classes the metric cannot have greyed."""
    a = data.attribution
    bars.w.setLabel("left", "ΔH-mean when the class is fixed")
    if not a.classes:
        bars.draw([], [], [])
        set_title(bars.w, f"no attribution: {a.note}")
        return
    cls = [c for c in a.classes if c.name != ALL]
    theirs = {p.name: p.b for p in data.classes}
    series = [(data.a.name, [c.gain for c in cls])]
    if data.b is not None:
        series.append(
            (data.b.name, [theirs[c.name].gain if c.name in theirs else 0.0 for c in cls])
        )
    greyed = [bool(c.impossible) for c in cls]
    labels = [f"{SHORT.get(c.name, c.name)}\n{_counts(c, theirs.get(c.name))}" for c in cls]
    bars.draw_groups([c.name for c in cls], labels, series, greyed)
    everything = next((c for c in a.classes if c.name == ALL), None)
    if everything is not None:
        set_title(
            bars.w,
            f"ΔH per error class fixed (A: all fixed {a.hmean:.3f} → {everything.hmean:.3f})",
        )


def _counts(a: ClassGain, b: ClassGain | None) -> str:
    """The class's count under A (and B): "n/a" where the metric cannot have it."""
    if a.impossible:
        return "n/a"
    return f"{a.count:g}" if b is None else f"{a.count:g} | {b.count:g}"


def draw_buckets(
    bars: BarPlot, attr: str, items: Sequence[Bucket], data: AnalysisData | None = None
) -> None:
    """Recall per bucket of ``attr``; A and B side by side when comparing."""
    bars.w.setLabel("left", "recall")
    b_side = data.b if data is not None else None
    pairs = data.bucket_pairs.get(attr) if data is not None and b_side is not None else None
    if data is not None and b_side is not None and pairs:
        series = [
            (data.a.name, [p.a.recall for p in pairs]),
            (b_side.name, [p.b.recall for p in pairs]),
        ]
        labels = [f"{p.label}\n{p.a.n_gt} GT" for p in pairs]
        bars.draw_groups([p.label for p in pairs], labels, series, y_range=(0.0, 1.1))
    else:
        labels = [f"{b.label}\n{b.n_gt} GT" for b in items]
        bars.draw_groups(
            [b.label for b in items], labels, [("", [b.recall for b in items])], y_range=(0.0, 1.1)
        )
    bars.w.getAxis("left").setTicks([[(v / 5, f"{v / 5:.1f}") for v in range(6)]])
    set_title(
        bars.w, f"Recall by {ATTRIBUTE_WORDS.get(attr, attr)} (GT boxes of each bucket under it)"
    )


def draw_histogram(w: pg.PlotWidget, data: AnalysisData) -> None:
    """How many images have each H-mean (20 bins), one step curve per side."""
    w.clear()
    leg = legend(w)
    top = 1
    for side, color in zip(data.sides, SIDE_COLORS, strict=False):
        values = np.asarray(list(side.hmeans.values()), float)
        counts, edges = np.histogram(values, bins=20, range=(0.0, 1.0))
        fill = pg.mkBrush(color + ("80" if data.b is not None else "ff"))
        curve = w.plot(
            edges, counts, stepMode="center", fillLevel=0, brush=fill, pen=pg.mkPen(color, width=2)
        )
        leg.addItem(curve, side.name)
        top = max(top, int(counts.max(initial=0)))
    step = next(k * 10**e for e in range(12) for k in (1, 2, 5) if 8 * k * 10**e >= top)
    w.getAxis("left").setTicks([[(float(v), str(v)) for v in range(0, top + step + 1, step)]])
    w.setXRange(0.0, 1.0, padding=0.01)
    w.setYRange(0, top * 1.05, padding=0)
    w.setLabel("bottom", "H-mean of the image")
    w.setLabel("left", "images")
    set_title(w, TITLES["histogram"])


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
    w.getPlotItem().vb.setRange(xRange=(0, 1.0), yRange=(0, 1.0), padding=0.02)
    boot = data.bootstrap
    if boot is not None:
        set_title(
            w, f"Per-image H-mean; ΔH (B − A) {boot.delta:+.4f} [{boot.low:+.4f}, {boot.high:+.4f}]"
        )
    else:
        set_title(w, TITLES["scatter"])
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
