"""ProblemsPanel: the findings of ``detlens check`` on the shown dataset, grouped by kind
(worst first); a click opens the image and selects the instance (``instance_opened``: the
window zooms to it)."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from metrics.check import Finding, Level
from viewer.app.session import Session

# Findings listed per kind (the rest are counted: ``detlens check --json`` has them all).
MAX_ROWS = 500
_COLOUR = {Level.ERROR: "#b91c1c", Level.WARNING: "#b45309", Level.INFO: "#475569"}
_ROLE = Qt.ItemDataRole.UserRole


class ProblemsPanel(QWidget):
    """A tree: one branch per kind of finding (level, code, count), one row per finding
    (file:line, instance, message)."""

    instance_opened = Signal()  # a finding's instance was selected on its image

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.show_info = QCheckBox("info")
        self.show_info.setToolTip("also list findings of level info (worth knowing, harmless)")
        self.show_info.toggled.connect(lambda _: self.refresh())
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["where", "finding"])
        self.tree.setColumnWidth(0, 190)
        self.tree.setUniformRowHeights(True)
        self.tree.itemActivated.connect(self._on_tree_item_activated)
        self.tree.itemClicked.connect(self._on_tree_item_activated)
        self.tree.currentItemChanged.connect(self._on_tree_current_changed)
        self.detail = QLabel()  # the whole text of the current finding
        self.detail.setWordWrap(True)
        self.detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        top = QHBoxLayout()
        top.addWidget(self.status, 1)
        top.addWidget(self.show_info)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(top)
        layout.addWidget(self.tree, 1)
        layout.addWidget(self.detail)
        session.checks.changed.connect(self.refresh)
        self.refresh()

    def shown(self) -> list[Finding]:
        found = self.session.checks.findings
        if self.show_info.isChecked():
            return list(found)
        return [f for f in found if f.level is not Level.INFO]

    def refresh(self) -> None:
        checks = self.session.checks
        self.tree.clear()
        self.detail.clear()
        if checks.error:
            self.status.setText(f"<span style='color:#b91c1c'>{checks.error}</span>")
            return
        if checks.running:
            self.status.setText("checking the dataset…")
            return
        counts = {lv: sum(f.level is lv for f in checks.findings) for lv in Level}
        text = ", ".join(f"{n} {lv.value}(s)" for lv, n in counts.items())
        if (
            counts[Level.INFO]
            and not self.show_info.isChecked()
            and not any(counts[lv] for lv in (Level.ERROR, Level.WARNING))
        ):
            text += ": nothing above info (tick info to list them)"
        self.status.setText(text)
        groups: dict[tuple[Level, str], list[Finding]] = {}
        for f in self.shown():
            groups.setdefault((f.level, f.code), []).append(f)
        for (level, code), items in groups.items():
            self._add_group(level, code, items)
        first = self.tree.topLevelItem(0)
        if first is not None:  # the worst kind open, its first finding spelled out below
            first.setExpanded(True)
            self.tree.setCurrentItem(first.child(0) or first)

    def _add_group(self, level: Level, code: str, items: list[Finding]) -> None:
        head = QTreeWidgetItem([f"{level.value} {code}", f"{len(items)}: {items[0].message}"])
        head.setForeground(0, QBrush(QColor(_COLOUR[level])))
        head.setToolTip(1, items[0].message)
        head.setData(0, _ROLE, f"{len(items)} × {level.value} {code}; first: {items[0]}")
        self.tree.addTopLevelItem(head)
        for f in items[:MAX_ROWS]:
            inst = f" {f.side} {f.index + 1}" if f.side and f.index is not None else ""
            where = f"{f.sample_id or 'dataset'}:{f.line}" if f.line else (f.sample_id or "")
            row = QTreeWidgetItem([where + inst, f.message])
            row.setToolTip(0, f.where())
            row.setToolTip(1, str(f))
            row.setData(0, _ROLE, str(f))
            row.setData(1, _ROLE, f)
            head.addChild(row)
        if len(items) > MAX_ROWS:
            head.addChild(QTreeWidgetItem(["", f"... and {len(items) - MAX_ROWS} more"]))

    def _on_tree_current_changed(self, item: QTreeWidgetItem | None, _: object) -> None:
        text = item.data(0, _ROLE) if item is not None else None
        self.detail.setText(text if isinstance(text, str) else "")

    def _on_tree_item_activated(self, item: QTreeWidgetItem, column: int = 0) -> None:
        del column
        f = item.data(1, _ROLE)
        if not isinstance(f, Finding) or f.sample_id is None:
            return
        if self.session.dataset is None or f.sample_id not in self.session.sample_ids():
            return
        self.session.set_sample(f.sample_id)
        if f.side is not None and f.index is not None:
            self.session.select((f.side, f.index))
            self.instance_opened.emit()
