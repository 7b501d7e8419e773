"""Issue 28: a missed or rejected instance's label and the inspector name the rule that
refused the match, with the value and the limit."""

from __future__ import annotations

from metrics.deteval.params import DetEvalParams
from metrics.icdar.params import IouParams
from tests.support import wait_evaluated
from viewer.app.main_window import MainWindow
from viewer.scene.rules import below_limit, limit_of


def test_a_value_under_its_limit_names_both() -> None:
    assert below_limit("iou", 0.49, IouParams()) == "IoU 0.49 ≤ 0.5"
    assert below_limit("iou", 0.51, IouParams()) is None
    assert below_limit("area_precision", 0.38, DetEvalParams()) == "area precision 0.38 < 0.4"
    # a value just under its limit never reads as the limit itself
    assert below_limit("area_precision", 0.3999, DetEvalParams()) == "area precision 0.3999 < 0.4"
    assert below_limit("iou", 0.4999, IouParams()) == "IoU 0.4999 ≤ 0.5"
    assert below_limit("iou", 0.5, IouParams()) == "IoU 0.50 ≤ 0.5"  # a tie fails: IoU > 0.5
    assert below_limit("iou", 0.3, IouParams(), digits=4) == "IoU 0.3000 ≤ 0.5"
    assert limit_of(object(), "iou") is None


def test_tedeval_merge_rejection_is_named_on_label_and_inspector(qtbot, window: MainWindow) -> None:
    from viewer.scene.overlay import build_overlay
    from viewer.widgets.inspector import describe

    s = window.session
    s.set_metric("tedeval")
    s.set_sample("img_7")
    wait_evaluated(qtbot, s)
    items = build_overlay(s.sample(), s.result(), params=s.params())
    texts = [t for it in items if it.layer == "labels" for t in it.data["texts"]]
    want = "missed: merge rejected: angle 48.0° ≥ 45°"
    assert texts.count(want) == 2, texts  # OPEN and DAILY
    open_ = next(k for k, g in enumerate(s.sample().gt) if g.text == "OPEN")
    html = describe(s, ("gt", open_))
    assert "merge rejected: angle 48.0° ≥ 45°" in html, html
