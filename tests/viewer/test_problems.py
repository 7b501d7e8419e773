"""The Problems panel and the warnings layer: ``detlens check``'s findings in the viewer."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from metrics.check import Finding, Level
from metrics.core.model import BoxType, Instance, Sample
from tests.support import wait_evaluated
from viewer.app.main_window import MainWindow
from viewer.app.session import DatasetPaths
from viewer.scene.checks import finding_items
from viewer.scene.palette import LAYER_LEGEND, PALETTE, StyleKey
from viewer.widgets.problems import ProblemsPanel

GT = [
    "10,10,60,10,60,30,10,30,ok",
    "100,10,150,40,150,10,100,40,tie",  # a bow-tie crossing at (125, 25)
    "180,50,260,50,260,70,180,70,edge",  # reaches past the 200-wide image
]
DET = ["10,10,60,10,60,30,10,30", "10,10,60,10,60,30,10,30"]  # a duplicate


def _png(path: Path, w: int, h: int) -> None:
    import struct
    import zlib

    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))

    rows = b"".join(b"\x00" + b"\x90" * w * 3 for _ in range(h))
    path.write_bytes(
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


def _dataset(tmp_path: Path) -> DatasetPaths:
    for name in ("gt", "det", "images"):
        (tmp_path / name).mkdir()
    (tmp_path / "gt" / "gt_img_1.txt").write_text("\n".join(GT) + "\n")
    (tmp_path / "det" / "res_img_1.txt").write_text("\n".join(DET) + "\n")
    (tmp_path / "gt" / "gt_img_2.txt").write_text("0,0,10,0,10,10,0,10,a\n")
    (tmp_path / "det" / "res_img_2.txt").write_text("0,0,10,0,10,10,0,10\n")
    _png(tmp_path / "images" / "img_1.png", 200, 100)
    return DatasetPaths(str(tmp_path / "gt"), str(tmp_path / "det"), str(tmp_path / "images"), None)


def test_panel_lists_findings_and_a_click_opens_the_instance(qtbot, tmp_path: Path) -> None:
    w = MainWindow(restore_layout=False)
    qtbot.addWidget(w)
    w.show()
    assert w.open_paths(_dataset(tmp_path))
    w.session.set_sample("img_2")
    qtbot.waitUntil(lambda: not w.session.checks.running, timeout=30000)
    wait_evaluated(qtbot, w.session)
    panel = w.findChild(ProblemsPanel)
    assert panel is not None
    heads = {panel.tree.topLevelItem(k).text(0) for k in range(panel.tree.topLevelItemCount())}
    assert {"warning bow_tie", "warning outside_image", "warning duplicate"} <= heads
    tie = next(
        panel.tree.topLevelItem(k)
        for k in range(panel.tree.topLevelItemCount())
        if panel.tree.topLevelItem(k).text(0) == "warning bow_tie"
    )
    row = tie.child(0)
    assert row.text(0) == "img_1:2 gt 2"
    panel.tree.itemClicked.emit(row, 0)
    assert w.session.sample_id == "img_1" and w.session.selection == ("gt", 1)
    panel.tree.setCurrentItem(row)
    assert "gt_img_1.txt:2" in panel.detail.text()
    assert "info" not in heads and not any(h.startswith("info") for h in heads)
    panel.show_info.setChecked(True)
    heads = {panel.tree.topLevelItem(k).text(0) for k in range(panel.tree.topLevelItemCount())}
    assert "info metrics_read" in heads
    w.session.cancel()


def test_canvas_draws_the_findings_on_the_warnings_layer(qtbot, tmp_path: Path) -> None:
    w = MainWindow(restore_layout=False)
    qtbot.addWidget(w)
    w.show()
    assert w.open_paths(_dataset(tmp_path))
    w.session.set_sample("img_1")
    qtbot.waitUntil(lambda: not w.session.checks.running, timeout=30000)
    wait_evaluated(qtbot, w.session)
    w.canvas.refresh()
    styles = [it.style for it in w.canvas.overlay.items if it.layer == "warnings"]
    for key in (StyleKey.CHECK_CROSSING, StyleKey.CHECK_OUTSIDE, StyleKey.CHECK_DUPLICATE):
        assert key in styles
    w.session.cancel()


def _sample() -> Sample:
    pts = np.array([[0, 0], [10, 10], [10, 0], [0, 10]], dtype=float)
    return Sample("s", (Instance(pts, BoxType.QUAD, "x", line=3),), (), gt_source="gt.txt")


def test_finding_items_draw_only_what_the_engine_gives() -> None:
    sample = _sample()
    out = np.array([[10, 0], [12, 0], [12, 10], [10, 10]], dtype=float)
    found = [
        Finding(Level.WARNING, "bow_tie", "m", "gt.txt", 3, "s", "gt", 0, points=((5.0, 5.0),)),
        Finding(Level.WARNING, "outside_image", "m", "gt.txt", 3, "s", "gt", 0, regions=(out,)),
        Finding(Level.WARNING, "float_coords", "m", "gt.txt", 3, "s", "gt", 0),
        Finding(Level.WARNING, "bow_tie", "m", "o.txt", 1, "other", "gt", 0, points=((1, 1),)),
    ]
    items = finding_items(sample, found)
    assert [(it.shape, it.style, it.ref) for it in items] == [
        ("points", StyleKey.CHECK_CROSSING, ("gt", 0)),
        ("polygon", StyleKey.CHECK_OUTSIDE, ("gt", 0)),
    ]
    assert items[0].coords.tolist() == [[5.0, 5.0]] and items[1].coords is out


def test_legend_names_every_finding_style() -> None:
    keys = LAYER_LEGEND["warnings"]
    for key in (StyleKey.CHECK_CROSSING, StyleKey.CHECK_OUTSIDE, StyleKey.CHECK_DUPLICATE):
        assert key in keys and PALETTE[key].label.startswith("check:")
