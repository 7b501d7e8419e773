"""Legend swatches as painted (Qt): each verdict's swatch is legible on white."""

from __future__ import annotations

import pytest

from viewer.scene.palette import LAYER_LEGEND, StyleKey


@pytest.mark.parametrize("layer", ["gt", "det"])
def test_every_instance_swatch_is_legible(qapp: object, layer: str) -> None:
    """A legend swatch marks a quarter of its tile at least (the long-dashed thin grey
    outline of "absorbed by don't care" drew four corner ticks on white: 24 %; the
    dash-dotted outline of "partly credited" marks 27 %)."""
    import numpy as np
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QColor, QImage, QPainter

    from viewer.paint.style import SWATCH_H, SWATCH_W, draw_swatch

    for key in LAYER_LEGEND[layer]:
        if key in (StyleKey.GT_DONT_CARE, StyleKey.DET_BELOW_THRESHOLD):
            continue  # meant to recede: what is not scored
        img = QImage(SWATCH_W, SWATCH_H, QImage.Format.Format_RGB32)
        img.fill(QColor("white"))
        p = QPainter(img)
        draw_swatch(p, key, QRectF(0, 0, SWATCH_W, SWATCH_H))
        p.end()
        raw = np.frombuffer(img.constBits(), np.uint8).reshape(SWATCH_H, img.bytesPerLine())
        rgb = raw[:, : SWATCH_W * 4].reshape(SWATCH_H, SWATCH_W, 4)[:, :, :3].astype(int)
        marked = float(np.mean((255 - rgb).max(axis=2) > 24))
        assert marked >= 0.25, f"{key}: {marked:.0%} of its swatch"
