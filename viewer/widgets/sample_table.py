"""Sample table: one row per image with its scores and failure counts; sortable, filterable."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QGridLayout,
    QHeaderView,
    QLineEdit,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from viewer.scene.attributes import attribute_index, matching_samples, parse_filter, summary
from viewer.scene.rows import (
    COMPARE_KINDS,
    COMPARE_TITLES,
    FAILURE_KINDS,
    FAILURE_TITLES,
    SampleRow,
    compare_row,
    sample_row,
)
from viewer.session import Session

COLUMNS = ("sample", "GT", "det", "R", "P", "H", "miss", "FP", "split", "merge", "part.", "multi")
TOOLTIPS = (
    "sample id",
    "GT boxes",
    "detections",
    "recall",
    "precision",
    "H-mean",
    "missed GTs",
    "false positives",
    "split matches (1 GT, n dets)",
    "merge matches (n GTs, 1 det)",
    "GTs credited only in part",
    "groups rejected by TedEval's multiline test",
)
_FIELDS = (
    "sample_id",
    "n_gt",
    "n_det",
    "recall",
    "precision",
    "hmean",
    "missed",
    "false_positives",
    "splits",
    "merges",
    "partial",
    "multiline",
)
FIRST_COUNT_COLUMN = COLUMNS.index("miss")
COMPARE_COLUMNS = ("H(B)", "ΔH", "|ΔH|", "A only", "B only")
COMPARE_TOOLTIPS = (
    "H-mean of B",
    "B minus A: negative where A is better",
    "how far A and B disagree (sort by it to find where two metrics disagree most)",
    "GTs found by A and missed by B",
    "GTs found by B and missed by A",
)
_COMPARE_FIELDS = ("hmean_b", "delta", "disagreement", "a_only", "b_only")
HMEAN_COLUMN = 5
DELTA_COLUMN = len(COLUMNS) + 1
Index = QModelIndex | QPersistentModelIndex


class SampleTableModel(QAbstractTableModel):
    """Rows from the session's current metric; refreshed when results or metric change."""

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.rows: list[SampleRow] = []
        session.dataset_changed.connect(self.reload)
        session.results_changed.connect(self.reload)
        session.metric_changed.connect(lambda _: self.reload())
        session.comparison_changed.connect(self.reload)

    def reload(self) -> None:
        self.beginResetModel()
        ds, s = self.session.dataset, self.session
        self.rows = (
            [compare_row(sample_row(x, s.result(sample_id=x.id)), s.diff(x.id)) for x in ds]
            if ds
            else []
        )
        self.endResetModel()

    def fields(self) -> tuple[str, ...]:
        return _FIELDS + (_COMPARE_FIELDS if self.session.comparing() else ())

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.fields())

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            if section == HMEAN_COLUMN and self.session.comparing():
                return "H(A)"
            return (COLUMNS + COMPARE_COLUMNS)[section]
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.ToolTipRole:
            return (TOOLTIPS + COMPARE_TOOLTIPS)[section]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.row() >= len(self.rows):
            return None
        fields = self.fields()
        if index.column() >= len(fields):
            return None
        field = fields[index.column()]
        value = getattr(self.rows[index.row()], field)
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(field, value, index.column())
        if role == Qt.ItemDataRole.ToolTipRole and value is None:
            return "not evaluated by this metric (input it cannot read), or still running"
        if role == Qt.ItemDataRole.UserRole:  # sort key
            return -1.0 if value is None else value
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() > 0:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.BackgroundRole and value is not None:
            return _background(field, float(value)) if field in ("hmean", "delta") else None
        return None

    def _text(self, field: str, value: Any, column: int) -> str:
        if isinstance(value, float):
            return f"{value:+.3f}" if field == "delta" else f"{value:.3f}"
        if isinstance(value, int) and column > 2 and value == 0:
            return ""
        if value is None:
            return "…" if self.session.is_busy() else "–"
        return str(value)


def _background(field: str, value: float) -> QColor:
    if field == "hmean":
        return QColor.fromHsvF(max(0.0, min(1.0, value)) * 0.33, 0.35, 1.0)
    hue = 0.33 if value > 0 else 0.0
    return QColor.fromHsvF(hue, min(1.0, abs(value)) * 0.5, 1.0)


