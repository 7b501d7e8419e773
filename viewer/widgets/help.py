"""Help: the keyboard and mouse shortcuts, and "what am I looking at" for the shown metric."""

from __future__ import annotations

import html
from collections.abc import Sequence

from PySide6.QtWidgets import QDialog, QTextBrowser, QVBoxLayout, QWidget

from metrics.catalogue.catalog import BY_ID

MOUSE = (
    ("wheel", "zoom at the cursor"),
    ("drag", "pan"),
    ("click", "select the instance under the cursor (the inspector explains it)"),
    ("click again / ↑ / ↓", "where instances overlap: the next one under the cursor"),
    ("hover", "light up an instance and its partners"),
    ("PageDown / PageUp", "next / previous image in the table's order"),
    ("Esc", "clear the selection"),
)


def shortcuts_html(actions: Sequence[tuple[str, str]]) -> str:
    """A table of (keys, what) rows: the menus' shortcuts, then the mouse."""
    rows = "".join(
        f"<tr><td><b>{html.escape(k)}</b></td><td>{html.escape(t)}</td></tr>"
        for k, t in (*actions, *MOUSE)
    )
    return f"<h3>Shortcuts</h3><table cellspacing=6>{rows}</table>"


def metric_html(metric: str | None) -> str:
    """What the canvas shows under ``metric``, what the metric computes and its source."""
    h = BY_ID.get(metric or "")
    if h is None:
        return "<p>No metric is shown.</p>"
    return (
        f"<h3>What am I looking at? ({html.escape(metric or '')})</h3>"
        f"<p>{html.escape(h.canvas)}</p>"
        f"<p><b>The metric</b>: {html.escape(h.what)}.</p>"
        f"<p><b>Reproduces</b> {html.escape(h.source)}; used on {html.escape(h.datasets)}.</p>"
        "<p>Instances are numbered from 1, like the lines of their file. Dotted slate "
        "outlines are instances the metric did not evaluate (the banner says why).</p>"
    )


class HelpDialog(QDialog):
    """A non-modal window with the shortcuts and the current metric's explanation."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("detlens help")
        self.resize(620, 640)
        self.text = QTextBrowser()
        layout = QVBoxLayout(self)
        layout.addWidget(self.text)

    def show_help(self, metric: str | None, actions: Sequence[tuple[str, str]]) -> None:
        self.text.setHtml(metric_html(metric) + shortcuts_html(actions))
        self.show()
        self.raise_()
