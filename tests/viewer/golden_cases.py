"""Golden snapshots of the canvas painting: the cases, how each is painted, how two compare.

Each case is one demo image evaluated by one metric and painted with ``paint_overlay`` (the
path the canvas, exports and ``--screenshot`` share) into a pinned-size image, on a plain
background, without the image and the score labels and transcriptions (what the painter
writes itself, such as TIoU's "cut 30 %", is in DejaVu Sans, the font it pins).
``scripts/make_golden.py`` writes the PNGs of ``tests/viewer/golden/``; ``test_golden.py``
paints them again and compares with a tolerance.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PySide6.QtGui import QColor, QImage, QImageReader, QPainter

from metrics.catalogue.registry import resolve
from metrics.core.model import Dataset
from metrics.io.demo import demo_paths
from metrics.io.reader import load_dataset
from metrics.run.runner import run
from viewer.paint.painter import RenderContext, paint_overlay
from viewer.scene.items import Ref
from viewer.scene.layers import DEFAULT_LAYERS
from viewer.scene.overlay import build_overlay

GOLDEN = Path(__file__).resolve().parent / "golden"
SIZE = (320, 240)  # pinned: the painting is scaled to fit it
BACKGROUND = "#f4f4f4"
LAYERS = frozenset(
    (DEFAULT_LAYERS | {"pcc", "multiline", "tiou", "links"}) - {"image", "labels", "text"}
)
# A pixel differs when a channel moves by more than PIXEL_TOL; a snapshot fails when more
# than AREA_TOL of its pixels differ (antialiasing may change from one Qt build to another).
PIXEL_TOL = 48
AREA_TOL = 0.005


@dataclass(frozen=True)
class Case:
    """One snapshot: a metric on a demo image (detector A or B), maybe with a selection."""

    name: str
    metric: str
    sample: str
    det: str = "a"
    selected: Ref | None = None


CASES = (
    Case("tiou_img_4", "tiou", "img_4"),
    Case("tedeval_img_7_gt2", "tedeval", "img_7", selected=("gt", 1)),
    Case("cleval_det_img_5", "cleval_det", "img_5", det="b"),
)


def render(case: Case, layers: frozenset[str] = LAYERS) -> QImage:
    """The case painted into a ``SIZE`` image (the sample fitted, aspect kept)."""
    d = demo_paths()
    ds = load_dataset(d.gt, d.det_a if case.det == "a" else d.det_b, images=d.images)
    one = ds[case.sample]
    (ev,) = run(Dataset((one,)), [resolve(case.metric)])
    items = build_overlay(one, ev.results[one.id])
    size = QImageReader(one.image or "").size()
    w, h = size.width(), size.height()
    scale = min(SIZE[0] / w, SIZE[1] / h)
    img = QImage(*SIZE, QImage.Format.Format_ARGB32)
    img.fill(QColor(BACKGROUND))
    p = QPainter(img)
    p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    p.scale(scale, scale)
    ctx = RenderContext(layers, scale=scale, selected=case.selected)
    paint_overlay(p, items, ctx)
    p.end()
    return img


def difference(a: QImage, b: QImage) -> float:
    """The share of pixels of ``a`` and ``b`` (same size) differing by more than PIXEL_TOL."""
    x, y = _array(a), _array(b)
    if x.shape != y.shape:
        return 1.0
    return float(np.mean(np.abs(x - y).max(axis=2) > PIXEL_TOL))


def _array(img: QImage) -> np.ndarray:
    img = img.convertToFormat(QImage.Format.Format_RGB32)
    raw = np.frombuffer(img.constBits(), np.uint8).reshape(img.height(), img.bytesPerLine())
    return raw[:, : img.width() * 4].reshape(img.height(), img.width(), 4)[:, :, :3].astype(int)
