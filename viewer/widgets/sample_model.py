"""The sample table's model: one row per image with its scores and failure counts, sorted
and filtered as whole row lists (``viewer.scene.row_lists``)."""

from __future__ import annotations

from operator import attrgetter
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    QTimer,
)
from PySide6.QtGui import QColor

from metrics.core.results import Evaluation
from viewer.app.session import Session
from viewer.scene.row_lists import RowFilter, blank_rows
from viewer.scene.rows import SampleRow, compare_row, sample_row, sorted_rows

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
_SAMPLE_ID = attrgetter("sample_id")
_SCORE_FIELDS = frozenset({"recall", "precision", "hmean", "hmean_b", "delta", "disagreement"})
_PARTIAL = 4  # where the partial results stand in ``SampleTableModel._source``
_PATCH_MAX = 64  # partial results beyond this many samples: the rows are made again
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
        self._row_of: dict[str, int] | None = {}  # sample id -> row shown (made when asked)
        self._made: dict[str, tuple[object, object, SampleRow]] = {}  # id -> sample, result, row
        self._from: tuple[object, ...] | None = None  # what the rows were made from
        session.dataset_changed.connect(self.reload)
        session.results_changed.connect(self.reload)  # set_metric emits it too
        session.comparison_changed.connect(self.reload)
        session.loading_changed.connect(self._on_loading_changed)

    @property
    def focus(self) -> dict[str, int] | None:
        return self.filter.focus

    def _on_loading_changed(self, on: bool) -> None:
        """The new set's ids are listed while it is read. When reading ends the rows are
        made after the events in hand: the dataset shown next (``set_dataset`` follows at
        once) or, on bad input, the old one; not an empty table first (at 25,000 images each
        reset holds the window)."""
        if on:
            self.reload()
        else:
            QTimer.singleShot(0, self.reload)

    @property
    def row_of(self) -> dict[str, int]:
        """Sample id -> its row, made when first asked after the rows changed (at 25,000
        rows a dictionary is ~6 ms, which every reset would otherwise pay)."""
        if self._row_of is None:
            ids = map(_SAMPLE_ID, self.shown)
            self._row_of = dict(zip(ids, range(len(self.shown)), strict=True))
        return self._row_of

    def reload(self) -> None:
        """Rows from the current results: the evaluation worker's rows when the shown results
        are a whole evaluation, else the blank rows with those of the samples that have a
        result (the current image's first result) made here."""
        source = self._source()
        if source is not None and _same(source, self._from):  # e.g. set_dataset's signals
            if self.shown:  # only the pending/not evaluated marks may change: repaint them
                self.dataChanged.emit(self.index(0, 0), self.index(len(self.shown) - 1, 0))
            return
        if self._patch(source):
            return
        self._from = source
        self.beginResetModel()
        if len(self._made) > 50_000:
            self._made.clear()
        self.rows = self._base()
        self._sort_rows()
        self.endResetModel()

    def _source(self) -> tuple[object, ...] | None:
        """What the rows are made from (None for a comparison: always made again)."""
        s, m = self.session, self.session.metric or ""
        a = s.a
        if s.comparing():
            return None
        pending = s.pending_rows if s.loading else None
        if a is None:
            return (pending,)
        ev, part = a.evaluation(), a.partial.get(m)
        return (pending, s.dataset, m, ev, part, a.shown.get(m), a.store.ordered.get(m))

    def _patch(self, source: tuple[object, ...] | None) -> bool:
        """The current image's first result (only the partial results changed, no filter
        on): its row is replaced where it stands, without re-sorting 25,000 rows on the UI
        thread; the table is sorted again when the whole evaluation arrives. False when the
        rows must be made again."""
        old, s = self._from, self.session
        if source is None or old is None or len(source) != len(old) or self.filter.active:
            return False
        pairs = enumerate(zip(source, old, strict=True))
        if not all(x is y for k, (x, y) in pairs if k != _PARTIAL):
            return False
        part, ds = source[_PARTIAL], s.dataset
        if not isinstance(part, Evaluation) or ds is None or len(part.results) > _PATCH_MAX:
            return False
        a = s.a
        made = a.store.rows.get(s.metric or "", {}) if a is not None else {}
        changed = []
        for sid in part.results:
            row = self.row_of.get(sid)
            if row is None:
                return False
            changed.append((row, self._row(ds[sid], made)))  # a listed row: ds has it
        self._from = source
        for row, new in changed:  # no filter on: ``shown`` is ``rows`` itself
            self.shown[row] = new
            self.dataChanged.emit(self.index(row, 0), self.index(row, self.columnCount() - 1))
        return True

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
        self._row_of = None

    def fields(self) -> tuple[str, ...]:
        return _FIELDS + (_COMPARE_FIELDS if self.session.comparing() else ())

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.shown)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.fields())

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> object:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            if self.session.comparing() and section in _A_COLUMNS:
                return f"{COLUMNS[section]}(A)"  # the columns after ΔH are A's
            return (COLUMNS + COMPARE_COLUMNS)[section]
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.ToolTipRole:
            return (TOOLTIPS + COMPARE_TOOLTIPS)[section]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
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
            return _background(field, float(value)) if field in _COLOURED else None
        return None

    def texts(self, column: int, count: int) -> list[str]:
        """What the first ``count`` rows show in ``column`` (for fitting its width), and for
        a score column the width of a score: scores come in later without a new fit (the
        current image's first result), and must not show as "0.…"."""
        fields = self.fields()
        if not 0 <= column < len(fields):
            return []
        field = fields[column]
        out = [self._text(field, getattr(r, field), column) for r in self.shown[:count]]
        if field in _SCORE_FIELDS:
            out.append(self._text(field, -1.0 if field == "delta" else 1.0, column))
        return out

    def _text(self, field: str, value: Any, column: int) -> str:
        if isinstance(value, float):
            return f"{value:+.3f}" if field == "delta" else f"{value:.3f}"
        if isinstance(value, int) and column > 2 and value == 0:
            return ""
        if value is None:  # not known yet (reading, evaluating) or not evaluated
            return "…" if self.session.is_busy() or self.session.loading else "–"
        return str(value)


def _same(a: tuple[object, ...], b: tuple[object, ...] | None) -> bool:
    return b is not None and len(a) == len(b) and all(x is y for x, y in zip(a, b, strict=True))


_COLOURED = frozenset({"hmean", "hmean_b", "delta"})  # H(A) and H(B) on one scale


def _background(field: str, value: float) -> QColor:
    if field in ("hmean", "hmean_b"):
        return QColor.fromHsvF(max(0.0, min(1.0, value)) * 0.33, 0.35, 1.0)
    hue = 0.33 if value > 0 else 0.0
    return QColor.fromHsvF(hue, min(1.0, abs(value)) * 0.5, 1.0)
