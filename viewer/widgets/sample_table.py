"""Sample table: one row per image with its scores and failure counts; sortable, filterable."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
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

from viewer.scene.attributes import summary
from viewer.scene.row_lists import RowFilter, any_nonzero, attributes, blank_rows
from viewer.scene.rows import (
    COMPARE_KINDS,
    COMPARE_TITLES,
    FAILURE_KINDS,
    FAILURE_TITLES,
    SampleRow,
    compare_row,
    sample_row,
    sorted_rows,
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
_A_COLUMNS = frozenset(range(2, len(COLUMNS)))  # det, R, P, H, counts: side A's in a comparison
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
_ROLES = {
    Qt.ItemDataRole.DisplayRole,
    Qt.ItemDataRole.ToolTipRole,
    Qt.ItemDataRole.UserRole,
    Qt.ItemDataRole.TextAlignmentRole,
    Qt.ItemDataRole.BackgroundRole,
}


class SampleTableModel(QAbstractTableModel):
    """Rows from the session's current metric, sorted and filtered here (a Qt proxy calls
    Python once per row and per sort comparison: seconds at 25,000 images); refreshed when
    results or metric change. ``rows`` holds every row in the table's order, ``shown`` those
    that pass the filter (the model's rows)."""

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.rows: list[SampleRow] = []
        self.shown: list[SampleRow] = []
        self.filter = RowFilter()
        self.sort_key: tuple[int, Qt.SortOrder] = (HMEAN_COLUMN, Qt.SortOrder.AscendingOrder)
        self.row_of: dict[str, int] = {}  # sample id -> row shown
        self._made: dict[str, tuple[object, object, SampleRow]] = {}  # id -> sample, result, row
        session.dataset_changed.connect(self.reload)
        session.results_changed.connect(self.reload)  # set_metric emits it too
        session.comparison_changed.connect(self.reload)
        session.loading_changed.connect(lambda _: self.reload())  # the new set's ids, listed

    @property
    def focus(self) -> dict[str, int] | None:
        return self.filter.focus

    def reload(self) -> None:
        """Rows from the current results: the evaluation worker's rows when the shown results
        are a whole evaluation, else the blank rows with those of the samples that have a
        result (the current image's first result) made here."""
        self.beginResetModel()
        if len(self._made) > 50_000:
            self._made.clear()
        self.rows = self._base()
        self._sort_rows()
        self.endResetModel()

    def _base(self) -> list[SampleRow]:
        s = self.session
        ds, a = s.dataset, s.a
        if s.loading and s.pending_rows:  # a new set is being read: its files, paired
            return list(s.pending_rows)
        if ds is None or a is None:
            return []
        made = a.store.rows.get(s.metric or "", {})
        if s.comparing():
            return [compare_row(self._row(x, made), s.diff(x.id)) for x in ds]
        ev = a.evaluation()
        whole = a.store.ordered.get(s.metric or "")
        if whole is not None and ev is not None and whole[0] is ev and s.metric not in a.shown:
            return whole[1]
        blank, where = blank_rows(ds)
        rows = list(blank)
        ids = set(ev.results) if ev is not None else set()
        part = a.partial.get(s.metric or "")
        ids.update(part.results if part is not None else ())
        for sid in ids & where.keys():
            rows[where[sid]] = self._row(ds[sid], made)
        return rows

    def _row(self, sample: Any, made: dict[str, Any]) -> SampleRow:
        """The row of a sample: made by the evaluation worker, or here (and kept) when the
        shown result is another (a swept metric at another threshold, a partial result)."""
        result = self.session.result(sample_id=sample.id)
        pre = made.get(sample.id)
        if pre is not None and pre[0] is result:
            return pre[1]  # type: ignore[no-any-return]
        key = f"{self.session.metric}:{sample.id}"
        hit = self._made.get(key)
        if hit is None or hit[0] is not sample or hit[1] is not result:
            hit = self._made[key] = (sample, result, sample_row(sample, result))
        return hit[2]

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        self.beginResetModel()
        self.sort_key = (column, order)
        self._sort_rows()
        self.endResetModel()

    def refilter(self) -> None:
        """Apply the filter after it changed (the Analysis panel's pick also re-sorts)."""
        self.beginResetModel()
        self._sort_rows()
        self.endResetModel()

    def _sort_rows(self) -> None:
        column, order = self.sort_key
        fields = self.fields()
        field = fields[column] if 0 <= column < len(fields) else None
        descending = order == Qt.SortOrder.DescendingOrder
        self.rows = sorted_rows(self.rows, field, descending=descending, focus=self.focus)
        self.shown = self.filter.apply(self.rows)
        self.row_of = {r.sample_id: k for k, r in enumerate(self.shown)}

    def fields(self) -> tuple[str, ...]:
        return _FIELDS + (_COMPARE_FIELDS if self.session.comparing() else ())

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.shown)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.fields())

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            if self.session.comparing() and section in _A_COLUMNS:
                return f"{COLUMNS[section]}(A)"  # the columns after ΔH are A's
            return (COLUMNS + COMPARE_COLUMNS)[section]
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.ToolTipRole:
            return (TOOLTIPS + COMPARE_TOOLTIPS)[section]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role not in _ROLES or not index.isValid() or index.row() >= len(self.shown):
            return None
        fields = self.fields()
        if index.column() >= len(fields):
            return None
        field = fields[index.column()]
        value = getattr(self.shown[index.row()], field)
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(field, value, index.column())
        if role == Qt.ItemDataRole.ToolTipRole and value is None:
            return "not known yet (still reading or evaluating), or not evaluated by this metric"
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
        if value is None:  # not known yet (reading, evaluating) or not evaluated
            return "…" if self.session.is_busy() or self.session.loading else "–"
        return str(value)


