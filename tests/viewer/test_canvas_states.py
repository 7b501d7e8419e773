"""What the canvas shows as a user moves around: each image fitted, no stale picture, the
curved family on polygon data, and images a metric did not evaluate drawn as such."""

from __future__ import annotations

from pathlib import Path

from tests.support import demo_dataset_paths, wait_evaluated, write_zip
from viewer.app.main_window import MainWindow
from viewer.app.paths import DatasetPaths
from viewer.scene.overlay import instance_items
from viewer.scene.palette import StyleKey

SQUARE = "0,0,0,{s},{s},{s},{s},0"  # clockwise in image coordinates for curved TIoU


def _window(qtbot, paths: DatasetPaths) -> MainWindow:
    w = MainWindow()
    qtbot.addWidget(w)
    w.resize(1600, 900)
    w.show()
    assert w.open_paths(paths)
    wait_evaluated(qtbot, w.session)
    return w


def _image_fits(w: MainWindow) -> bool:
    view = w.canvas.mapFromScene(w.canvas.overlay.rect).boundingRect()
    port = w.canvas.viewport().rect().adjusted(-2, -2, 2, 2)
    return port.contains(view)


def test_each_image_fits_after_navigation(qtbot, tmp_path: Path) -> None:
    gt = write_zip(
        tmp_path / "gt.zip",
        {
            "gt_img_1.txt": "10,10,60,10,60,30,10,30,SMALL\n",
            "gt_img_2.txt": "100,100,3900,100,3900,2900,100,2900,HUGE\n",
        },
    )
    det = write_zip(tmp_path / "det.zip", {"res_img_1.txt": "", "res_img_2.txt": ""})
    w = _window(qtbot, DatasetPaths(str(gt), str(det)))
    for sid in ("img_1", "img_2", "img_1"):
        w.session.set_sample(sid)
        qtbot.wait(10)
        assert _image_fits(w), sid
    w.resize(1000, 700)  # a smaller window: the fitted image is fitted again
    qtbot.wait(10)
    assert _image_fits(w)
    w.canvas.zoom(4.0)  # zoomed by the user: a resize keeps the zoom
    scale = w.canvas.transform().m11()
    w.resize(1200, 800)
    qtbot.wait(10)
    assert w.canvas.transform().m11() == scale
    w.session.keep_zoom = True
    w.session.set_sample("img_2")
    assert w.canvas.transform().m11() == scale  # asked to keep the zoom: kept


def test_dataset_without_images_clears_the_old_picture(qtbot, tmp_path: Path) -> None:
    w = _window(qtbot, demo_dataset_paths("b"))
    assert not w.canvas.pixmap_item.pixmap().isNull()
    gt = write_zip(tmp_path / "gt.zip", {"gt_img_1.txt": "10,10,60,10,60,30,10,30,A\n"})
    det = write_zip(tmp_path / "det.zip", {"res_img_1.txt": "10,10,60,10,60,30,10,30\n"})
    assert w.open_paths(DatasetPaths(str(gt), str(det)))
    wait_evaluated(qtbot, w.session)
    assert w.canvas.pixmap_item.pixmap().isNull()
    assert w.canvas.frame_item.isVisible()  # the image bounds, from the boxes
    assert "no image" in w.canvas.banner()


def _polygon_data(tmp_path: Path) -> DatasetPaths:
    """Total-Text-like: 6-point polygons, one image with a self-intersecting GT polygon
    (curved TIoU refuses it) and counter-clockwise polygons (refused unless auto_orient)."""
    ccw = "0,0,50,0,100,0,100,20,50,20,0,20"
    bowtie = "0,0,100,20,100,0,0,20,50,40,60,50"
    gt = write_zip(
        tmp_path / "gt.zip",
        {"gt_img1.txt": f"{ccw},WORD\n", "gt_img2.txt": f"{bowtie},BAD\n"},
    )
    det = write_zip(tmp_path / "det.zip", {"img1.txt": ccw + "\n", "img2.txt": ccw + "\n"})
    return DatasetPaths(str(gt), str(det))


