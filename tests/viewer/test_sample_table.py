"""The sample table model through pytest-qt's model tester; sorting and filters."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tests.support import demo_dataset_paths, wait_evaluated
from viewer.app.session import Session
from viewer.widgets.sample_table import HMEAN_COLUMN, SampleTablePanel


def test_model_passes_qt_model_tester(qtbot, qtmodeltester) -> None:
    s = Session()
    panel = SampleTablePanel(s)
    qtbot.addWidget(panel)
    assert s.open_dataset(demo_dataset_paths("b"))
    wait_evaluated(qtbot, s)
    qtmodeltester.check(panel.model, force_py=True)


def test_worst_first_text_filter_and_failure_filters(qtbot) -> None:
    s = Session()
    panel = SampleTablePanel(s)
    qtbot.addWidget(panel)
    s.open_dataset(demo_dataset_paths("b"))
    wait_evaluated(qtbot, s)
    ids = panel.visible_ids()
    h = [panel.model.rows[[r.sample_id for r in panel.model.rows].index(i)].hmean for i in ids]
    assert h == sorted(h) and len(ids) == 12
    panel.view.sortByColumn(HMEAN_COLUMN, Qt.SortOrder.DescendingOrder)
    assert panel.visible_ids()[0] == ids[-1]
    panel.filter_edit.setText("img_1")
    assert set(panel.visible_ids()) == {"img_1", "img_10", "img_11", "img_12"}
    panel.filter_edit.setText("")
    panel.kind_boxes["false_positives"].setChecked(True)
    fp = panel.visible_ids()
    assert fp and all(
        panel.model.rows[[r.sample_id for r in panel.model.rows].index(i)].false_positives > 0
        for i in fp
    )
    assert s.visible_ids == fp


def test_failure_columns_empty_on_every_row_are_hidden(qtbot) -> None:
    from viewer.widgets.sample_table import COLUMNS

    s = Session()
    panel = SampleTablePanel(s)
    qtbot.addWidget(panel)
    s.open_dataset(demo_dataset_paths("b"))
    wait_evaluated(qtbot, s)
    for metric, shown, hidden in (("ic15_iou", "miss", "split"), ("cleval_det", "split", "multi")):
        s.set_metric(metric)
        rows = panel.model.rows
        for name, want_hidden in ((shown, False), (hidden, True)):
            col = COLUMNS.index(name)
            field = panel.model.fields()[col]
            assert any(getattr(r, field) for r in rows) is not want_hidden, (metric, name)
            assert panel.view.isColumnHidden(col) is want_hidden, (metric, name)
