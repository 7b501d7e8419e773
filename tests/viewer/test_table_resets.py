"""How often the sample table is made again while a set opens (issue 11: at 25,000 images
each model reset holds the window ~20-35 ms): no empty table between the listed ids and the
dataset, and the current image's first result patched into its row, not a re-sort."""

from __future__ import annotations

import threading
from pathlib import Path

from PySide6.QtCore import Qt

from tests.support import wait_evaluated
from tests.viewer.test_table_while_loading import _set
from viewer.app.main_window import MainWindow
from viewer.app.paths import DatasetPaths
from viewer.widgets.sample_table import COLUMNS

R = COLUMNS.index("R")


def _text(w: MainWindow, row: int, column: int) -> str:
    m = w.samples.model
    return str(m.data(m.index(row, column), Qt.ItemDataRole.DisplayRole))


def test_the_first_result_is_patched_into_its_row(
    qtbot, tmp_path: Path, hold_whole_set: threading.Event
) -> None:
    """The current image's result arrives before the set's: its row shows its scores where it
    stands (no reset, the selection stays); the whole evaluation then sorts the table."""
    release = hold_whole_set
    w = MainWindow(restore_layout=False)
    qtbot.addWidget(w)
    w.show()
    model = w.samples.model
    resets: list[int] = []
    model.modelReset.connect(lambda: resets.append(model.rowCount()))
    try:
        assert w.open_paths(_set(tmp_path))
        s = w.session
        before = list(resets)
        first = s.sample_id
        assert first is not None
        row = model.row_of[first]
        assert _text(w, row, R) == "…"
        qtbot.waitUntil(lambda: bool(s.partial), timeout=10_000)
        qtbot.waitUntil(lambda: _text(w, model.row_of[first], R) not in ("…", "–"), timeout=5000)
        assert resets == before  # patched in place
        assert model.row_of[first] == row and model.shown[row].sample_id == first
        assert model.shown[row].recall is not None
        others = [r for r in model.shown if r.sample_id != first]
        assert all(r.recall is None for r in others)  # nothing else looks known
        assert w.samples.view.currentIndex().row() == row
        view = w.samples.view  # its scores fit their columns (not "0.…"), without a new fit
        for c in (R, R + 1, R + 2):
            assert view.columnWidth(c) >= view.sizeHintForColumn(c), (c, view.columnWidth(c))
    finally:
        release.set()
    wait_evaluated(qtbot, w.session)
    assert len(resets) > len(before)  # the whole evaluation: sorted again
    hmeans = [r.hmean for r in model.shown]
    assert None not in hmeans and hmeans == sorted(hmeans)  # type: ignore[type-var]
    assert all(model.row_of[r.sample_id] == k for k, r in enumerate(model.shown))


def test_a_filter_on_makes_the_rows_again(
    qtbot, tmp_path: Path, hold_whole_set: threading.Event
) -> None:
    """With a filter on, a result moves a row in or out of it: no patch, the rows are made
    and filtered again (the misses filter lists no unknown row, then the first image)."""
    release = hold_whole_set
    w = MainWindow(restore_layout=False)
    qtbot.addWidget(w)
    w.show()
    model = w.samples.model
    try:
        w.samples.kind_boxes["missed"].setChecked(True)
        assert w.open_paths(_set(tmp_path))
        first = w.session.sample_id
        qtbot.waitUntil(lambda: bool(w.session.partial), timeout=10_000)
        qtbot.waitUntil(lambda: model.rowCount() == 1, timeout=5000)
        assert [r.sample_id for r in model.shown] == [first]
    finally:
        release.set()
    wait_evaluated(qtbot, w.session)
    assert model.rowCount() == 6  # every image misses a GT


def test_opening_a_set_never_shows_an_empty_table(qtbot, tmp_path: Path) -> None:
    """From the listed ids to the dataset the table keeps its rows (no reset to 0 rows
    between them); a failed open shows the old set's rows again."""
    w = MainWindow(restore_layout=False)
    qtbot.addWidget(w)
    w.show()
    model = w.samples.model
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    resets: list[int] = []
    model.modelReset.connect(lambda: resets.append(model.rowCount()))
    assert w.open_paths(_set(tmp_path / "a"))
    qtbot.wait(50)
    assert 6 in resets and 0 not in resets[resets.index(6) :], resets
    wait_evaluated(qtbot, w.session)
    resets.clear()
    assert w.open_paths(_set(tmp_path / "b", images=4))
    qtbot.wait(50)
    assert 4 in resets and 6 not in resets[resets.index(4) :], resets  # not the old set again
    wait_evaluated(qtbot, w.session)
    ids = sorted(r.sample_id for r in model.shown)
    assert len(ids) == 4
    bad = tmp_path / "b" / "missing.zip"
    assert not w.open_paths(DatasetPaths(str(bad), str(bad)))
    qtbot.waitUntil(lambda: sorted(r.sample_id for r in model.shown) == ids, timeout=5000)


def test_the_column_fit_is_as_wide_as_qts(qtbot, tmp_path: Path) -> None:
    """``_fit_columns`` (a dozen calls into Qt) gives each shown column at least the width
    Qt's own ``resizeColumnsToContents`` gives it, and hardly more: nothing is cut."""
    w = MainWindow(restore_layout=False)
    qtbot.addWidget(w)
    w.show()
    assert w.open_paths(_set(tmp_path, images=12))
    wait_evaluated(qtbot, w.session)
    panel, view = w.samples, w.samples.view
    shown = [c for c in range(panel.model.columnCount()) if not view.isColumnHidden(c)]
    assert len(shown) >= 6
    panel._fit_columns()
    ours = [view.columnWidth(c) for c in shown]
    view.resizeColumnsToContents()
    qts = [view.columnWidth(c) for c in shown]
    assert all(q <= o <= q + 8 for o, q in zip(ours, qts, strict=True)), (ours, qts)
