"""The sample table's filter: sample id or attribute text, failure kinds, the Analysis
panel's pick. It only filters: the table model sorts its rows itself (a Qt proxy sort
calls ``data`` a million times on 5,000 images)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QSortFilterProxyModel, Qt

from viewer.scene.attributes import matching_samples, parse_filter
from viewer.scene.rows import SampleRow

Index = QModelIndex | QPersistentModelIndex


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

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """The source model sorts its rows; this proxy only filters (keeps their order)."""
        model: Any = self.sourceModel()  # a SampleTableModel (its module imports this one)
        model.focus = self.focus  # the Analysis panel's order, when it picked the images
        model.sort(column, order)

    def filterAcceptsRow(self, row: int, parent: Index) -> bool:
        model: Any = self.sourceModel()
        return self.accepts(model.rows[row])

    def accepts(self, r: SampleRow) -> bool:
        if self.text and self.text not in r.sample_id.lower():
            return False
        if self.attribute_ids is not None and r.sample_id not in self.attribute_ids:
            return False
        if self.focus is not None and r.sample_id not in self.focus:
            return False
        return all(r.count(k) > 0 for k in self.kinds)
