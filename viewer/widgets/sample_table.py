"""Sample table: one row per image with its scores and failure counts; sortable, filterable."""

from __future__ import annotations

from PySide6.QtCore import (
    QModelIndex,
    Qt,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QGridLayout,
    QHeaderView,
    QLineEdit,
    QPushButton,
    QStyle,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from viewer.app.session import Session
from viewer.scene.attributes import summary
from viewer.scene.row_lists import any_nonzero, attributes
from viewer.scene.rows import (
    COMPARE_KINDS,
    COMPARE_TITLES,
    FAILURE_KINDS,
    FAILURE_TITLES,
)
from viewer.widgets.sample_model import (
    COLUMNS,
    DELTA_COLUMN,
    FIRST_COUNT_COLUMN,
    HMEAN_COLUMN,
    SampleTableModel,
)

__all__ = ["COLUMNS", "HMEAN_COLUMN", "SampleTableModel", "SampleTablePanel"]


FIT_ROWS = 40  # the rows a column's width is fitted to (a double click on its edge too)


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
        header.setResizeContentsPrecision(FIT_ROWS)
        self.filter_edit = QLineEdit(placeholderText="filter sample id… or attribute=value")
        self.filter_edit.textChanged.connect(self._on_filter_text_changed)
        session.dataset_changed.connect(self._on_session_dataset_changed)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.filter_edit)
        kinds = QGridLayout()  # three a row: the panel stays narrow, the canvas gets the room
        kinds.setVerticalSpacing(0)  # and short: the table keeps its rows on a laptop
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
        row.setVerticalSpacing(0)
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
        hidden, so the columns that say something fit the panel without scrolling. While the
        shown metric runs they stay as they are (decided again when its results are in)."""
        s = self.session
        if s.is_busy() and s.evaluation() is None and not s.comparing():
            return
        rows, fields = self.model.rows, self.model.fields()
        listed = s.loading and bool(s.pending_rows)  # a set being read: no count known yet
        hidden = []
        for col in range(FIRST_COUNT_COLUMN, len(COLUMNS)):
            empty = bool(rows) and (listed or not any_nonzero(rows, fields[col]))
            hidden.append(empty)
            if self.view.isColumnHidden(col) != empty:  # each call lays the table out again
                self.view.setColumnHidden(col, empty)
        # widths from the first rows, fitted again only when what they show changes (columns,
        # rows coming or going, scores arriving): each fit asks every column's first rows
        done = s.evaluation() is not None  # before results: the ids and counts only
        sized = (tuple(hidden), len(fields), bool(rows), s.metric if done else None, done)
        if sized != self._sized:
            self._sized = sized
            self._fit_columns()

    def _fit_columns(self) -> None:
        """Each shown column as wide as its header or the widest text of its first rows.

        What ``resizeColumnsToContents`` does, with a dozen calls into Qt instead of one
        callback per cell and role: while a worker thread reads or evaluates a set, each
        callback waited for the interpreter (a fit took 30-46 ms instead of 8 at 25,000
        images)."""
        view, header = self.view, self.view.horizontalHeader()
        fm = view.fontMetrics()
        margin = 2 * (view.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin) + 1)
        margin += 2 if view.showGrid() else 1  # as Qt's fit: the grid line, a rounding pixel
        for col in range(self.model.columnCount()):
            if view.isColumnHidden(col):
                continue
            texts = sorted(set(self.model.texts(col, FIT_ROWS)), key=len, reverse=True)
            cells = max((fm.horizontalAdvance(t) for t in texts[:3]), default=0) + margin
            view.setColumnWidth(col, max(cells, header.sectionSizeHint(col)))

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
