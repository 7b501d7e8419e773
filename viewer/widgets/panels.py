"""Small panels: layers with their legend, the metric and its parameters (the dataset summary:
``viewer.widgets.summary_panel``)."""

from __future__ import annotations

import dataclasses
from typing import Any

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPixmap
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from metrics.catalogue.registry import METRICS
from metrics.declare.params import docs
from viewer.app.session import Session
from viewer.paint.style import SWATCH_H, SWATCH_W, draw_swatch
from viewer.scene.layers import LAYERS
from viewer.scene.palette import CANVAS_LEGEND, LAYER_LEGEND, PALETTE, StyleKey


def swatch(style_key: StyleKey, w: int = SWATCH_W, h: int = SWATCH_H) -> QPixmap:
    """The legend sample of a style, on a mid-grey tile so light outlines show."""
    pix = QPixmap(w, h)
    pix.fill(QColor("#6b6b6b"))
    p = QPainter(pix)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    draw_swatch(p, style_key, QRectF(0, 0, w, h))
    p.end()
    return pix


def _legend_rows(grid: QGridLayout, row: int, keys: tuple[StyleKey, ...]) -> int:
    """A swatch and a text per style, from ``row``; returns the next free row."""
    for key in keys:
        icon = QLabel()
        icon.setPixmap(swatch(key))
        grid.addWidget(icon, row, 0, Qt.AlignmentFlag.AlignRight)
        text = QLabel(PALETTE[key].label)
        text.setStyleSheet("color: #555")
        grid.addWidget(text, row, 1)
        row += 1
    return row


class LayerPanel(QWidget):
    """A checkbox per layer (with its shortcut) and the legend of what it draws."""

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        grid = QGridLayout(self)
        grid.setContentsMargins(4, 4, 4, 4)
        self.boxes: dict[str, QCheckBox] = {}
        row = 0
        for layer in LAYERS:
            box = QCheckBox(f"{layer.title}  [{layer.shortcut}]")
            box.setToolTip(layer.description)
            box.setChecked(layer.key in session.layers)
            box.toggled.connect(lambda on, k=layer.key: self._on_box_toggled(k, on))
            self.boxes[layer.key] = box
            grid.addWidget(box, row, 0, 1, 2)
            row += 1
            row = _legend_rows(grid, row, LAYER_LEGEND.get(layer.key, ()))
        title = QLabel("Always drawn")
        title.setToolTip("states that belong to no layer")
        grid.addWidget(title, row, 0, 1, 2)
        row = _legend_rows(grid, row + 1, CANVAS_LEGEND)
        grid.setRowStretch(row, 1)
        session.layers_changed.connect(self._on_session_layers_changed)

    def _on_box_toggled(self, key: str, on: bool) -> None:
        layers = set(self.session.layers)
        (layers.add if on else layers.discard)(key)
        self.session.set_layers(frozenset(layers))

    def _on_session_layers_changed(self, layers: frozenset[str]) -> None:
        for key, box in self.boxes.items():
            if box.isChecked() != (key in layers):
                box.blockSignals(True)
                box.setChecked(key in layers)
                box.blockSignals(False)


def _same_number(a: Any, b: Any) -> bool:
    try:
        return float(a) == float(b)
    except (TypeError, ValueError):
        return False


