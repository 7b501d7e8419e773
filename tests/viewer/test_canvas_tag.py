"""The canvas names what it shows in its top left corner: the metric (and any parameter off
its default), beside the detector's name when comparing (the metric was named only in the
Metric tab)."""

from __future__ import annotations

from metrics.io.demo import demo_paths
from tests.support import demo_dataset_paths, wait_evaluated
from viewer.app.main_window import MainWindow


def test_each_canvas_names_its_detector_and_metric(qtbot) -> None:
    w = MainWindow()
    qtbot.addWidget(w)
    w.resize(1366, 768)
    w.show()
    assert w.open_paths(demo_dataset_paths("a"))
    wait_evaluated(qtbot, w.session)
    metric = w.session.metric
    assert w.canvas._name_tag() == metric  # one detector: the metric alone
    assert w.session.add_detections(str(demo_paths().det_b))
    qtbot.waitUntil(
        lambda: bool(w.session.b.evaluations) and not w.session.is_busy(), timeout=60000
    )
    assert w.canvas._name_tag() == f"det_a · {metric}"
    assert w.canvas_b._name_tag() == f"det_b · {metric}"
    w.compare.mode.setCurrentIndex(1)  # swipe: one canvas shows both
    qtbot.wait(20)
    assert w.canvas._name_tag() == f"det_a · {metric}  |  det_b · {metric}"
