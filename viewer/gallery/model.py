"""The failure gallery's model and cell: the crops shown, in order, each drawn on the
renderer's thread the first time a cell asks for it (a placeholder until then) and kept in a
bounded cache; the cell paints the crop and its one-line verdict."""

from __future__ import annotations

from collections import OrderedDict

from PySide6.QtCore import (
    QAbstractListModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QRect,
    QSize,
    Qt,
    Signal,
)
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem

from viewer.gallery.crops import BACKGROUND, TILE
from viewer.gallery.jobs import CropRenderer
from viewer.scene.gallery import CLASSES, Crop, SideInput, caption, where

CAPTION_H = 32  # two lines
PAD = 3  # around a cell's crop and caption
CELL = QSize(TILE.width() + 2 * PAD, TILE.height() + CAPTION_H + 2 * PAD)
CACHE = 400  # drawn crops kept (about 100 KB each)


class GalleryModel(QAbstractListModel):
    """The crops shown, in order; ``image(row)`` gives a drawn crop or None (and asks for
    it to be drawn)."""

    image_ready = Signal()

    def __init__(self, renderer: CropRenderer, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.renderer = renderer
        self.crops: list[Crop] = []
        self.inputs: list[SideInput] = []
        self.names: list[str] = []
        self._token = 0  # which inputs the cached drawings are of
        self._images: OrderedDict[object, QImage] = OrderedDict()
        self._waiting: set[object] = set()  # asked for, not drawn yet (asked once)
        renderer.rendered.connect(self._on_rendered)

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.crops)

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = 0) -> object:
        if not index.isValid() or index.row() >= len(self.crops):
            return None
        c = self.crops[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return caption(c, self.names)
        if role == Qt.ItemDataRole.ToolTipRole:
            return _tooltip(c, self.names)
        return None

    def set_crops(self, crops: list[Crop], inputs: list[SideInput], names: list[str]) -> None:
        self.beginResetModel()
        if inputs is not self.inputs:
            self._token += 1
            self._images.clear()
        self.crops, self.inputs, self.names = crops, inputs, names
        self.renderer.clear()
        self._waiting.clear()
        self.endResetModel()

    def image(self, row: int) -> QImage | None:
        c = self.crops[row]
        key = (self._token, c.key)
        img = self._images.get(key)
        if img is not None:
            self._images.move_to_end(key)
            return img
        if key not in self._waiting:  # asked once, until drawn
            self._waiting.add(key)
            data = self.inputs[c.owner]
            sample, result = data.sample(c.sample), data.evaluation.results.get(c.sample)
            self._waiting.difference_update(self.renderer.request(key, c, sample, result))
        return None

    def _on_rendered(self, key: object, image: QImage) -> None:
        if not isinstance(key, tuple) or key[0] != self._token:
            return  # drawn for a list no longer shown
        self._waiting.discard(key)
        self._images[key] = image
        while len(self._images) > CACHE:
            self._images.popitem(last=False)
        self.image_ready.emit()


def _tooltip(c: Crop, names: list[str]) -> str:
    lines = [caption(c, names), f"credit {c.credit:.3f}, height {c.size:.1f} px"]
    if c.text:
        lines.append(f"text: {c.text}")
    lines.extend(f"{k}: {v}" for k, v in c.attrs)
    lines.append(", ".join(CLASSES[k] for k in sorted(c.classes)))
    lines.append("click: open the image with this instance selected")
    return "\n".join(lines)


class CropDelegate(QStyledItemDelegate):
    """A cell: the crop (a placeholder until drawn) and its verdict line, elided."""

    def __init__(self, model: GalleryModel, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.model = model

    def sizeHint(
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> QSize:
        return CELL

    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionViewItem,
        index: QModelIndex | QPersistentModelIndex,
    ) -> None:
        r: QRect = option.rect  # type: ignore[attr-defined]
        if option.state & QStyle.StateFlag.State_Selected:  # type: ignore[attr-defined]
            painter.fillRect(r, option.palette.highlight())  # type: ignore[attr-defined]
        tile = QRect(r.x() + PAD, r.y() + PAD, TILE.width(), TILE.height())
        img = self.model.image(index.row())
        if img is None or img.isNull():
            painter.fillRect(tile, BACKGROUND)
            painter.setPen(QColor("#6b7280"))
            painter.drawText(tile, int(Qt.AlignmentFlag.AlignCenter), "…")
        else:
            painter.drawImage(tile.topLeft(), img)
        c = self.model.crops[index.row()]
        fm = option.fontMetrics  # type: ignore[attr-defined]
        painter.setPen(option.palette.text().color())  # type: ignore[attr-defined]
        top = tile.bottom() + 3
        for line in (where(c, self.model.names), c.line):  # the verdict on a line of its own
            painter.drawText(
                QRect(tile.x(), top, tile.width(), CAPTION_H // 2),
                int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                fm.elidedText(line, Qt.TextElideMode.ElideRight, tile.width()),
            )
            top += CAPTION_H // 2
