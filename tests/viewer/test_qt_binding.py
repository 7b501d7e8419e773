"""Guard against a broken Qt binding: PySide6 6.12.0 on Python 3.11 mis-counts references to
None in every void method, and a long painting session crashes ("deallocating None").
pyproject.toml excludes that release; this test fails if such a binding is installed."""

from __future__ import annotations

import sys

from PySide6.QtGui import QColor, QImage, QPainter


def test_void_calls_keep_none_alive() -> None:
    img = QImage(8, 8, QImage.Format.Format_ARGB32)
    img.fill(QColor("#000000"))
    painter = QPainter(img)
    before = sys.getrefcount(None)
    for _ in range(20000):
        painter.save()
        painter.restore()
    painter.end()
    assert sys.getrefcount(None) >= before - 100