def test_polygon_data_gets_the_curved_family_with_auto_orient_said(qtbot, tmp_path: Path) -> None:
    w = _window(qtbot, _polygon_data(tmp_path))
    s = w.session
    assert s.metric == "curved_tiou"
    assert "tiou" not in s.metric_ids() and "tedeval" not in s.metric_ids()
    assert s.overrides["curved_tiou"]["auto_orient"] == "true"
    assert any("auto_orient" in n for n in s.a.notes("curved_tiou"))
    assert "auto_orient=true" in w.summary.text()
    assert s.result(sample_id="img1").recall == 1.0


def test_skipped_image_is_drawn_not_evaluated_with_a_banner(qtbot, tmp_path: Path) -> None:
    w = _window(qtbot, _polygon_data(tmp_path))
    s = w.session
    s.set_sample("img2")
    assert s.result() is None
    assert "Not evaluated by curved_tiou" in w.canvas.banner()
    assert "gt_img2.txt:1" in w.canvas.banner()
    styles = {it.style for it in instance_items(s.sample(), s.result())}
    assert styles == {StyleKey.GT_NONE, StyleKey.DET_NONE}
    assert "1 image(s) skipped" in w.summary.text()


def test_line_metrics_draw_lines_not_words(tmp_path: Path) -> None:
    """A HierText line metric's results number the lines: the side shows the lines (one
    instance per line, its own vertices for the GT), never the words under line indices."""
    import json

    from metrics.io.reader import load_dataset
    from viewer.app.side import Side

    word = {"vertices": [[0, 0], [10, 0], [10, 10], [0, 10]], "legible": True, "text": "a"}
    word2 = {"vertices": [[20, 0], [30, 0], [30, 10], [20, 10]], "legible": True, "text": "b"}
    line = {"vertices": [[0, 0], [30, 0], [30, 10], [0, 10]], "legible": True, "text": "a b"}
    para = {"vertices": [[0, 0], [30, 0], [30, 10], [0, 10]], "legible": True}
    gt = {
        "annotations": [
            {
                "image_id": "img_1",
                "image_width": 64,
                "image_height": 32,
                "paragraphs": [{**para, "lines": [{**line, "words": [word, word2]}]}],
            }
        ]
    }
    pred = {
        "annotations": [
            {"image_id": "img_1", "paragraphs": [{"lines": [{"text": "", "words": [word, word2]}]}]}
        ]
    }
    (tmp_path / "gt.json").write_text(json.dumps(gt))
    (tmp_path / "pred.json").write_text(json.dumps(pred))
    ds = load_dataset(tmp_path / "gt.json", tmp_path / "pred.json")
    side = Side(ds, store=None, metric="hiertext_line")  # type: ignore[arg-type]
    lines = side.sample("img_1")
    assert lines is not None and len(lines.gt) == 1 and len(lines.det) == 1
    assert lines.gt[0].points.tolist() == line["vertices"]
    assert side.sample("img_1", "hiertext_word").gt == ds["img_1"].gt  # words: as read
    assert not side.same_view("hiertext_word")


def test_the_window_opens_on_the_worst_evaluated_image(qtbot, tmp_path: Path) -> None:
    # Total-Text opened on img557, which curved_tiou could not evaluate, because the images
    # not evaluated sorted above the worst evaluated ones; now they come after, and the
    # Problems panel says why they were skipped
    w = _window(qtbot, _polygon_data(tmp_path))
    s = w.session
    qtbot.waitUntil(lambda: s.sample_id is not None and bool(w.samples.visible_ids()))
    assert s.result(sample_id="img2") is None  # the one curved_tiou could not evaluate
    assert w.samples.visible_ids() == ["img1", "img2"]
    assert s.sample_id == "img1" and s.result() is not None
    qtbot.waitUntil(lambda: not s.checks.running, timeout=60000)
    assert any(f.sample_id == "img2" for f in w.problems.shown())


def test_the_canvas_names_its_metric_and_fallback_in_its_corner(qtbot, tmp_path: Path) -> None:
    w = _window(qtbot, _polygon_data(tmp_path))
    assert w.canvas._name_tag() == "curved_tiou · auto_orient=true"
    assert w.canvas.fit_target()[2] >= 36  # the fit leaves the tag's room above the boxes
    other = next(m for m in w.session.metric_ids() if m != "curved_tiou")
    w.session.set_metric(other)
    assert w.canvas._name_tag().split(" · ")[0] == other  # follows the metric shown