class SampleFilterModel(QSortFilterProxyModel):
    """Text filter on the sample id or an instance attribute (``script=Arabic``: samples with
    at least one such box), and "has at least one …" failure filters."""

    def __init__(self) -> None:
        super().__init__()
        self.text = ""
        self.kinds: set[str] = set()
        self.attributes: dict[str, dict[str, set[str]]] = {}
        self.attribute_ids: set[str] | None = None
        self.focus: dict[str, int] | None = None  # Analysis panel: these ids, in this order
        self.setSortRole(Qt.ItemDataRole.UserRole)

    def set_focus(self, ids: list[str] | None) -> None:
        self._change(
            lambda: setattr(
                self, "focus", None if ids is None else {s: k for k, s in enumerate(ids)}
            )
        )

    def lessThan(self, left: Index, right: Index) -> bool:
        if self.focus is None:
            return super().lessThan(left, right)
        rows = self.sourceModel().rows  # type: ignore[attr-defined]
        a, b = rows[left.row()].sample_id, rows[right.row()].sample_id
        return self.focus.get(a, 0) < self.focus.get(b, 0)

    def set_text(self, text: str) -> None:
        self._change(lambda: self._set_text(text))

    def _set_text(self, text: str) -> None:
        wanted = parse_filter(text)
        self.text = "" if wanted else text.strip().lower()
        self.attribute_ids = None if wanted is None else matching_samples(self.attributes, *wanted)

    def set_kind(self, kind: str, on: bool) -> None:
        self._change(lambda: (self.kinds.add if on else self.kinds.discard)(kind))

    def _change(self, apply: Callable[[], object]) -> None:
        if hasattr(self, "beginFilterChange"):  # Qt >= 6.9
            self.beginFilterChange()
            apply()
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)
        else:
            apply()
            self.invalidateRowsFilter()

    def filterAcceptsRow(self, row: int, parent: Index) -> bool:
        model = self.sourceModel()
        assert isinstance(model, SampleTableModel)
        r = model.rows[row]
        if self.text and self.text not in r.sample_id.lower():
            return False
        if self.attribute_ids is not None and r.sample_id not in self.attribute_ids:
            return False
        if self.focus is not None and r.sample_id not in self.focus:
            return False
        return all(r.count(k) > 0 for k in self.kinds)


