"""Pair matrix: the GT x detection values the metric decided on, for the current image.

The RRC web visualizer's core view, without its 100-detection limit: one row per GT and one
column per detection that overlap anything (numbers from 1, like the file's lines), the
cells of the matches marked by kind, DetEval's discarded candidates and TedEval's multiline
tests listed and marked with their reason (word-wrapped, under the table in a splitter), and
the measure chosen in a combo box. Hovering a cell lights up the pair on the
canvas; clicking selects the GT. The values are the engine's (``Side.pair_table``).
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
)
from PySide6.QtGui import QColor, QShowEvent
from PySide6.QtWidgets import (
    QComboBox,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from metrics.core.evidence import PairTable
from metrics.core.results import MatchKind, SampleResult
from metrics.declare.help import DISCARD_SHORT, DISCARD_STAGE, discard_line
from viewer.app.session import Session
from viewer.scene.rules import multiline_lines

Index = QModelIndex | QPersistentModelIndex
_KIND_COLOUR = {
    MatchKind.ONE_TO_ONE: QColor("#bfdbfe"),
    MatchKind.SPLIT: QColor("#fed7aa"),  # orange, as the split links on the canvas
    MatchKind.MERGE: QColor("#e9d5ff"),
}
_DISCARDED = QColor("#fecaca")


class PairMatrixModel(QAbstractTableModel):
    """Rows = GTs, columns = detections with any non-zero value (others are left out)."""

    def __init__(self) -> None:
        super().__init__()
        self.table: PairTable | None = None
        self.measure = 0
        self.rows: list[int] = []  # positions in table.gt
        self.cols: list[int] = []  # positions in table.det
        self.decided: dict[tuple[int, int], str] = {}  # (gt, det) file indices -> why
        self.discards: list[tuple[str, str]] = []  # discards, multiline tests: (short, long)
        self.colour: dict[tuple[int, int], QColor] = {}
        self.texts: dict[int, str] = {}

    def set_table(
        self,
        table: PairTable | None,
        result: SampleResult | None,
        measure: int,
        gt_texts: dict[int, str],
        params: object = None,
    ) -> None:
        self.beginResetModel()
        self.table, self.measure, self.texts = table, measure, gt_texts
        self.rows, self.cols, self.decided, self.colour = [], [], {}, {}
        self.discards = []
        if table is not None and table.values:
            nz = np.zeros_like(table.values[0], dtype=bool)
            for v in table.values:
                nz |= np.asarray(v) > 0
            self.rows = [int(i) for i in np.flatnonzero(nz.any(axis=1))]
            self.cols = [int(j) for j in np.flatnonzero(nz.any(axis=0))]
            self._mark(result)
            self._mark_multiline(result, params)
        self.endResetModel()

    def _mark(self, result: SampleResult | None) -> None:
        if result is None:
            return
        for m in result.matches:
            name = m.label or m.kind.value.replace("_", "-")
            for g in m.gt:
                for d in m.det:
                    self.decided[(g, d)] = f"matched ({name})"
                    self.colour[(g, d)] = _KIND_COLOUR[m.kind]
        if result.evidence is not None:
            for c in result.evidence.discarded_candidates():
                why = discard_line(c.stage, c.reason)
                self.discards.append(
                    (
                        f"GT {', '.join(str(g + 1) for g in c.gt)} × det "
                        f"{', '.join(str(d + 1) for d in c.det)}, "
                        f"{DISCARD_STAGE.get(c.stage, c.stage)}: "
                        f"{DISCARD_SHORT.get(c.reason, c.reason)}",
                        why,
                    )
                )
                for g in c.gt:
                    for d in c.det:
                        before = self.decided.get((g, d))
                        self.decided[(g, d)] = f"{before}\n{why}" if before else why
                        self.colour.setdefault((g, d), _DISCARDED)

    def _mark_multiline(self, result: SampleResult | None, params: object) -> None:
        """TedEval's multiline tests: listed, and a rejected one's cells marked with why."""
        if result is None:
            return
        tests = result.evidence.multiline_tests() if result.evidence is not None else ()
        for t, (short, why, rejected) in zip(tests, multiline_lines(result, params), strict=True):
            self.discards.append((short, why))
            if not rejected:
                continue
            for g in t.gt:
                for d in t.det:
                    before = self.decided.get((g, d))
                    self.decided[(g, d)] = f"{before}\n{why}" if before else why
                    self.colour.setdefault((g, d), _DISCARDED)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.cols)

    def pair(self, index: Index) -> tuple[int, int] | None:
        """(GT, det) file indices of a cell."""
        if self.table is None or not index.isValid():
            return None
        return self.table.gt[self.rows[index.row()]], self.table.det[self.cols[index.column()]]

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> object:
        if self.table is None or role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == Qt.Orientation.Horizontal:
            return f"det {self.table.det[self.cols[section]] + 1}"
        g = self.table.gt[self.rows[section]]
        text = self.texts.get(g, "")
        return f"GT {g + 1} {text}".strip()

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        pair = self.pair(index)
        if pair is None or self.table is None:
            return None
        value = float(
            self.table.values[self.measure][self.rows[index.row()], self.cols[index.column()]]
        )
        if role == Qt.ItemDataRole.DisplayRole:
            return f"{value:.2f}" if value > 0 else ""
        if role == Qt.ItemDataRole.BackgroundRole:
            return self.colour.get(pair)
        if role == Qt.ItemDataRole.ToolTipRole:
            name = self.table.measures[self.measure]
            why = self.decided.get(pair, "")
            refused = self.table.refusal(*pair)
            if refused and "matched" not in why:  # the limits the pair fails, in words
                why = f"not a one-to-one match: {refused}\n{why}".strip()
            head = f"GT {pair[0] + 1} × det {pair[1] + 1}: {name} {value:.4f}"
            return "\n".join(x for x in (head, why, self.table.formulas[self.measure]) if x)
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignCenter)
        return None


class PairMatrixPanel(QWidget):
    """The pair matrix of the current image under the shown metric."""

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.model = PairMatrixModel()
        self.measure = QComboBox()
        self.measure.currentIndexChanged.connect(lambda _: self.refresh())
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.view = QTableView()
        self.view.setModel(self.model)
        self.view.setMouseTracking(True)
        self.view.entered.connect(self._on_view_entered)
        self.view.clicked.connect(self._on_view_clicked)
        self.view.horizontalHeader().setDefaultSectionSize(52)
        self.view.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.measure)
        layout.addWidget(self.note)
        self.discarded = QListWidget()  # the candidates discarded, multiline tests, and why
        self.discarded.setWordWrap(True)  # whole sentences, never cut at the panel's edge
        self.split = QSplitter(Qt.Orientation.Vertical)
        self.split.addWidget(self.view)
        self.split.addWidget(self.discarded)
        self.split.setStretchFactor(0, 3)
        self.split.setStretchFactor(1, 2)
        layout.addWidget(self.split, 1)
        self._stale = True
        for signal in (
            session.sample_changed,
            session.results_changed,
            session.metric_changed,
            session.dataset_changed,
        ):
            signal.connect(lambda *_: self._on_session_changed())
        self.refresh()

    def _on_session_changed(self) -> None:
        """Rebuilt only while on screen (a 1,000-word image has a 1,000 x 1,000 table); a
        tabbed dock behind another counts as visible to Qt, so the test is its region."""
        self._stale = True
        if self.isVisible() and not self.visibleRegion().isEmpty():
            self.refresh()

    def refresh_if_stale(self) -> None:
        """Called when the panel comes to the front (its dock's tab is chosen)."""
        if self._stale:
            self.refresh()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.refresh_if_stale()

    def refresh(self) -> None:
        self._stale = False
        s = self.session
        side = s.a
        table = None if side is None else side.pair_table(s.sample_id)
        names = list(table.measures) if table is not None else []
        if [self.measure.itemText(k) for k in range(self.measure.count())] != names:
            self.measure.blockSignals(True)
            self.measure.clear()
            self.measure.addItems(names)
            self.measure.blockSignals(False)
        k = max(self.measure.currentIndex(), 0)
        sample = s.sample()
        texts = {i: f"“{g.text}”" for i, g in enumerate(sample.gt)} if sample else {}
        self.model.set_table(table, s.result(), k, texts, s.params())
        found = self.model.discards
        self.discarded.clear()
        self.discarded.setVisible(bool(found))
        if found:
            ev = getattr(s.result(), "evidence", None)
            what = "Multiline tests" if ev is not None and ev.multiline_tests() else ""
            head = what or "Discarded candidates"
            self.discarded.addItem(f"{head} ({len(found)}); hover for the reason:")
        for short, why in found:
            item = QListWidgetItem(short)
            item.setToolTip(why)
            self.discarded.addItem(item)
        if found:  # the list as tall as its lines (two each at most), the table the rest
            total = max(sum(self.split.sizes()), 1)
            rows = sum(self.discarded.sizeHintForRow(k) for k in range(self.discarded.count()))
            need = min(rows + 2 * self.discarded.frameWidth() + 4, int(total * 0.45))
            self.split.setSizes([total - need, need])
        if table is None:
            self.note.setText(f"{s.metric or 'This metric'} has no GT × detection table.")
        else:
            lim = table.limit(k)
            self.note.setText(
                f"{table.measures[k]}{f' (a match needs {lim})' if lim else ''}: "
                f"{table.formulas[k]}. Blue one-to-one, orange split, "
                "purple merge, red discarded candidate or rejected multiline test; rows and "
                "columns without any overlap are left out."
            )

    def _on_view_entered(self, index: QModelIndex) -> None:
        pair = self.model.pair(index)
        if pair is not None:
            self.session.hover(("gt", pair[0]))

    def _on_view_clicked(self, index: QModelIndex) -> None:
        pair = self.model.pair(index)
        if pair is not None:
            self.session.select(("gt", pair[0]))
