"""The viewer's failure gallery through pytest-qt: filters by verdict, text, attribute and the
table's images, sorts, a click opening the image with the instance selected and zoomed, the
comparison classes, and laziness (only the crops in view are drawn)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import Qt

from metrics.core.model import BoxType, Dataset, Instance
from tests.support import rect, sample, wait_evaluated, write_dir
from viewer.app.main_window import MainWindow
from viewer.app.paths import DatasetPaths
from viewer.gallery.widget import GalleryPanel


def _gallery(qtbot, window: MainWindow) -> GalleryPanel:  # type: ignore[no-untyped-def]
    window.gallery_dock.show()
    panel = window.gallery
    assert panel.settle(60)
    return panel


def _only(panel: GalleryPanel, *classes: str) -> None:
    for k, box in panel.boxes.items():
        box.setChecked(k in classes)
    assert panel.settle(60)


def test_filters_and_sorts(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    panel = _gallery(qtbot, window)
    crops = panel.model.crops
    assert crops and all("missed" in c.classes and c.side == "gt" for c in crops)
    assert panel.model.rowCount() == len(crops)
    _only(panel, "false_positive")
    assert panel.model.crops and all(c.side == "det" for c in panel.model.crops)
    _only(panel, "missed", "false_positive")
    both = panel.model.crops
    assert {c.side for c in both} == {"gt", "det"}
    panel.text.setText("img_7")
    qtbot.waitUntil(lambda: panel.settle(60) and {c.sample for c in panel.model.crops} == {"img_7"})
    panel.text.setText("")
    panel.sort.setCurrentIndex(panel.sort.findData("size"))
    assert panel.settle(60)
    sizes = [c.size for c in panel.model.crops]
    assert len(sizes) == len(both) and sizes == sorted(sizes)
    window.samples.filter_edit.setText("img_5")  # the table's images only
    panel.table_only.setChecked(True)
    qtbot.waitUntil(lambda: panel.settle(60) and {c.sample for c in panel.model.crops} == {"img_5"})
    assert "of" in panel.status.text() and "crops" in panel.status.text()


def test_classes_a_metric_cannot_have_are_greyed(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    window.session.set_metric("tiou")
    panel = _gallery(qtbot, window)
    assert not panel.boxes["split"].isEnabled()
    assert "tiou has no split class" in panel.boxes["split"].toolTip()
    window.session.set_metric("tedeval")
    wait_evaluated(qtbot, window.session)
    assert panel.settle(60)
    assert panel.boxes["split"].isEnabled() and panel.boxes["multiline"].isEnabled()


def test_a_click_opens_the_instance_selected_and_zoomed(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    panel = _gallery(qtbot, window)
    s = window.session
    row = next(k for k, c in enumerate(panel.model.crops) if c.sample != s.sample_id)
    crop = panel.model.crops[row]
    panel.view.scrollTo(panel.model.index(row))
    rect_ = panel.view.visualRect(panel.model.index(row))
    qtbot.mouseClick(panel.view.viewport(), Qt.MouseButton.LeftButton, pos=rect_.center())
    assert s.sample_id == crop.sample
    assert s.selection == ("gt", crop.index)
    zoomed = window.canvas.transform().m11()
    window.canvas.fit()
    assert zoomed > window.canvas.transform().m11() * 1.5  # zoomed in on it


def _two_detectors(tmp_path: Path) -> DatasetPaths:
    g = f"{rect(0, 0, 100, 20)},HELLO\n{rect(0, 40, 100, 60)},WORLD\n"
    gt = write_dir(tmp_path / "gt", {"gt_img_1.txt": g})
    a = write_dir(
        tmp_path / "a", {"res_img_1.txt": f"{rect(0, 0, 100, 20)}\n{rect(0, 40, 100, 60)}\n"}
    )
    write_dir(
        tmp_path / "b", {"res_img_1.txt": f"{rect(0, 0, 100, 20)}\n{rect(300, 300, 340, 310)}\n"}
    )
    return DatasetPaths(gt=str(gt), det=str(a))


def test_what_differs_between_two_detectors(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    w = MainWindow(restore_layout=False)
    qtbot.addWidget(w)
    w.resize(1400, 900)
    w.show()
    assert w.open_paths(_two_detectors(tmp_path))
    wait_evaluated(qtbot, w.session)
    assert w.session.add_detections(str(tmp_path / "b"))
    wait_evaluated(qtbot, w.session)
    panel = _gallery(qtbot, w)
    assert all(b.isVisible() for b in panel.compare_row)
    _only(panel, "a_only")
    assert {(c.owner, c.index) for c in panel.model.crops} == {(0, 1), (1, 1)}
    panel.owners.setCurrentIndex(2)  # B only
    assert panel.settle(60)
    assert [(c.owner, c.line) for c in panel.model.crops] == [(1, "missed")]
    panel.owners.setCurrentIndex(0)
    _only(panel, "fp_b_only")
    assert [(c.owner, c.side, c.index) for c in panel.model.crops] == [(1, "det", 1)]
    assert panel.model.data(panel.model.index(0), Qt.ItemDataRole.DisplayRole).startswith("b · ")
    assert "false positive of b that a did not make" in panel.status.text()
    panel.view.scrollTo(panel.model.index(0))  # B's crop opens, zoomed on both canvases
    rect_ = panel.view.visualRect(panel.model.index(0))
    qtbot.mouseClick(panel.view.viewport(), Qt.MouseButton.LeftButton, pos=rect_.center())
    assert w.session.selection == ("det", 1)
    qtbot.wait(300)  # the canvases' scroll bars come: a fitted canvas re-fitted and undid it
    zoomed = [c.transform().m11() for c in (w.canvas, w.canvas_b)]
    w.canvas_b.fit()
    assert min(zoomed) > w.canvas_b.transform().m11() * 1.5
    w.session.cancel()


def test_attribute_filter_and_only_visible_crops_drawn(qtbot) -> None:  # type: ignore[no-untyped-def]
    def word(k: int, script: str) -> Instance:
        x, y = 30 * (k % 20), 20 * (k // 20)
        pts = np.array([[x, y], [x + 25, y], [x + 25, y + 12], [x, y + 12]], float)
        return Instance(pts, BoxType.QUAD, text=f"w{k}", attrs={"script": script})

    ds = Dataset(
        tuple(
            sample([word(k, "Latin" if k % 4 else "Arabic") for k in range(100)], [], sid=f"s{i}")
            for i in range(30)
        )
    )  # 3,000 missed words, no image
    w = MainWindow(restore_layout=False)
    qtbot.addWidget(w)
    w.session.set_dataset(ds)
    wait_evaluated(qtbot, w.session)
    panel = GalleryPanel(w.session)  # on its own, at a known size
    qtbot.addWidget(panel)
    panel.resize(1000, 500)
    panel.show()
    assert panel.settle(60)
    assert panel.model.rowCount() == 3000
    grid, port = panel.view.gridSize(), panel.view.viewport().size()
    in_view = (port.height() // grid.height() + 1) * max(port.width() // grid.width(), 1)
    assert 0 < panel.renderer.drawn <= in_view  # the cells in view, no more
    panel.view.scrollToBottom()
    assert panel.settle(60)
    assert panel.renderer.drawn <= 2 * in_view < 3000
    assert panel.model.image(2999) is not None  # the last crop, drawn when scrolled to
    img = panel.model._images[next(iter(panel.model._images))]
    assert not img.isNull() and img.pixelColor(2, 2).name() == "#e5e7eb"  # neutral background
    panel.text.setText("script=arabic")
    qtbot.waitUntil(lambda: panel.settle(60) and panel.model.rowCount() == 750)
    assert all(("script", "Arabic") in c.attrs for c in panel.model.crops)
    w.session.cancel()


def _laptop_set(tmp_path: Path) -> DatasetPaths:
    """Three images of 40 words: A finds every word, B none (120 crops in every class)."""
    words = [rect(x, 0, x + 40, 15) for x in range(0, 2000, 50)]
    gt, a, b = ({} for _ in range(3))
    for k in range(3):
        gt[f"gt_img_{k}.txt"] = "".join(f"{w},WORD\n" for w in words)
        a[f"res_img_{k}.txt"] = "".join(f"{w}\n" for w in words)
        b[f"res_img_{k}.txt"] = ""
    write_dir(tmp_path / "b", b)
    return DatasetPaths(
        gt=str(write_dir(tmp_path / "gt", gt)), det=str(write_dir(tmp_path / "a", a))
    )


@pytest.mark.parametrize("size", [(1366, 768), (1600, 900)])
@pytest.mark.parametrize("comparing", [False, True])
def test_the_gallery_in_front_shows_three_rows_on_a_laptop(  # type: ignore[no-untyped-def]
    qtbot, tmp_path: Path, size, comparing: bool
) -> None:
    """Docked under the canvases it got about one row at 1366 x 768; in front it takes most
    of the height (the canvases keep a strip), and the Analysis tab gives half back."""
    w = MainWindow(restore_layout=False)
    qtbot.addWidget(w)
    w.resize(*size)
    w.show()
    paths = _laptop_set(tmp_path)
    if not comparing:  # B's empty set alone: every word missed
        paths = DatasetPaths(gt=paths.gt, det=str(tmp_path / "b"))
    assert w.open_paths(paths)
    wait_evaluated(qtbot, w.session)
    if comparing:  # the comparison's bar and its class checkboxes take height too
        assert w.session.add_detections(str(tmp_path / "b"))
        wait_evaluated(qtbot, w.session)
    panel = _gallery(qtbot, w)
    _only(panel, "a_only" if comparing else "missed")
    assert panel.model.rowCount() >= 60
    qtbot.waitUntil(lambda: w.canvas.height() < size[1] // 3, timeout=5000)
    port = panel.view.viewport().rect()
    tops = {
        panel.view.visualRect(panel.model.index(k)).top()
        for k in range(panel.model.rowCount())
        if port.contains(panel.view.visualRect(panel.model.index(k)))
    }
    assert len(tops) >= 3, (len(tops), port.height(), panel.view.gridSize())
    assert w.canvas.height() >= 0.15 * size[1]  # a clicked crop still shows
    assert w.samples.isVisible() and w.samples.height() >= size[1] // 3  # the table too
    w.analysis_dock.show()  # tabbed with the gallery: its tab in front
    w.analysis_dock.raise_()
    qtbot.waitUntil(lambda: w.canvas.height() >= size[1] // 2, timeout=5000)
    assert w.width() == size[0]  # the Analysis panel, whole width again, fits the window
    w.gallery_dock.setFloating(True)  # popped out: most of the window's size
    qtbot.waitUntil(lambda: w.gallery_dock.height() >= 0.8 * size[1], timeout=5000)
    w.session.cancel()


def test_the_gallery_filters_are_kept_in_the_view_state(
    qtbot, window: MainWindow, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    """Exported with the view and restored by ``view --state``, shown again."""
    from metrics.cli.main import build_parser
    from viewer.app.view import _apply_view_options, _paths, prepare_options
    from viewer.export.window import write_state

    panel = _gallery(qtbot, window)
    _only(panel, "false_positive", "partial")
    panel.text.setText("img_")
    panel.table_only.setChecked(True)
    panel.sort.setCurrentIndex(panel.sort.findData("size"))
    assert panel.settle(60)
    saved = write_state(tmp_path / "v.png", window.session)
    got = json.loads(saved.read_text())["gallery"]
    want = {"classes": ["false_positive", "partial"], "text": "img_", "table_only": True}
    assert {k: got[k] for k in want} == want and got["sort"] == "size" and got["shown"]
    args = build_parser().parse_args(["view", "--state", str(saved)])
    prepare_options(args)
    w = MainWindow(restore_layout=False)
    qtbot.addWidget(w)
    w.resize(1400, 900)
    w.show()
    assert w.open_paths(_paths(args))
    wait_evaluated(qtbot, w.session)
    _apply_view_options(w, args)
    assert w.gallery_dock.isVisible() and w.gallery.settle(60)
    assert w.gallery.view_state() == panel.view_state()
    assert w.gallery.model.crops and all(c.size >= 0 for c in w.gallery.model.crops)
    sizes = [c.size for c in w.gallery.model.crops]
    assert sizes == sorted(sizes)
    w.session.cancel()