class SampleTablePanel(QWidget):
    """Table plus its filters; selecting a row opens that sample."""

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.model = SampleTableModel(session)
        self.proxy = SampleFilterModel()
        self.proxy.setSourceModel(self.model)
        self.view = QTableView()
        self.view.setModel(self.proxy)
        self.view.setSortingEnabled(True)
        self.view.sortByColumn(HMEAN_COLUMN, Qt.SortOrder.AscendingOrder)  # worst first
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.verticalHeader().setVisible(False)
        header = self.view.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        # sizes from the first rows only: measuring all 500+ rows at each reset and row
        # selection blocked the window for a second on IC15
        header.setResizeContentsPrecision(40)
        self.filter_edit = QLineEdit(placeholderText="filter sample id… or attribute=value")
        self.filter_edit.textChanged.connect(self._on_filter_text_changed)
        session.dataset_changed.connect(self._on_session_dataset_changed)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.filter_edit)
        kinds = QGridLayout()  # three a row: the panel stays narrow, the canvas gets the room
        self.kind_boxes: dict[str, QCheckBox] = {}
        for n, kind in enumerate(FAILURE_KINDS):
            box = QCheckBox(FAILURE_TITLES[kind])
            box.toggled.connect(lambda on, k=kind: self.proxy.set_kind(k, on))
            self.kind_boxes[kind] = box
            kinds.addWidget(box, n // 3, n % 3)
        layout.addLayout(kinds)
        self.compare_row = QWidget()
        row = QGridLayout(self.compare_row)
        row.setContentsMargins(0, 0, 0, 0)
        for n, kind in enumerate(COMPARE_KINDS):
            box = QCheckBox(COMPARE_TITLES[kind])
            box.toggled.connect(lambda on, k=kind: self.proxy.set_kind(k, on))
            self.kind_boxes[kind] = box
            row.addWidget(box, n // 2, n % 2)
        self.compare_row.setVisible(False)
        layout.addWidget(self.compare_row)
        self._compare_layout = False  # comparison columns moved to the front
        session.comparison_changed.connect(self._on_session_comparison_changed)
        self.focus_button = QPushButton()
        self.focus_button.setVisible(False)
        self.focus_button.clicked.connect(lambda: session.set_focus(None))
        session.focus_changed.connect(self._on_session_focus_changed)
        layout.addWidget(self.focus_button)
        layout.addWidget(self.view)
        self.view.selectionModel().currentRowChanged.connect(self._on_view_row_changed)
        session.sample_changed.connect(self._on_session_sample_changed)
        self.model.modelReset.connect(
            lambda: self._on_session_sample_changed(session.sample_id or "")
        )
        self.model.modelReset.connect(self._open_worst)
        self.model.modelReset.connect(self._hide_empty_counts)
        for signal in (
            self.proxy.modelReset,
            self.proxy.layoutChanged,
            self.proxy.rowsInserted,
            self.proxy.rowsRemoved,
        ):
            signal.connect(self._publish_visible)

    def _on_session_focus_changed(self, focus: tuple[list[str], str] | None) -> None:
        """Only the images the Analysis panel picked, in its order (largest loss first)."""
        self.proxy.set_focus(None if focus is None else focus[0])
        self.focus_button.setVisible(focus is not None)
        if focus is not None:
            self.focus_button.setText(f"{focus[1]} ({len(focus[0])}): show all")
            self.view.sortByColumn(0, Qt.SortOrder.AscendingOrder)
        else:
            self.view.sortByColumn(HMEAN_COLUMN, Qt.SortOrder.AscendingOrder)

    def visible_ids(self) -> list[str]:
        """Sample ids in the table's current order and filter (for next/previous)."""
        return [
            self.model.rows[self.proxy.mapToSource(self.proxy.index(r, 0)).row()].sample_id
            for r in range(self.proxy.rowCount())
        ]

    def _on_session_comparison_changed(self) -> None:
        on = self.session.comparing()
        self.compare_row.setVisible(on)
        header = self.view.horizontalHeader()
        if on and not self._compare_layout:
            # H(A), H(B), ΔH right after the sample id; largest disagreement first
            for k, col in enumerate((HMEAN_COLUMN, len(COLUMNS), DELTA_COLUMN), start=1):
                header.moveSection(header.visualIndex(col), k)
            self.view.sortByColumn(DELTA_COLUMN + 1, Qt.SortOrder.DescendingOrder)
            self._compare_layout = True
        if not on:
            for kind in COMPARE_KINDS:
                self.kind_boxes[kind].setChecked(False)
            if self._compare_layout:
                for col in range(header.count()):
                    header.moveSection(header.visualIndex(col), col)
                self.view.sortByColumn(HMEAN_COLUMN, Qt.SortOrder.AscendingOrder)
                self._compare_layout = False

    def _hide_empty_counts(self) -> None:
        """Failure-count columns that are empty on every row (no splits under IoU, say) are
        hidden, so the columns that say something fit the panel without scrolling."""
        rows, fields = self.model.rows, self.model.fields()
        for col in range(FIRST_COUNT_COLUMN, len(COLUMNS)):
            empty = bool(rows) and not any(getattr(r, fields[col]) for r in rows)
            self.view.setColumnHidden(col, empty)

    def _publish_visible(self, *_: object) -> None:
        self.session.set_visible(self.visible_ids())

    def _on_filter_text_changed(self, text: str) -> None:
        self.proxy.set_text(text)

    def _on_session_dataset_changed(self) -> None:
        """The attributes the filter offers (script, language, legibility, ...)."""
        index = attribute_index(self.session.dataset)
        self.proxy.attributes = index
        self.proxy.set_text(self.filter_edit.text())
        tip = summary(index)
        self.filter_edit.setToolTip(
            "Type part of a sample id, or attribute=value to keep the samples with such a "
            "box" + (f"; attributes here:\n{tip}" if tip else " (this dataset has none)")
        )

    def _on_view_row_changed(self, current: QModelIndex, _: QModelIndex) -> None:
        if current.isValid():
            row = self.model.rows[self.proxy.mapToSource(current).row()]
            if row.sample_id != self.session.sample_id:
                self.session.set_sample(row.sample_id)

    def _open_worst(self) -> None:
        """Once the first results are in, show the worst image unless one was chosen."""
        s = self.session
        if s.sample_chosen or s.evaluation() is None:  # wait for the whole dataset's results
            return
        ids = self.visible_ids()
        if ids:
            s.set_sample(ids[0])

    def _on_session_sample_changed(self, sample_id: str) -> None:
        for r in range(self.proxy.rowCount()):
            src = self.proxy.mapToSource(self.proxy.index(r, 0)).row()
            if self.model.rows[src].sample_id == sample_id:
                if self.view.currentIndex().row() != r:
                    self.view.selectRow(r)
                return
