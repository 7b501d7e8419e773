"""The Metric tab's parameter tooltips are the family's declarations, the same words as
``detlens eval --describe`` (not the bare parameter name)."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel

from metrics.catalogue.registry import METRICS
from metrics.declare.params import docs
from tests.support import demo_dataset_paths, wait_evaluated
from viewer.app.session import Session
from viewer.widgets.panels import ParamPanel


def test_every_parameter_shows_its_declared_help(qtbot) -> None:
    s = Session()
    panel = ParamPanel(s)
    qtbot.addWidget(panel)
    assert s.open_dataset(demo_dataset_paths("b"))
    wait_evaluated(qtbot, s)
    for metric in ("tiou", "deteval"):
        s.set_metric(metric)
        declared = {d.name: d.tooltip() for d in docs(METRICS[metric].params_type)}
        assert set(panel.editors) == set(declared)
        for name, editor in panel.editors.items():
            assert editor.toolTip() == declared[name]
            assert len(editor.toolTip()) > len(name) + 30
        labels = [w for w in panel.findChildren(QLabel) if w.text() in declared]
        assert labels and all(w.toolTip() == declared[w.text()] for w in labels)
