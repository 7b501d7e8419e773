"""The sample table's rows as whole lists (no Qt): made off the UI thread where they can be,
so that a 25,000-image set fills, re-sorts and filters the table without holding the window.

``blank_rows`` (every sample before it is evaluated) and ``attribute_index`` are kept per
dataset (by identity) so the thread that reads a dataset can make them before the window
shows it; ``ordered_rows`` puts an evaluation's rows in dataset order (made by the
evaluation worker); ``RowFilter`` is the table's filter (sample id or attribute text, failure
kinds, the Analysis panel's pick).
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from operator import attrgetter

from metrics.core.model import Dataset
from metrics.core.protocols import Params
from metrics.core.results import Evaluation, SampleResult
from viewer.scene.attributes import AttributeIndex, attribute_index, matching_samples, parse_filter
from viewer.scene.rows import SampleRow, blank_row

_lock = threading.Lock()
_BLANK: dict[int, tuple[Dataset, list[SampleRow], dict[str, int]]] = {}
_ATTRIBUTES: dict[int, tuple[Dataset, AttributeIndex]] = {}
_KEEP = 4  # datasets remembered (the shown one, a filtered copy, the one being opened)


def blank_rows(ds: Dataset) -> tuple[list[SampleRow], dict[str, int]]:
    """Every sample's row before evaluation (its GT and detection counts only), in dataset
    order, and each sample's position in it."""
    with _lock:
        hit = _BLANK.get(id(ds))
    if hit is not None and hit[0] is ds:
        return hit[1], hit[2]
    rows = [blank_row(s.id, len(s.gt), len(s.det)) for s in ds.samples]
    where = {r.sample_id: k for k, r in enumerate(rows)}
    with _lock:
        if len(_BLANK) >= _KEEP:
            _BLANK.pop(next(iter(_BLANK)))
        _BLANK[id(ds)] = (ds, rows, where)
    return rows, where


def attributes(ds: Dataset | None) -> AttributeIndex:
    """``viewer.scene.attributes.attribute_index`` of a dataset, kept per dataset."""
    if ds is None:
        return {}
    with _lock:
        hit = _ATTRIBUTES.get(id(ds))
    if hit is not None and hit[0] is ds:
        return hit[1]
    index = attribute_index(ds)
    with _lock:
        if len(_ATTRIBUTES) >= _KEEP:
            _ATTRIBUTES.pop(next(iter(_ATTRIBUTES)))
        _ATTRIBUTES[id(ds)] = (ds, index)
    return index


def prepare(ds: Dataset) -> None:
    """Make the table's blank rows and the attribute index of ``ds`` (on a worker thread)."""
    blank_rows(ds)
    attributes(ds)


Made = Mapping[str, tuple[SampleResult, SampleRow]]


def ordered_rows(ds: Dataset, ev: Evaluation[Params], made: Made) -> list[SampleRow]:
    """The rows of an evaluation in dataset order: a sample's row where it has a result,
    its blank row where it has none (not evaluated by this metric)."""
    blank, _ = blank_rows(ds)
    return [made[r.sample_id][1] if r.sample_id in made else r for r in blank]


def any_nonzero(rows: Sequence[SampleRow], field: str) -> bool:
    """Whether any row has a count other than 0 or unknown in ``field``."""
    return any(map(attrgetter(field), rows))


class RowFilter:
    """Text filter on the sample id or an instance attribute (``script=Arabic``: samples with
    at least one such box), "has at least one …" failure filters, and the Analysis panel's
    pick (``focus``: these ids, in this order)."""

    def __init__(self) -> None:
        self.text = ""
        self.kinds: set[str] = set()
        self.attributes: AttributeIndex = {}
        self.attribute_ids: set[str] | None = None
        self.focus: dict[str, int] | None = None

    @property
    def active(self) -> bool:
        return (
            bool(self.text or self.kinds)
            or self.attribute_ids is not None
            or (self.focus is not None)
        )

    def set_focus(self, ids: Sequence[str] | None) -> None:
        self.focus = None if ids is None else {s: k for k, s in enumerate(ids)}

    def set_text(self, text: str) -> None:
        wanted = parse_filter(text)
        self.text = "" if wanted else text.strip().lower()
        self.attribute_ids = None if wanted is None else matching_samples(self.attributes, *wanted)

    def set_kind(self, kind: str, on: bool) -> None:
        (self.kinds.add if on else self.kinds.discard)(kind)

    def apply(self, rows: list[SampleRow]) -> list[SampleRow]:
        """The rows that pass, in their order (``rows`` itself when no filter is on)."""
        return [r for r in rows if self.accepts(r)] if self.active else rows

    def accepts(self, r: SampleRow) -> bool:
        if self.text and self.text not in r.sample_id.lower():
            return False
        if self.attribute_ids is not None and r.sample_id not in self.attribute_ids:
            return False
        if self.focus is not None and r.sample_id not in self.focus:
            return False
        return all(r.count(k) > 0 for k in self.kinds)
