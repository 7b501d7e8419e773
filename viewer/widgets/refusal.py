"""The refusal of a set the CLI refuses too (``--gt`` and ``--det`` swapped), said in the
window above the canvas, in place of any score, until a set is opened."""

from __future__ import annotations

from html import escape
from typing import Protocol

from PySide6.QtCore import Qt, SignalInstance
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget


class Refusing(Protocol):
    """What the banner listens to (``viewer.app.session.Session``)."""

    @property
    def refused(self) -> SignalInstance: ...

    @property
    def dataset_changed(self) -> SignalInstance: ...


class RefusalBanner(QLabel):
    """Hidden until the session refuses a set; hidden again when a set is shown."""

    def __init__(self, session: Refusing) -> None:
        super().__init__()
        self.message: str | None = None
        self.setObjectName("refusal")
        self.setWordWrap(True)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.setStyleSheet(
            "QLabel#refusal { background: #8b1e1e; color: white; padding: 14px; font-size: 14px; }"
        )
        self.setVisible(False)
        session.refused.connect(self.refuse)
        session.dataset_changed.connect(self.clear)

    def refuse(self, message: str) -> None:
        self.message = message
        self.setText(
            f"<b>Not opened.</b> {escape(message)}<br><br>detlens eval refuses these inputs "
            "too. File › Open to give the GT as --gt and the detections as --det."
        )
        self.setVisible(True)

    def clear(self) -> None:
        self.message = None
        self.setVisible(False)

    def above(self, widget: QWidget) -> QWidget:
        """``widget`` (the canvases) with this banner above it."""
        box = QWidget()
        layout = QVBoxLayout(box)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self)
        layout.addWidget(widget, 1)
        return box
