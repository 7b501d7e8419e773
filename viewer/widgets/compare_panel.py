"""ComparePanel: names of A and B (editable), how to show them (side by side, swipe, blend)."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSlider,
    QWidget,
)

from viewer.app.session import Session

MODES = ("side by side", "swipe", "blend")


class ComparePanel(QWidget):
    """Shown while comparing; the window wires ``view_mode_changed`` to the canvases."""

    view_mode_changed = Signal(str, float)  # "split" | "swipe" | "blend", slider fraction

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.name_a, self.name_b = QLineEdit(), QLineEdit()
        for k, edit in enumerate((self.name_a, self.name_b)):
            edit.setMaximumWidth(200)
            edit.editingFinished.connect(lambda k=k, e=edit: session.rename(k, e.text()))
        self.mode = QComboBox()
        self.mode.addItems(MODES)
        self.mode.currentIndexChanged.connect(lambda _: self._emit())
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setRange(0, 100)
        self.slider.setValue(50)
        self.slider.setMaximumWidth(180)
        self.slider.valueChanged.connect(lambda _: self._emit())
        self.slider_label = QLabel()  # what the slider sets: the divider, or B's opacity
        close = QPushButton("Close comparison")
        close.clicked.connect(lambda: session.close_comparison())
        row = QHBoxLayout(self)
        row.setContentsMargins(4, 2, 4, 2)
        for w in (
            QLabel("A"),
            self.name_a,
            QLabel("B"),
            self.name_b,
            QLabel("view"),
            self.mode,
            self.slider_label,
            self.slider,
            close,
        ):
            row.addWidget(w)
        row.addStretch()
        session.comparison_changed.connect(self._on_session_comparison_changed)
        self._on_session_comparison_changed()

    def view_mode(self) -> str:
        return ("split", "swipe", "blend")[self.mode.currentIndex()]

    def cycle(self) -> None:
        self.mode.setCurrentIndex((self.mode.currentIndex() + 1) % len(MODES))

    def _emit(self) -> None:
        mode = self.view_mode()
        self.slider_label.setText({"swipe": "divider", "blend": "B opacity"}.get(mode, ""))
        self.slider.setToolTip(
            {"swipe": "where the divider between A and B is", "blend": "how much of B shows"}.get(
                mode, ""
            )
        )
        for w in (self.slider, self.slider_label):  # side by side: nothing to set
            w.setVisible(mode != "split")
        self.view_mode_changed.emit(self.view_mode(), self.slider.value() / 100.0)

    def _on_session_comparison_changed(self) -> None:
        name_a, name_b = self.session.names()
        self.name_a.setText(name_a)
        self.name_b.setText(name_b)
        self._emit()