class ParamPanel(QWidget):
    """Metric selector and the metric's switches; Apply re-evaluates off the UI thread."""

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.combo = QComboBox()
        self.combo.currentTextChanged.connect(self._on_combo_changed)
        self.form = QFormLayout()
        self.editors: dict[str, QWidget] = {}
        self.apply = QPushButton("Apply")
        self.apply.clicked.connect(self._on_apply_clicked)
        self.reset = QPushButton("Defaults")
        self.reset.clicked.connect(self._on_reset_clicked)
        self.progress = QProgressBar()
        self.progress.setVisible(False)
        self.cancel = QPushButton("Cancel")
        self.cancel.setVisible(False)
        self.cancel.clicked.connect(lambda: session.cancel(wait=False))
        top = QVBoxLayout(self)
        top.setContentsMargins(4, 4, 4, 4)
        top.addWidget(QLabel("Metric"))
        top.addWidget(self.combo)
        top.addLayout(self.form)
        self.threshold = QComboBox()  # swept metrics: the score threshold shown
        self.threshold.setToolTip(
            "the score threshold the canvas and inspector show; the metric reports the best "
            "H-mean of its sweep, chosen on the evaluated set"
        )
        self.threshold.currentIndexChanged.connect(self._on_threshold_changed)
        self.threshold_label = QLabel("Shown at score threshold")
        top.addWidget(self.threshold_label)
        top.addWidget(self.threshold)
        buttons = QHBoxLayout()
        buttons.addWidget(self.apply)
        buttons.addWidget(self.reset)
        top.addLayout(buttons)
        busy = QHBoxLayout()
        busy.addWidget(self.progress)
        busy.addWidget(self.cancel)
        top.addLayout(busy)
        top.addStretch()
        session.dataset_changed.connect(self._fill_metrics)
        session.metric_changed.connect(self._on_session_metric_changed)
        session.busy_changed.connect(self._on_session_busy_changed)
        session.progress_changed.connect(self._on_session_progress)
        session.results_changed.connect(self._fill_thresholds)
        session.metric_changed.connect(lambda _: self._fill_thresholds())
        self._fill_thresholds()

    def _fill_thresholds(self) -> None:
        """The sweep's thresholds with their scores, the reported (best) one marked."""
        ev = self.session.evaluation()
        sweep = ev.sweep if ev is not None else None
        side = self.session.a
        self.threshold.setVisible(sweep is not None)
        self.threshold_label.setVisible(sweep is not None)
        if sweep is None or side is None:
            return
        best = sweep.best_index
        items = [
            f"{p.threshold:.2f}: R {p.recall:.4f} P {p.precision:.4f} H {p.hmean:.4f}"
            + ("  (reported: best)" if k == best else "")
            for k, p in enumerate(sweep.sweep())
        ]
        current = side.shown.get(ev.metric, best) if ev is not None else best
        self.threshold.blockSignals(True)
        self.threshold.clear()
        self.threshold.addItems(items)
        self.threshold.setCurrentIndex(current)
        self.threshold.blockSignals(False)

    def _on_threshold_changed(self, k: int) -> None:
        ev = self.session.evaluation()
        sweep = ev.sweep if ev is not None else None
        if ev is None or sweep is None or k < 0:
            return
        self.session.set_shown_threshold(ev.metric, None if k == sweep.best_index else k)

    def _fill_metrics(self) -> None:
        self.combo.blockSignals(True)
        self.combo.clear()
        self.combo.addItems(self.session.metric_ids())
        self.combo.setCurrentText(self.session.metric or "")
        self.combo.blockSignals(False)
        self._build_form()

    def _on_combo_changed(self, metric: str) -> None:
        if metric:
            self.session.set_metric(metric)

    def _on_session_metric_changed(self, metric: str) -> None:
        if self.combo.currentText() != metric:
            self.combo.blockSignals(True)
            self.combo.setCurrentText(metric)
            self.combo.blockSignals(False)
        self._build_form()

    def _build_form(self) -> None:
        while self.form.rowCount():
            self.form.removeRow(0)
        self.editors = {}
        params = self.session.params()
        if params is None:
            return
        for doc in docs(type(params)):  # declared by the metric's family, as --describe prints
            editor = self._editor(doc.kind, getattr(params, doc.name), doc.optional)
            tip = doc.tooltip()
            editor.setToolTip(tip)
            self.editors[doc.name] = editor
            label = QLabel(doc.name)
            label.setToolTip(tip)
            self.form.addRow(label, editor)

    @staticmethod
    def _editor(kind: Any, value: Any, optional: bool = False) -> QWidget:
        if kind is bool and optional:
            combo = QComboBox()
            combo.addItems(["auto", "true", "false"])
            combo.setCurrentText("auto" if value is None else str(bool(value)).lower())
            return combo
        if kind is bool:
            box = QCheckBox()
            box.setChecked(bool(value))
            return box
        return QLineEdit(
            "" if value is None else repr(value) if isinstance(value, float) else str(value)
        )

    def values(self) -> dict[str, object]:
        out: dict[str, object] = {}
        for name, editor in self.editors.items():
            if isinstance(editor, QCheckBox):
                out[name] = editor.isChecked()
            elif isinstance(editor, QLineEdit):
                out[name] = editor.text()
            elif isinstance(editor, QComboBox):
                text = editor.currentText()
                out[name] = None if text == "auto" else text == "true"
        return out

    def _on_apply_clicked(self) -> None:
        metric = self.session.metric
        if metric is None:
            return
        defaults = dataclasses.asdict(METRICS[metric].params_type())
        changed = {
            k: v
            for k, v in self.values().items()
            if str(v) != str(defaults.get(k)) and not _same_number(v, defaults.get(k))
        }
        try:
            self.session.set_params(metric, changed)
        except (KeyError, ValueError, TypeError) as exc:
            self.session.error_raised.emit(f"bad parameter: {exc}")

    def _on_reset_clicked(self) -> None:
        if self.session.metric is not None:
            self.session.set_params(self.session.metric, {})
            self._build_form()

    def _on_session_busy_changed(self, busy: bool) -> None:
        self.progress.setVisible(busy)
        self.cancel.setVisible(busy)
        self.apply.setEnabled(not busy)
        self.reset.setEnabled(not busy)

    def _on_session_progress(self, done: int, total: int) -> None:
        self.progress.setMaximum(max(total, 1))
        self.progress.setValue(done)
