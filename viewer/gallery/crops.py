"""Drawing one gallery crop (``viewer.scene.gallery.Crop``) into a QImage: the image region
around the instance (or the neutral background, to scale, without an image), the instance
in its verdict's canvas style, drawn thicker, and its partners in theirs.

Thread-safe: only QImage, QImageReader and QPainter on a QImage (no widget, no pixmap), so
the gallery draws crops on a worker thread and ``detlens gallery`` in a loop.
"""

from __future__ import annotations

import math

import numpy as np
from PySide6.QtCore import QPointF, QRect, QSize, Qt
from PySide6.QtGui import QColor, QImage, QImageReader, QPainter, QPen, QPolygonF

from metrics.core.model import Instance, Sample
from metrics.core.results import SampleResult
from viewer.scene.gallery import Crop
from viewer.scene.palette import PALETTE, verdict_key

BACKGROUND = QColor("#e5e7eb")  # the canvas's neutral background without an image
TILE = QSize(220, 96)


def _pen(side: str, verdict: object, width: float) -> QPen:
    style = PALETTE[verdict_key(side, verdict)]  # type: ignore[arg-type]
    stroke = style.stroke
    color = QColor(stroke.r, stroke.g, stroke.b, stroke.a) if stroke else QColor("#000000")
    p = QPen(color)
    p.setWidthF(width)
    p.setCosmetic(True)
    if style.dash:
        p.setStyle(Qt.PenStyle.DashLine)
    elif style.dot:
        p.setStyle(Qt.PenStyle.DotLine)
    return p


def _fit(region: tuple[float, float, float, float], size: QSize) -> tuple[float, float, float]:
    """(scale, dx, dy) mapping the region into ``size``, centred, aspect kept."""
    x0, y0, x1, y1 = region
    w, h = max(x1 - x0, 1.0), max(y1 - y0, 1.0)
    s = min(size.width() / w, size.height() / h)
    return s, (size.width() - w * s) / 2 - x0 * s, (size.height() - h * s) / 2 - y0 * s


def _image_part(path: str, region: tuple[float, float, float, float], s: float) -> QImage | None:
    """The region of the image file, decoded at the crop's scale (only that part is read
    where the format allows it)."""
    reader = QImageReader(path)
    full = reader.size()
    if not full.isValid():
        return None
    x0, y0, x1, y1 = region
    clip = QRect(
        math.floor(max(x0, 0)),
        math.floor(max(y0, 0)),
        math.ceil(min(x1, full.width()) - max(x0, 0)),
        math.ceil(min(y1, full.height()) - max(y0, 0)),
    )
    if clip.width() <= 0 or clip.height() <= 0:
        return None
    reader.setClipRect(clip)
    reader.setScaledSize(QSize(max(1, round(clip.width() * s)), max(1, round(clip.height() * s))))
    img = reader.read()
    return None if img.isNull() else img


def _polygon(inst: Instance, s: float, dx: float, dy: float) -> QPolygonF:
    pts = np.asarray(inst.points, float).reshape(-1, 2)
    return QPolygonF([QPointF(x * s + dx, y * s + dy) for x, y in pts.tolist()])


def render_crop(
    crop: Crop, sample: Sample, result: SampleResult | None, size: QSize = TILE
) -> QImage:
    """The crop as an image of ``size``: the picture only (the verdict line is the view's)."""
    img = QImage(size, QImage.Format.Format_RGB32)
    img.fill(BACKGROUND)
    s, dx, dy = _fit(crop.region, size)
    painter = QPainter(img)
    try:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        if sample.image:
            part = _image_part(sample.image, crop.region, s)
            if part is not None:
                x0, y0 = max(crop.region[0], 0.0), max(crop.region[1], 0.0)
                painter.drawImage(QPointF(math.floor(x0) * s + dx, math.floor(y0) * s + dy), part)
        if result is not None:
            _boxes(painter, crop, sample, result, (s, dx, dy))
    finally:
        painter.end()
    return img


def _boxes(
    painter: QPainter,
    crop: Crop,
    sample: Sample,
    result: SampleResult,
    at: tuple[float, float, float],
) -> None:
    own = result.gt if crop.side == "gt" else result.det
    other = result.det if crop.side == "gt" else result.gt
    other_side = "det" if crop.side == "gt" else "gt"
    insts = sample.gt if crop.side == "gt" else sample.det
    other_insts = sample.det if crop.side == "gt" else sample.gt
    s, dx, dy = at
    for p in crop.partners:
        if p < len(other_insts) and p < len(other):
            painter.setPen(_pen(other_side, other[p].verdict, 1.5))
            painter.drawPolygon(_polygon(other_insts[p], s, dx, dy))
    ir = own[crop.index] if crop.index < len(own) else None
    nm = None if ir is None else ir.near_miss
    if nm is not None and not crop.partners and nm.partner < len(other_insts):
        near = _pen(other_side, other[nm.partner].verdict if nm.partner < len(other) else None, 1)
        painter.setPen(near)
        painter.drawPolygon(_polygon(other_insts[nm.partner], s, dx, dy))
    if crop.index < len(insts):
        painter.setPen(_pen(crop.side, None if ir is None else ir.verdict, 2.5))
        painter.drawPolygon(_polygon(insts[crop.index], s, dx, dy))
