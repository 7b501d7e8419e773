"""The main window on the demo data: navigation, layers, selection, metric and parameters."""

from __future__ import annotations

import zipfile
from pathlib import Path

from PySide6.QtCore import QPointF, Qt

from tests.support import wait_evaluated
from viewer.app.main_window import MainWindow
from viewer.app.session import DatasetPaths


def test_opens_demo_and_shows_results(window: MainWindow) -> None:
    s = window.session
    assert s.metric == "tiou" and len(s.dataset) == 12
    assert {"ic15_iou", "siou", "tiou"} <= set(s.evaluations)
    assert "tiou" in window.summary.text() and "R 0." in window.summary.text()
    assert window.canvas.overlay.items


def test_keyboard_navigation_follows_table_order(qtbot, window: MainWindow) -> None:
    order = window.samples.visible_ids()
    window.session.set_sample(order[0])
    qtbot.keyClick(window.canvas, Qt.Key.Key_D)
    assert window.session.sample_id == order[1]
    qtbot.keyClick(window.canvas, Qt.Key.Key_PageUp)
    assert window.session.sample_id == order[0]
    qtbot.keyClick(window.canvas, Qt.Key.Key_A)
    assert window.session.sample_id == order[-1]


def test_layer_toggled_by_key_and_panel(qtbot, window: MainWindow) -> None:
    assert "tiou" in window.session.layers
    qtbot.keyClick(window.canvas, Qt.Key.Key_U)
    assert "tiou" not in window.session.layers
    assert not window.layers.boxes["tiou"].isChecked()
    window.layers.boxes["tiou"].setChecked(True)
    assert "tiou" in window.session.layers
    before = window.session.layers
    for key in window.layers.boxes:
        window.session.toggle_layer(key)
        assert window.layers.boxes[key].isChecked() == (key in window.session.layers)
        window.session.toggle_layer(key)
    assert window.session.layers == before


def test_click_selects_instance_and_inspector_explains(qtbot, window: MainWindow) -> None:
    s = window.session
    s.set_sample("img_3")
    window.canvas.fit()
    qtbot.wait(50)
    gt = s.sample().gt[0]
    c = gt.points.mean(axis=0)
    pos = window.canvas.mapFromScene(QPointF(float(c[0]), float(c[1])))
    s.set_layers(frozenset({"image", "gt"}))
    qtbot.mouseClick(window.canvas.viewport(), Qt.MouseButton.LeftButton, pos=pos)
    assert s.selection == ("gt", 0)
    text = window.inspector.toPlainText()
    # numbered from 1 like the file's lines (the engine's index 0); the partner too
    assert "GT 1" in text and "GT 0" not in text and "line 1" in text
    assert "PHARMACY" in text and "near miss" in text and "with det 1" in text
    assert "ic15_iou" in text and "siou" in text  # the same GT under every metric


def test_switching_metric_and_parameters(qtbot, window: MainWindow) -> None:
    s = window.session
    before = s.evaluation("tiou").recall
    window.params.combo.setCurrentText("ic15_iou")
    assert s.metric == "ic15_iou" and "ic15_iou" in window.summary.text()
    window.params.combo.setCurrentText("tiou")
    window.params.editors["tolerance"].setText("0")
    window.params.apply.click()
    wait_evaluated(qtbot, s)

    def rerun() -> bool:  # no result at all while re-running: never the old parameters'
        ev = s.evaluation("tiou")
        return ev is not None and ev.params.tolerance == 0.0 == s.params("tiou").tolerance

    qtbot.waitUntil(rerun, timeout=30000)
    assert s.evaluation("tiou").recall <= before


def test_bad_file_shows_an_error_and_keeps_the_app(
    qtbot,
    window: MainWindow,
    tmp_path: Path,
) -> None:
    messages: list[str] = []
    window.session.error_raised.connect(messages.append)
    assert not window.open_paths(DatasetPaths(str(tmp_path / "missing.zip")))
    assert messages and "no such file" in messages[-1]
    assert len(window.session.dataset) == 12  # the demo is still open
    bad = tmp_path / "gt.zip"
    with zipfile.ZipFile(bad, "w") as zf:
        zf.writestr("gt_img_1.txt", "0,0,10,0,10,10,0,10,A\n1,2,3,oops\n")
        zf.writestr("gt_img_2.txt", "0,0,10,0,10,10,0,10,B\n")
    assert window.open_paths(DatasetPaths(str(bad)))
    wait_evaluated(qtbot, window.session)
    assert any("gt_img_1.txt:2" in m for m in messages)
    assert "img_2" in window.session.evaluation().results
    assert window.isVisible()


