"""MainWindow: the composition root; wires the session to the canvases, the panels, the menus
and the shortcuts."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QByteArray, QSettings, Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence, QResizeEvent, QShortcut, QShowEvent
from PySide6.QtWidgets import (
    QDialog,
    QDockWidget,
    QFileDialog,
    QMainWindow,
    QMenu,
    QProgressBar,
    QSplitter,
    QTabBar,
    QToolBar,
    QWidget,
)

from viewer.app import dock_layout
from viewer.app.session import DatasetPaths, Session
from viewer.export.window import export_image, export_view
from viewer.gallery.dock import add_gallery
from viewer.scene.layers import LAYERS
from viewer.widgets.analysis_panel import AnalysisPanel
from viewer.widgets.canvas import CanvasView
from viewer.widgets.compare_panel import ComparePanel
from viewer.widgets.help import HelpDialog
from viewer.widgets.inspector import InspectorPanel
from viewer.widgets.open_dialog import FILE_FILTER, DropOpener, OpenDatasetDialog, guess_paths
from viewer.widgets.pair_matrix import PairMatrixPanel
from viewer.widgets.panels import LayerPanel, ParamPanel
from viewer.widgets.problems import ProblemsPanel
from viewer.widgets.refusal import RefusalBanner
from viewer.widgets.sample_table import SampleTablePanel
from viewer.widgets.summary_panel import SummaryPanel

RECENT_KEY = "recent_datasets"
LAYOUT_KEY = "window_layout"
LAYOUT_VERSION = 4  # bump when the docks change, so an old saved layout is not applied


class MainWindow(QMainWindow):
    def __init__(self, session: Session | None = None, restore_layout: bool = True) -> None:
        super().__init__()
        self.session = session or Session()
        self.setWindowTitle("detlens")
        self.resize(1500, 900)
        self.drops = DropOpener(
            self, lambda p: self.open_dialog(guess_paths(p, self.session.paths))
        )
        self.canvas = CanvasView(self.session)
        self.canvas_b = CanvasView(self.session, side="b")
        self.canvas_b.setVisible(False)
        self.splitter = splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.canvas)
        splitter.addWidget(self.canvas_b)
        self.refusal = RefusalBanner(self.session)  # a set refused, said above the canvas
        self.setCentralWidget(self.refusal.above(splitter))
        self.compare = ComparePanel(self.session)
        bar = QToolBar("Comparison")
        bar.setObjectName("Comparison")
        bar.addWidget(self.compare)
        self.addToolBar(Qt.ToolBarArea.TopToolBarArea, bar)
        self.compare_bar = bar
        bar.setVisible(False)
        self.session.comparison_changed.connect(lambda: bar.setVisible(self.session.comparing()))
        self.canvas.view_changed.connect(self.canvas_b.set_view)
        self.canvas_b.view_changed.connect(self.canvas.set_view)
        self.compare.view_mode_changed.connect(self._on_compare_view_mode_changed)
        self.busy = QProgressBar()  # the running evaluation, whatever panel is shown
        self.busy.setMaximumWidth(220)
        self.busy.setVisible(False)
        self.statusBar().addPermanentWidget(self.busy)
        self.samples = SampleTablePanel(self.session)
        self.layers = LayerPanel(self.session)
        self.inspector = InspectorPanel(self.session)
        self.summary = SummaryPanel(self.session)
        self.params = ParamPanel(self.session)
        left = self._dock("Samples", self.samples)
        # in scroll areas: long notes, and a short tab stack on a laptop
        summary_dock = self._dock("Summary", dock_layout.scrolled(self.summary))
        inspector = self._dock("Inspector", self.inspector)
        self.pairs = PairMatrixPanel(self.session)
        pairs = self._dock("Pair matrix", self.pairs)
        pairs.visibilityChanged.connect(self._on_pairs_visibility_changed)
        self.problems = ProblemsPanel(self.session)
        problems = self._dock("Problems", self.problems)
        self.problems.instance_opened.connect(self.canvas.zoom_to_selection)
        layers = self._dock("Layers", dock_layout.scrolled(self.layers))
        metric = self._dock("Metric", dock_layout.scrolled(self.params))
        self.columns = ((left, summary_dock, problems), (inspector, pairs, layers, metric))
        dock_layout.stack_tabs(self, self.columns)
        self._fitted_once = False
        self.analysis = AnalysisPanel(self.session)
        self.analysis_dock = self._dock(
            "Analysis", self.analysis, Qt.DockWidgetArea.BottomDockWidgetArea
        )
        self.analysis_dock.hide()  # View › Panels › Analysis
        self.gallery, self.gallery_dock = add_gallery(  # View › Panels › Gallery
            self, self.session, (self.canvas, self.canvas_b), self.analysis_dock
        )
        self.help = HelpDialog(self)
        self.session.progress_changed.connect(self._on_session_progress)
        self.session.busy_changed.connect(lambda on: self.busy.setVisible(on))
        self.session.loading_changed.connect(self._on_session_loading_changed)
        self._menus()
        self._shortcuts()
        if restore_layout:  # not for screenshots: they look the same on every machine
            self._fitted_once = self._restore_layout()
        self.last_error = ""  # the last message the session raised (the CLI prints it)
        self.session.error_raised.connect(self._on_session_error)
        self.session.sample_changed.connect(self._on_session_sample_changed)
        self.session.metric_changed.connect(lambda _: self._update_title())
        self.session.dataset_changed.connect(self._update_title)

    def _on_compare_view_mode_changed(self, mode: str, value: float) -> None:
        split = self.session.comparing() and mode == "split"
        self.canvas_b.setVisible(split)
        self.canvas.set_mix("off" if split or not self.session.comparing() else mode, value)
        self.canvas_b.refresh()
        if split:
            half = max(self.splitter.width() // 2, 1)
            self.splitter.setSizes([half, half])
            self.canvas_b.fit()
            self.canvas.fit()

    def view_widget(self) -> QWidget:
        """What Export view captures: the canvas, or both canvases side by side."""
        return self.splitter

    def export_view_dialog(self) -> None:
        path, chosen = QFileDialog.getSaveFileName(
            self,
            "Export view",
            f"{self.session.sample_id or 'view'}.png",
            "PNG 1x (*.png);;PNG 2x (*.png);;SVG (*.svg)",
        )
        if path:
            scale = 2.0 if "2x" in chosen else 1.0
            self._export(
                lambda: export_view(
                    self.view_widget(),
                    Path(path),
                    self.session,
                    scale,
                    self.canvas.transform().m11(),
                )
            )

    def export_image_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self, "Export image", f"{self.session.sample_id or 'image'}.png", "PNG (*.png)"
        )
        if path:
            self._export(lambda: export_image(Path(path), self.session))

    def _export(self, do: Callable[[], Path]) -> None:
        try:
            written = do()
        except (OSError, ValueError) as exc:
            self.session.error_raised.emit(f"export failed: {exc}")
            return
        self.statusBar().showMessage(f"wrote {written} and its view state (.json)", 8000)

    def add_detections_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Detections to compare", "", FILE_FILTER)
        if path:
            self.session.add_detections(path)

    def _dock(
        self, title: str, widget: QWidget, area: Qt.DockWidgetArea | None = None
    ) -> QDockWidget:
        """A dock for ``widget`` in ``area``; without one, placed by ``viewer.app.dock_layout``
        (or the caller)."""
        dock = QDockWidget(title, self)
        dock.setObjectName(title)
        dock.setWidget(widget)
        if area is not None:
            self.addDockWidget(area, dock)
        return dock

    def _menus(self) -> None:
        file_menu = self.menuBar().addMenu("&File")
        open_action = QAction("&Open dataset…", self)
        open_action.setShortcut(QKeySequence.StandardKey.Open)
        open_action.triggered.connect(lambda: self.open_dialog())
        file_menu.addAction(open_action)
        add_action = QAction("&Add detections (compare)…", self)
        add_action.triggered.connect(self.add_detections_dialog)
        file_menu.addAction(add_action)
        for text, slot in (
            ("Export &view…", self.export_view_dialog),
            ("Export &image…", self.export_image_dialog),
        ):
            action = QAction(text, self)
            action.triggered.connect(slot)
            file_menu.addAction(action)
        self.recent_menu = file_menu.addMenu("Open &recent")
        self._fill_recent()
        quit_action = QAction("&Quit", self)
        quit_action.setShortcut(QKeySequence.StandardKey.Quit)
        quit_action.triggered.connect(self.close)
        file_menu.addAction(quit_action)
        view_menu = self.menuBar().addMenu("&View")
        for text, key, slot in (
            ("Fit", "F", self.canvas.fit),
            ("1:1", "1", self.canvas.actual_size),
            ("Zoom to selection", "Z", self.canvas.zoom_to_selection),
            ("Next sample", "D", lambda: self._step(1)),
            ("Previous sample", "A", lambda: self._step(-1)),
        ):
            action = QAction(text, self)
            action.setShortcut(QKeySequence(key))
            action.triggered.connect(slot)
            view_menu.addAction(action)
        keep = QAction("Keep zoom when changing image", self)
        keep.setCheckable(True)
        keep.setToolTip("off: each image is fitted to the canvas when it is shown")
        keep.toggled.connect(lambda on: setattr(self.session, "keep_zoom", on))
        view_menu.addAction(keep)
        every = QAction("Label every instance", self)
        every.setCheckable(True)
        every.setShortcut(QKeySequence("Shift+S"))
        every.setToolTip("off: only instances that lost credit are labelled (all on hover)")
        every.toggled.connect(self.session.set_all_labels)
        view_menu.addAction(every)
        self.metric_menu = view_menu.addMenu("Compare metric with")
        self.metric_menu.aboutToShow.connect(self._fill_metric_menu)
        cycle = QAction("Comparison view: side by side / swipe / blend", self)
        cycle.setShortcut(QKeySequence("V"))
        cycle.triggered.connect(self.compare.cycle)
        view_menu.addAction(cycle)
        panels = view_menu.addMenu("Panels")
        for dock in self.findChildren(QDockWidget):
            panels.addAction(dock.toggleViewAction())
        layer_menu = self.menuBar().addMenu("&Layers")
        for layer in LAYERS:
            action = QAction(layer.title, self)
            action.setShortcut(QKeySequence(layer.shortcut))
            action.triggered.connect(lambda _=False, k=layer.key: self.session.toggle_layer(k))
            layer_menu.addAction(action)
        help_menu = self.menuBar().addMenu("&Help")
        show_help = QAction("Shortcuts and what am I looking at", self)
        show_help.setShortcut(QKeySequence("?"))
        show_help.triggered.connect(self.show_help)
        help_menu.addAction(show_help)

    def shortcut_list(self) -> list[tuple[str, str]]:
        """(keys, action) of every menu action that has a shortcut."""
        out = []
        for menu_action in self.menuBar().actions():
            menu = menu_action.menu()
            for a in menu.actions() if isinstance(menu, QMenu) else ():
                key = a.shortcut().toString()
                if key:
                    out.append((key, a.text().replace("&", "")))
        return out

    def show_help(self) -> None:
        self.help.show_help(self.session.metric, self.shortcut_list())

    def _shortcuts(self) -> None:
        for key, delta in ((Qt.Key.Key_PageDown, 1), (Qt.Key.Key_PageUp, -1)):
            shortcut = QShortcut(QKeySequence(key), self)
            shortcut.activated.connect(lambda d=delta: self._step(d))
        QShortcut(QKeySequence(Qt.Key.Key_Escape), self).activated.connect(
            lambda: self.session.select(None)
        )

    def _fill_metric_menu(self) -> None:
        self.metric_menu.clear()
        for mid in self.session.metric_ids():
            if mid != self.session.metric:
                action = QAction(mid, self)
                action.triggered.connect(lambda _=False, m=mid: self.session.compare_metrics(m))
                self.metric_menu.addAction(action)

    def _step(self, delta: int) -> None:
        self.session.step(delta, self.samples.visible_ids() or None)

    # ------------------------------------------------------------------ opening data
    def open_paths(self, paths: DatasetPaths) -> bool:
        ok = self.session.open_dataset(paths)
        if ok:  # after the set is shown, not in the same turn (the settings file: ~20 ms)
            QTimer.singleShot(0, lambda: self._remember(paths))
        return ok

    def open_dialog(self, paths: DatasetPaths | None = None) -> None:
        dialog = OpenDatasetDialog(self, paths or self.session.paths)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            paths = dialog.paths()
            if paths is not None:
                self.open_paths(paths)

    def _remember(self, paths: DatasetPaths) -> None:
        settings = QSettings("detlens", "detlens")
        recent = [p for p in self._recent() if p != paths][:7]
        settings.setValue(RECENT_KEY, json.dumps([paths.__dict__] + [p.__dict__ for p in recent]))
        self._fill_recent()

    def _recent(self) -> list[DatasetPaths]:
        raw = QSettings("detlens", "detlens").value(RECENT_KEY, "[]")
        try:
            return [DatasetPaths(**d) for d in json.loads(str(raw))]
        except (ValueError, TypeError):
            return []

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        for paths in self._recent():
            action = QAction(paths.title, self)
            action.triggered.connect(lambda _=False, p=paths: self.open_paths(p))
            self.recent_menu.addAction(action)

    # ------------------------------------------------------------------ status
    def _on_session_loading_changed(self, on: bool) -> None:
        """While a dataset is read: a running bar in the status bar (the window stays live)."""
        self.busy.setRange(0, 0 if on else 1)
        self.busy.setFormat("loading…" if on else "")
        self.busy.setVisible(on)
        if on:
            self.statusBar().showMessage("reading the dataset…")
        else:
            self.statusBar().clearMessage()

    def _on_pairs_visibility_changed(self, on: bool) -> None:
        if on:
            self.pairs.refresh_if_stale()
            dock_layout.favour(self, self.columns, 1)

    def _favour_pairs_if_shown(self) -> None:
        if not self.pairs.visibleRegion().isEmpty():
            dock_layout.favour(self, self.columns, 1)

    def _on_session_progress(self, done: int, total: int) -> None:
        self.busy.setMaximum(max(total, 1))
        self.busy.setValue(done)
        self.busy.setFormat(f"evaluating {100 * done // max(total, 1)} %")  # every metric's part

    def _restore_layout(self) -> bool:
        """Dock sizes and places as the user left them (saved when the window closes)."""
        settings = QSettings("detlens", "detlens")
        state = settings.value(LAYOUT_KEY)
        if isinstance(state, QByteArray) and not state.isEmpty():
            return bool(self.restoreState(state, LAYOUT_VERSION))
        return False

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self._fitted_once:  # the column's width for this window, once
            self._fitted_once = True
            dock_layout.fit_column(self, self.columns)
            QTimer.singleShot(0, self._favour_pairs_if_shown)
        QTimer.singleShot(0, self._hide_stale_tab_bars)

    def resizeEvent(self, event: QResizeEvent) -> None:
        dock_layout.keep_canvas_height(self, self.centralWidget())
        super().resizeEvent(event)
        self._hide_stale_tab_bars()

    def _hide_stale_tab_bars(self) -> None:
        """Qt keeps a tab bar of the first layout of tabbed docks and may leave it on screen
        (seen offscreen: a second "Layers | Metric" strip under the canvas): of the tab bars
        of one group of docks, the one not aligned with its docks is hidden."""
        left = {d.windowTitle(): d.geometry().left() for d in self.findChildren(QDockWidget)}
        for bar in self.findChildren(QTabBar):
            if bar.parent() is self and bar.isVisible() and bar.count():
                x = left.get(bar.tabText(0))
                if x is not None and abs(bar.geometry().left() - x) > 2:
                    bar.hide()

    def closeEvent(self, event: QCloseEvent) -> None:
        QSettings("detlens", "detlens").setValue(LAYOUT_KEY, self.saveState(LAYOUT_VERSION))
        self.session.shutdown()  # every evaluation thread joined; none starts after
        super().closeEvent(event)

    def _on_session_error(self, message: str) -> None:
        self.last_error = message
        self.statusBar().showMessage(message, 15000)

    def _on_session_sample_changed(self, sample_id: str) -> None:
        self._update_title()
        del sample_id

    def _update_title(self) -> None:
        s = self.session
        parts = ["detlens"]
        if s.paths is not None:
            parts.append(s.paths.title)
        if s.sample_id:
            parts.append(s.sample_id)
        if s.metric:
            parts.append(s.metric)
        self.setWindowTitle(" — ".join(parts))
