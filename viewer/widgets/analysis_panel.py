"""The Analysis panel: threshold sweep with a draggable threshold, PR curve, error
attribution, recall by GT attribute, per-image H-mean histogram and, when comparing, the
scatter of H(A) against H(B). Plots from ``viewer.analysis.plots`` (shared with ``detlens
report``), data from the engine (``metrics.analysis``) computed off the UI thread.

Dragging the threshold line shows the dataset's recall, precision and H-mean at once (from
the sweep's tallies); releasing it sets the session's score threshold, which re-evaluates
the current image first and then the dataset. Clicking an attribution bar shows in the
sample table the images that lose H-mean to that class, largest loss first; clicking a
bucket shows the images with GTs in it, lights those GTs up on the canvas and selects the
first such GT of the image shown.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from viewer.analysis import plots
from viewer.analysis.data import AnalysisData
from viewer.analysis.tables import tables_html
from viewer.analysis.worker import AnalysisWorker
from viewer.app.session import Session

PLOT_MIN_HEIGHT = 240


class AnalysisPanel(QWidget):
    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.data: AnalysisData | None = None
        self._worker: AnalysisWorker | None = None
        self._retired: list[AnalysisWorker] = []  # superseded, still running
        self._key: tuple[object, ...] | None = None
        self.status = QLabel("Analysis: open a dataset")
        self.status.setWordWrap(True)
        self.reading = QLabel("")
        self.clear_button = QPushButton("All detections")
        self.clear_button.clicked.connect(lambda: self.session.set_score_threshold(None))
        self.attr = QComboBox()
        self.attr.currentTextChanged.connect(lambda _: self._draw_buckets())
        self.export_button = QPushButton("Export plots…")
        self.export_button.clicked.connect(self._on_export_clicked)
        top = QHBoxLayout()
        top.addWidget(self.reading, 1)
        top.addWidget(self.clear_button)
        top.addWidget(QLabel("bucket by"))
        top.addWidget(self.attr)
        top.addWidget(self.export_button)
        self.sweep_plot = plots.new_plot(plots.TITLES["sweep"])
        self.pr_plot = plots.new_plot(plots.TITLES["pr"])
        self.attribution = plots.BarPlot(plots.new_plot(plots.TITLES["attribution"]))
        self.buckets = plots.BarPlot(plots.new_plot(plots.TITLES["buckets"]))
        self.histogram = plots.new_plot(plots.TITLES["histogram"])
        self.scatter_plot = plots.new_plot(plots.TITLES["scatter"])
        self.line = plots.draw_sweep(self.sweep_plot, _empty(), None)
        holder = QWidget()
        self.grid = QGridLayout(holder)
        for w in self.plot_widgets().values():
            w.setMinimumHeight(PLOT_MIN_HEIGHT)
        self.tables = QLabel("")  # attribution and buckets of A (and B, B − A), by ΔH
        self.tables.setTextFormat(Qt.TextFormat.RichText)
        self.tables.setWordWrap(True)
        self.tables.linkActivated.connect(self.session.set_sample)
        self._columns = 0
        self._arrange(3)
        scroll = QScrollArea()
        scroll.setWidget(holder)
        scroll.setWidgetResizable(True)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        layout = QVBoxLayout(self)
        layout.addWidget(self.status)
        layout.addLayout(top)
        layout.addWidget(scroll, 1)
        self.attribution.w.scene().sigMouseClicked.connect(self._on_attribution_clicked)
        self.buckets.w.scene().sigMouseClicked.connect(self._on_bucket_clicked)
        session.results_changed.connect(self.refresh)
        session.metric_changed.connect(lambda _: self.refresh())
        session.comparison_changed.connect(self.refresh)
        session.threshold_changed.connect(self._on_session_threshold_changed)
        session.busy_changed.connect(self._on_session_busy_changed)
        self._completed: tuple[float | None, int] | None = None

    def _arrange(self, columns: int) -> None:
        """The plots in ``columns`` columns (two when comparing: the legends name both
        sides, and three columns clipped them at 1600 px), the tables under them."""
        if columns == self._columns:
            return
        self._columns = columns
        for k, w in enumerate(self.plot_widgets().values()):
            self.grid.addWidget(w, k // columns, k % columns)  # moves it if placed
        for col in range(3):
            self.grid.setColumnStretch(col, 1 if col < columns else 0)
        self.grid.addWidget(self.tables, 6 // columns, 0, 1, columns)

    def plot_widgets(self) -> dict[str, QWidget]:
        return {
            "sweep": self.sweep_plot,
            "pr": self.pr_plot,
            "attribution": self.attribution.w,
            "buckets": self.buckets.w,
            "histogram": self.histogram,
            "scatter": self.scatter_plot,
        }

    # ------------------------------------------------------------------ computing
    def refresh(self) -> None:
        """Compute the analysis again when the dataset, metric or comparison changed."""
        s, a = self.session, self.session.a
        if a is None or s.metric is None or not self.isVisible():
            return
        b = s.b
        other = None
        if b is not None and b.metric is not None:
            other = (b.full_dataset, b.metric)
        key = (id(a.full_dataset), s.metric, repr(a.overrides.get(s.metric)), repr(other))
        if key == self._key:
            return
        self._key = key
        old = self._worker
        if old is not None and old.isRunning():  # let it finish unheard, without blocking
            old.done.disconnect(self._on_worker_done)
            self._retired.append(old)
            old.finished.connect(lambda o=old: self._retired.remove(o))
        names = tuple(s.names()) if s.comparing() else ("A", "B")
        w = AnalysisWorker(a.full_dataset, s.metric, a.overrides, other, (names[0], names[-1]))
        w.done.connect(self._on_worker_done)
        w.failed.connect(self.status.setText)
        self._worker = w
        self.status.setText(f"Analysis of {s.metric}: computing…")
        w.start()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.refresh()

    def wait(self, timeout_ms: int = 60_000) -> bool:
        return self._worker.wait(timeout_ms) if self._worker is not None else True

    def _on_worker_done(self, data: AnalysisData) -> None:
        self.data = data
        self._arrange(2 if data.b is not None else 3)
        sw = data.sweep
        how = "" if sw is None else f"; sweep over {len(sw.thresholds)} thresholds"
        both = "" if data.b is None else f", {data.names[0]} and {data.names[1]} side by side"
        self.status.setText(
            f"Analysis of {data.metric} over {len(data.hmeans)} images{how}{both}. Drag the red "
            "line; click an attribution or bucket bar to list its images, a point to open one"
        )
        self.line = plots.draw_sweep(self.sweep_plot, data, self.session.score_threshold)
        self.line.sigPositionChanged.connect(self._on_line_moved)
        self.line.sigPositionChangeFinished.connect(self._on_line_released)
        plots.draw_pr(self.pr_plot, data, self.session.score_threshold)
        plots.draw_attribution(self.attribution, data)
        plots.draw_histogram(self.histogram, data)
        self.scatter_plot.setVisible(bool(data.pairs))
        if data.pairs:
            points = plots.draw_scatter(self.scatter_plot, data)
            points.sigClicked.connect(self._on_scatter_clicked)
        current = self.attr.currentText()
        self.attr.blockSignals(True)
        self.attr.clear()
        self.attr.addItems(list(data.buckets))
        if current in data.buckets:
            self.attr.setCurrentText(current)
        self.attr.blockSignals(False)
        self._draw_buckets()
        self._show_reading(self.session.score_threshold)

    def _draw_buckets(self) -> None:
        if self.data is not None and self.attr.currentText() in self.data.buckets:
            name = self.attr.currentText()
            plots.draw_buckets(self.buckets, name, self.data.buckets[name], self.data)
            self.tables.setText(tables_html(self.data, name))

    # ------------------------------------------------------------------ threshold
    def _show_reading(self, threshold: float | None) -> None:
        sw = None if self.data is None else self.data.sweep
        if sw is None:
            self.reading.setText("")
            return
        k = 0 if threshold is None else sw.index_at(threshold)
        r, p, h = sw.scores()[k]
        what = "all detections" if threshold is None else f"confidence ≥ {sw.thresholds[k]:.4g}"
        self.reading.setText(
            f"{what}: recall {r:.4f}, precision {p:.4f}, H-mean {h:.4f} "
            f"({int(sw.kept[k])} detections); best {sw.best_threshold:.4g} chosen on this set"
        )

    def _on_line_moved(self) -> None:
        self._show_reading(float(self.line.value()))

    def _on_line_released(self) -> None:
        t = float(self.line.value())
        sw = None if self.data is None else self.data.sweep
        if sw is None:
            return
        t = float(sw.thresholds[sw.index_at(t)])  # a swept value: the table equals the plot
        self.session.set_score_threshold(None if t <= float(sw.thresholds[0]) else t)

    def _on_session_threshold_changed(self, threshold: float | None) -> None:
        if self.data is not None and self.data.sweep is not None:
            self.line.blockSignals(True)
            self.line.setValue(
                float(self.data.sweep.thresholds[0]) if threshold is None else threshold
            )
            self.line.blockSignals(False)
            plots.draw_pr(self.pr_plot, self.data, threshold)
        self._show_reading(threshold)

    def _on_session_busy_changed(self, busy: bool) -> None:
        """At a threshold the shown metric is evaluated first; then the others, once."""
        s, a = self.session, self.session.a
        if busy or a is None or s.score_threshold is None or a.lazy:
            return  # a large set: each metric is evaluated when shown
        key = (s.score_threshold, id(a.dataset))
        missing = [m for m in a.metric_ids() if m not in a.evaluations]
        if missing and self._completed != key:
            self._completed = key
            for side in (a, s.b):
                if side is not None and (side is a or not side.shares_results_with(a)):
                    side.evaluate(missing, s.sample_id)

    # ------------------------------------------------------------------ clicks
    def _on_attribution_clicked(self, event: object) -> None:
        key = self.attribution.key_at(event.scenePos())  # type: ignore[attr-defined]
        if key is None or self.data is None:
            return
        losing = self.data.attribution.losing(key)
        self.session.set_focus([s for s, _ in losing], f"images losing H-mean to {key}")

    def _on_bucket_clicked(self, event: object) -> None:
        key = self.buckets.key_at(event.scenePos())  # type: ignore[attr-defined]
        if key is None or self.data is None:
            return
        bucket = next(b for b in self.data.buckets[self.attr.currentText()] if b.label == key)
        ids = list(dict.fromkeys(s for s, _ in bucket.gts))
        label = f"images with GTs of {self.attr.currentText()} {key}"
        self.session.set_focus(ids, label, bucket.gts)
        here = [i for s, i in bucket.gts if s == self.session.sample_id]
        if here:
            self.session.select(("gt", here[0]))

    def _on_scatter_clicked(self, _item: object, points: object) -> None:
        first = points[0] if len(points) else None  # type: ignore[arg-type,index]
        if first is not None:
            self.session.set_sample(str(first.data()))

    def _on_export_clicked(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Export the analysis plots to")
        if folder:
            self.export(Path(folder))

    def export(self, folder: Path) -> list[Path]:
        """Every plot shown as PNG and SVG in ``folder``."""
        out: list[Path] = []
        for name, w in self.plot_widgets().items():
            if w.isVisible() or name != "scatter":
                out.extend(plots.export(w, folder / f"analysis_{name}"))
        return out


def _empty() -> AnalysisData:
    from metrics.analysis.attribution import Attribution
    from viewer.analysis.data import SideData

    nothing = Attribution("", 0.0, ())
    return AnalysisData(SideData("A", "", None, nothing, {}, {}, "no analysis yet"))