def _background(field: str, value: float) -> QColor:
    if field == "hmean":
        return QColor.fromHsvF(max(0.0, min(1.0, value)) * 0.33, 0.35, 1.0)
    hue = 0.33 if value > 0 else 0.0
    return QColor.fromHsvF(hue, min(1.0, abs(value)) * 0.5, 1.0)


class SampleTablePanel(QWidget):
    """Table plus its filters; selecting a row opens that sample."""

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.model = SampleTableModel(session)
        self.view = QTableView()
        self.view.setModel(self.model)
        self.view.setSortingEnabled(True)
        self.view.sortByColumn(HMEAN_COLUMN, Qt.SortOrder.AscendingOrder)  # worst first
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.verticalHeader().setVisible(False)
        header = self.view.horizontalHeader()
        # sizes from the first rows only, fitted in _hide_empty_counts (ResizeToContents
        # measured at every reset, which blocked the window for seconds at 5,000 images)
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
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
            box.toggled.connect(lambda on, k=kind: self._set_kind(k, on))
            self.kind_boxes[kind] = box
            kinds.addWidget(box, n // 3, n % 3)
        layout.addLayout(kinds)
        self.compare_row = QWidget()
        row = QGridLayout(self.compare_row)
        row.setContentsMargins(0, 0, 0, 0)
        for n, kind in enumerate(COMPARE_KINDS):
            box = QCheckBox(COMPARE_TITLES[kind])
            box.toggled.connect(lambda on, k=kind: self._set_kind(k, on))
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
        self.model.modelReset.connect(self._publish_visible)
        self._sized: tuple[object, ...] | None = None  # what the column widths were fitted to

    def _on_session_focus_changed(self, focus: tuple[list[str], str] | None) -> None:
        """Only the images the Analysis panel picked, in its order (largest loss first)."""
        self.model.filter.set_focus(None if focus is None else focus[0])
        self.model.refilter()
        self.focus_button.setVisible(focus is not None)
        if focus is not None:
            self.focus_button.setText(f"{focus[1]} ({len(focus[0])}): show all")
            self.view.sortByColumn(0, Qt.SortOrder.AscendingOrder)
        else:
            self.view.sortByColumn(HMEAN_COLUMN, Qt.SortOrder.AscendingOrder)

    def visible_ids(self) -> list[str]:
        """Sample ids in the table's current order and filter (for next/previous)."""
        return [r.sample_id for r in self.model.shown]

    def _set_kind(self, kind: str, on: bool) -> None:
        self.model.filter.set_kind(kind, on)
        self.model.refilter()

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
        hidden = []
        for col in range(FIRST_COUNT_COLUMN, len(COLUMNS)):
            empty = bool(rows) and not any_nonzero(rows, fields[col])
            hidden.append(empty)
            if self.view.isColumnHidden(col) != empty:  # each call lays the table out again
                self.view.setColumnHidden(col, empty)
        # widths from the first rows, fitted again only when what they show changes (columns,
        # rows coming or going, scores arriving): each fit asks every column's first rows
        s = self.session
        sized = (tuple(hidden), len(fields), bool(rows), s.metric, s.evaluation() is None)
        if sized != self._sized:
            self._sized = sized
            self.view.resizeColumnsToContents()

    def _publish_visible(self, *_: object) -> None:
        self.session.set_visible(self.visible_ids())

    def _on_filter_text_changed(self, text: str) -> None:
        self.model.filter.set_text(text)
        self.model.refilter()

    def _on_session_dataset_changed(self) -> None:
        """The attributes the filter offers (script, language, legibility, ...)."""
        index = attributes(self.session.dataset)
        self.model.filter.attributes = index
        if self.filter_edit.text():
            self.model.filter.set_text(self.filter_edit.text())
            self.model.refilter()
        tip = summary(index)
        self.filter_edit.setToolTip(
            "Type part of a sample id, or attribute=value to keep the samples with such a "
            "box" + (f"; attributes here:\n{tip}" if tip else " (this dataset has none)")
        )

    def _on_view_row_changed(self, current: QModelIndex, _: QModelIndex) -> None:
        if current.isValid() and not self.session.loading:  # a set being read: no image yet
            row = self.model.shown[current.row()]
            if row.sample_id != self.session.sample_id:
                self.session.set_sample(row.sample_id)

    def _open_worst(self) -> None:
        """Once the first results are in, show the worst image unless one was chosen."""
        s = self.session
        if s.sample_chosen or s.evaluation() is None:  # wait for the whole dataset's results
            return
        if s.b is not None and s.b.evaluation() is None:  # comparing: wait for B's too
            return
        ids = self.visible_ids()
        if ids:
            s.set_sample(ids[0])

    def _on_session_sample_changed(self, sample_id: str) -> None:
        r = self.model.row_of.get(sample_id)
        if r is None:
            return
        if self.view.currentIndex().row() != r:
            self.view.selectRow(r)
