"""Every format in the viewer: files dropped or chosen in File › Open, instance attributes in
the inspector and as a sample filter (``script=Arabic``)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QMimeData, QPoint, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication, QWidget

from metrics.io.reader import load_dataset
from tests.metrics.io.formats_support import write
from tests.support import wait_evaluated
from viewer.app.paths import DatasetPaths
from viewer.app.session import Session
from viewer.scene.attributes import attribute_index, matching_samples, parse_filter, summary
from viewer.widgets.inspector import describe
from viewer.widgets.open_dialog import DropOpener, OpenDatasetDialog, guess_paths
from viewer.widgets.sample_table import SampleTablePanel

Q1 = "10,10,50,10,50,30,10,30"
Q2 = "60,10,90,10,90,30,60,30"


def _mlt(tmp_path: Path) -> tuple[Path, Path]:
    write(tmp_path, "gt/gt_img_1.txt", f"{Q1},Arabic,مرحبا\n{Q2},Latin,###\n")
    write(tmp_path, "gt/gt_img_2.txt", f"{Q1},Latin,hello\n")
    write(tmp_path, "gt/gt_img_3.txt", "")
    det = write(
        tmp_path,
        "preds.json",
        {
            "predictions": [
                {
                    "img_path": "img_1.jpg",
                    "det_polygons": [[10, 10, 50, 10, 50, 30, 10, 30]],
                    "det_scores": [0.9],
                }
            ]
        },
    )
    return tmp_path / "gt", det


def test_attribute_index_and_filter_text(tmp_path: Path) -> None:
    gt, det = _mlt(tmp_path)
    index = attribute_index(load_dataset(gt, det))
    assert index == {"script": {"Arabic": {"img_1"}, "Latin": {"img_1", "img_2"}}}
    assert parse_filter(" script = arabic ") == ("script", "arabic")
    assert parse_filter("img_1") is None
    assert matching_samples(index, "script", "arabic") == {"img_1"}
    assert matching_samples(index, "script", "") == {"img_1", "img_2"}
    assert matching_samples(index, "language", "x") == set()
    assert summary(index) == "script: Arabic, Latin"


def test_sample_table_filters_by_attribute(qtbot, tmp_path: Path) -> None:
    gt, det = _mlt(tmp_path)
    s = Session()
    panel = SampleTablePanel(s)
    qtbot.addWidget(panel)
    assert s.open_dataset(DatasetPaths(str(gt), str(det)))
    wait_evaluated(qtbot, s)
    assert sorted(panel.visible_ids()) == ["img_1", "img_2", "img_3"]
    panel.filter_edit.setText("script=Latin")
    assert sorted(panel.visible_ids()) == ["img_1", "img_2"]
    panel.filter_edit.setText("script=Arabic")
    assert panel.visible_ids() == ["img_1"]
    assert "script: Arabic, Latin" in panel.filter_edit.toolTip()
    panel.filter_edit.setText("")
    assert len(panel.visible_ids()) == 3


def test_inspector_shows_attributes(qtbot, tmp_path: Path) -> None:
    gt, det = _mlt(tmp_path)
    s = Session()
    assert s.open_dataset(DatasetPaths(str(gt), str(det)))
    wait_evaluated(qtbot, s)
    s.set_sample("img_1")
    text = describe(s, ("gt", 1))
    assert "attributes: script <b>Latin</b>, dont_care <b>true</b>" in text
    assert "attributes" not in describe(s, ("det", 0))


def test_guess_paths_from_dropped_items(tmp_path: Path) -> None:
    images = tmp_path / "imgs"
    images.mkdir()
    (images / "img_1.jpg").write_bytes(b"x")
    gt, det = str(tmp_path / "textdet_test.json"), str(tmp_path / "preds")
    assert guess_paths([det, str(images), gt], None) == DatasetPaths(gt, det, str(images))
    assert guess_paths(["/a/x.json", "/a/y.json"], None) == DatasetPaths("/a/x.json", "/a/y.json")
    current = DatasetPaths("/g.zip", "/d.zip", "/im")
    assert guess_paths(["/new.json"], current) == DatasetPaths("/g.zip", "/new.json", "/im")


def test_drop_on_a_window_opens_the_filled_dialog(qtbot, tmp_path: Path) -> None:
    target = QWidget()
    qtbot.addWidget(target)
    target.show()
    got: list[list[str]] = []
    DropOpener(target, got.append)
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(tmp_path / "gt.zip"))])
    args = (
        QPoint(5, 5),
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
    )
    enter = QDragEnterEvent(*args)
    QApplication.sendEvent(target, enter)  # Qt delivers a drop to the widget a drag entered
    assert enter.isAccepted()
    QApplication.sendEvent(target, QDropEvent(*args))
    assert got == [[str(tmp_path / "gt.zip")]]


def test_open_dialog_takes_any_path(qtbot) -> None:
    dialog = OpenDatasetDialog(None, DatasetPaths("/data/TextOCR_0.1_val.json", "/data/preds"))
    qtbot.addWidget(dialog)
    assert dialog.paths() == DatasetPaths("/data/TextOCR_0.1_val.json", "/data/preds")
    dialog.edits["gt"].setText("")
    assert dialog.paths() is None
