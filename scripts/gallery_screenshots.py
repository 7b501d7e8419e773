"""Grab the failure gallery and the Analysis panel on the shared benchmark sets (offscreen):
the README's docs/gallery_*.png and docs/analysis_panel.png.

    python scripts/gallery_screenshots.py [--shared ../shared/data] [--out docs] [--size 1600x900]

The shared sets have no images: the crops are boxes on the neutral background, to scale.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtWidgets import QApplication

from viewer.app.main_window import MainWindow
from viewer.app.paths import DatasetPaths


def _window(size: tuple[int, int], gt: Path, det: Path, b: Path | None = None) -> MainWindow:
    app = QApplication.instance()
    assert app is not None
    w = MainWindow(restore_layout=False)
    w.resize(*size)
    w.show()
    if not w.open_paths(DatasetPaths(gt=str(gt), det=str(det))):
        raise SystemExit(f"cannot open {gt} {det}: {w.last_error}")
    if b is not None and not w.session.add_detections(str(b)):
        raise SystemExit(f"cannot add {b}: {w.last_error}")
    while w.session.is_busy():
        app.processEvents()
        w.session.wait(50)
    app.processEvents()
    return w


def gallery(w: MainWindow, out: Path, classes: tuple[str, ...], owners: int = 0) -> None:
    """The gallery dock shown with only ``classes`` ticked (``owners``: the index of the
    A-and-B / A / B choice when comparing), grabbed with the window."""
    app = QApplication.instance()
    assert app is not None
    w.gallery_dock.show()
    w.gallery_dock.raise_()
    for key, box in w.gallery.boxes.items():
        box.setChecked(key in classes)
    if w.session.comparing():
        w.gallery.owners.setCurrentIndex(owners)
    for _ in range(3):  # the dock's height is set a turn after it is shown
        app.processEvents()
        time.sleep(0.05)
    w.gallery.refresh()
    if not w.gallery.settle(120):
        raise SystemExit("the gallery did not settle")
    first = w.gallery.model.crops[0] if w.gallery.model.crops else None
    if first is not None:  # the canvas shows the first crop's instance, as a click would
        w.gallery.view.setCurrentIndex(w.gallery.model.index(0))
        w.gallery._on_view_clicked(w.gallery.model.index(0))
        w.gallery.settle(60)
    app.processEvents()
    if not w.grab().save(str(out)):
        raise SystemExit(f"cannot write {out}")
    print(out, w.gallery.status.text())


def analysis(w: MainWindow, out: Path, size: tuple[int, int]) -> None:
    from viewer.widgets.analysis_panel import AnalysisPanel

    app = QApplication.instance()
    assert app is not None
    panel = AnalysisPanel(w.session)
    panel.resize(*size)
    panel.show()
    panel.refresh()
    while panel.data is None:
        app.processEvents()
        panel.wait(100)
    app.processEvents()
    if not panel.grab().save(str(out)):
        raise SystemExit(f"cannot write {out}")
    print(out, panel.status.text())
    panel.close()


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--shared", default=str(Path(__file__).resolve().parents[2] / "shared/data"))
    p.add_argument("--out", default="docs")
    p.add_argument("--size", default="1600x900")
    p.add_argument("--only", default="", help="comma-separated: ic15,totaltext,compare,analysis")
    args = p.parse_args()
    d, out = Path(args.shared), Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    width, height = (int(x) for x in args.size.lower().split("x"))
    size = (width, height)
    gt15 = d / "ic15/gt.zip"
    only = set(filter(None, args.only.split(",")))
    app = QApplication.instance() or QApplication(sys.argv[:1])
    if not only or "ic15" in only:
        w = _window(size, gt15, d / "ic15/det_pixellink.zip")
        gallery(w, out / "gallery_ic15_missed.png", ("missed",))
        w.close()
    if not only or "totaltext" in only:
        w = _window(size, d / "totaltext/gt.zip", d / "totaltext/det_baseline.zip")
        gallery(w, out / "gallery_totaltext_fp.png", ("false_positive",))
        w.close()
    if not only or "compare" in only:
        w = _window(size, gt15, d / "ic15/det_pixellink.zip", d / "synthetic/ic15/jitter_seed1.zip")
        gallery(w, out / "gallery_ic15_a_only.png", ("a_only",))
        w.close()
    if not only or "analysis" in only:  # both with confidences: a sweep each
        w = _window(
            size, gt15, d / "scored/ic15/det_pixellink.zip", d / "scored/ic15/jitter_seed1.zip"
        )
        analysis(w, out / "analysis_panel.png", size)
        w.close()
    del app
    return 0


if __name__ == "__main__":
    sys.exit(main())