def test_open_dialog_fields_and_recent_datasets(qtbot, window: MainWindow) -> None:
    from viewer.app.main_window import OpenDatasetDialog

    paths = window.session.paths
    dialog = OpenDatasetDialog(window, paths)
    qtbot.addWidget(dialog)
    assert dialog.paths() == paths
    dialog.edits["gt"].setText("")
    assert dialog.paths() is None  # nothing to open without GT
    titles = [a.text() for a in window.recent_menu.actions()]
    assert paths.title in titles
    window.recent_menu.actions()[0].trigger()
    wait_evaluated(qtbot, window.session)
    assert window.session.paths == paths


def test_without_images_the_canvas_fits_the_boxes(qtbot, tmp_path: Path) -> None:
    gt = tmp_path / "gt.zip"
    with zipfile.ZipFile(gt, "w") as zf:
        zf.writestr("gt_img_1.txt", "1000,500,1400,500,1400,600,1000,600,WORD\n")
    det = tmp_path / "det.zip"
    with zipfile.ZipFile(det, "w") as zf:
        zf.writestr("res_img_1.txt", "1010,505,1390,505,1390,595,1010,595\n")
    w = MainWindow()
    qtbot.addWidget(w)
    w.show()
    assert w.open_paths(DatasetPaths(str(gt), str(det)))
    wait_evaluated(qtbot, w.session)
    rect = w.canvas.overlay.rect
    assert rect.contains(1000, 500) and rect.contains(1400, 600)
    assert w.canvas.pixmap_item.pixmap().isNull()
    assert w.session.result(metric="ic15_iou").recall == 1.0


def test_opens_on_the_worst_image_unless_one_was_asked_for(qtbot, window: MainWindow) -> None:
    qtbot.waitUntil(
        lambda: window.session.sample_id == window.samples.visible_ids()[0], timeout=10000
    )
    window.session.set_sample("img_1")
    window.session.results_changed.emit()  # a later reload must not move away from it
    assert window.session.sample_id == "img_1"


def test_help_lists_shortcuts_and_explains_the_metric(qtbot, window: MainWindow) -> None:
    window.show_help()
    text = window.help.text.toPlainText()
    assert "What am I looking at? (tiou)" in text and "cut 28 %" in text
    assert "Next sample" in text and "Label every instance" in text and "Shift+S" in text


def test_parameters_explain_themselves(window: MainWindow) -> None:
    window.session.set_metric("tiou")
    tip = window.params.editors["tolerance"].toolTip()
    assert "costs nothing" in tip and "Official default: 0.01" in tip


def test_progress_is_shown_outside_the_metric_tab(qtbot, window: MainWindow) -> None:
    window.session.set_params("tiou", {"tolerance": "0"})
    assert window.busy.isVisible() or not window.session.is_busy()
    wait_evaluated(qtbot, window.session)
    qtbot.waitUntil(lambda: not window.busy.isVisible(), timeout=5000)


def test_loading_a_dataset_keeps_the_window_live(qtbot, tmp_path: Path) -> None:
    """The dataset is read and planned on a worker thread: the event loop keeps running
    (timers fire, the window repaints) and a second open meanwhile is refused."""
    from PySide6.QtCore import QTimer

    from tests.support import write_zip

    n = 3000
    gt = write_zip(
        tmp_path / "gt.zip", {f"gt_img_{k}.txt": "0,0,9,0,9,9,0,9,A\n" for k in range(n)}
    )
    det = write_zip(
        tmp_path / "det.zip", {f"res_img_{k}.txt": "0,0,9,0,9,9,0,9\n" for k in range(n)}
    )
    w = MainWindow()
    qtbot.addWidget(w)
    w.show()
    seen: list[bool] = []
    timer = QTimer()
    timer.setInterval(5)
    timer.timeout.connect(lambda: seen.append(w.session.loading))
    timer.start()
    refused: list[bool] = []
    QTimer.singleShot(1, lambda: refused.append(not w.session.open_dataset(DatasetPaths(str(gt)))))
    assert w.open_paths(DatasetPaths(str(gt), str(det)))
    timer.stop()
    assert any(seen), "no event was handled while the dataset was read"
    assert refused == [True] and "still loading" in w.last_error
    assert len(w.session.dataset) == n
    wait_evaluated(qtbot, w.session)


def test_status_bar_is_clear_once_loaded(window: MainWindow) -> None:
    assert "reading the dataset" not in window.statusBar().currentMessage()
