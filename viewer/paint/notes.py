"""Notes painted over a view in screen coordinates: the banner that says why an image is not
evaluated, the footer that says what did not fit, the name of the side in a comparison."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, QRectF, Qt
from PySide6.QtGui import QColor, QFontMetrics, QPainter
from PySide6.QtWidgets import QGraphicsView


def paint_banner(painter: QPainter, text: str, width: int, top: float) -> None:
    """A dark strip of wrapped text across the top of a view (screen coordinates)."""
    if not text:
        return
    flags = int(Qt.TextFlag.TextWordWrap)
    need = painter.fontMetrics().boundingRect(QRect(0, 0, width - 28, 2000), flags, text)
    box = QRectF(6, top, width - 12, need.height() + 10)
    painter.fillRect(box, QColor(30, 30, 30, 215))
    painter.setPen(QColor("#fde68a"))
    painter.drawText(box.adjusted(8, 5, -8, -5), flags, text)


def paint_footer(painter: QPainter, text: str, height: int, width: int = 100_000) -> None:
    """A short note on a dark strip at the bottom left of a view (screen coordinates),
    wrapped to the view's width (a half-width comparison pane cut it mid-word)."""
    flags = int(Qt.TextFlag.TextWordWrap)
    fm = painter.fontMetrics()
    room = max(width - 28, 80)
    need = fm.boundingRect(QRect(0, 0, room, 2000), flags, text)
    box = QRectF(6, height - need.height() - 16, need.width() + 16, need.height() + 10)
    painter.fillRect(box, QColor(30, 30, 30, 215))
    painter.setPen(QColor("#e5e7eb"))
    painter.drawText(box.adjusted(8, 5, -8, -5), flags, text)


def paint_name_tag(painter: QPainter, label: str, width: int = 100_000) -> None:
    """The detector's name and the metric in the top left corner, as wide as its text,
    elided to a view ``width`` pixels wide."""
    fm = painter.fontMetrics()
    text = fm.elidedText(label, Qt.TextElideMode.ElideRight, max(width - 24, 40))
    painter.setPen(QColor("#ffffff"))
    painter.fillRect(QRectF(6, 6, fm.horizontalAdvance(text) + 12, 24), QColor(0, 0, 0, 170))
    painter.drawText(QRectF(12, 6, width, 24), int(Qt.AlignmentFlag.AlignVCenter), text)


def notes_margins(fm: QFontMetrics, width: int, banner: str, named: bool) -> tuple[int, int]:
    """Room the notes take at the top (name tag, banner) and bottom (a two-line footer) of a
    view ``width`` pixels wide, in screen pixels."""
    top = 36 if named else 0
    if banner:
        flags = int(Qt.TextFlag.TextWordWrap)
        top += fm.boundingRect(QRect(0, 0, width - 28, 2000), flags, banner).height() + 16
    return top, 2 * fm.height() + 26


def label_area(view: QGraphicsView, banner: str, named: bool) -> tuple[float, float, float, float]:
    """The part of a view (scene coordinates: x0, y0, x1, y1) that no note covers: below the
    name tag and the banner, above room for a two-line footer."""
    vp = view.viewport().rect()
    top, below = notes_margins(view.fontMetrics(), vp.width(), banner, named)
    bottom = max(vp.height() - below, top)
    a, b = view.mapToScene(QPoint(0, top)), view.mapToScene(QPoint(vp.width(), bottom))
    return a.x(), a.y(), b.x(), b.y()


def paint_notes(painter: QPainter, view: QRect, banner: str, footer: str, name: str) -> None:
    """Everything a view says over its picture (screen coordinates); empty texts are skipped."""
    paint_banner(painter, banner, view.width(), 36.0 if name else 6.0)
    if footer:
        paint_footer(painter, footer, view.height(), view.width())
    if name:
        paint_name_tag(painter, name, view.width())
