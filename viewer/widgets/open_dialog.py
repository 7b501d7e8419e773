"""OpenDatasetDialog: GT, detections, images and text-line GT for File › Open (and for files
and folders dropped on the window). Every side takes a file, a folder or a zip in any format
the engine reads; the format is detected from the content (README, Formats)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QWidget,
)

from metrics.io.archive import IMAGE_SUFFIXES
from metrics.io.formats import FORMATS
from viewer.app.paths import DatasetPaths

FILE_FILTER = (
    "Annotations and results (*.zip *.txt *.json *.gt *.xml);;Zip (*.zip);;JSON (*.json);;"
    "Text (*.txt *.gt);;XML (*.xml);;All (*)"
)
_DET_HINTS = ("res", "det", "pred", "result", "out", "sub")
_GT_HINTS = ("gt", "label", "ann", "groundtruth", "truth")


def _is_image_folder(path: Path) -> bool:
    if not path.is_dir():
        return False
    names = [f.suffix.lower() for f in path.iterdir() if f.is_file()]
    return bool(names) and sum(s in IMAGE_SUFFIXES for s in names) > len(names) / 2


def _hint(path: Path) -> str | None:
    """ "gt" or "det" from words in the name (``gt.zip``, ``det_results.txt``, ``preds/``)."""
    words = path.name.lower().replace("-", "_").replace(".", "_").split("_")
    if any(w.startswith(_DET_HINTS) for w in words):
        return "det"
    if any(w.startswith(_GT_HINTS) for w in words):
        return "gt"
    return None


def guess_paths(dropped: list[str], current: DatasetPaths | None) -> DatasetPaths:
    """Dropped files and folders as GT / detections / images: an image folder is the images,
    names say GT (``gt``, ``label``) or detections (``res``, ``det``, ``pred``), the rest
    fills GT then detections in the order given; one dropped file with a dataset open
    replaces its detections."""
    slots: dict[str, str | None] = {"gt": None, "det": None, "images": None}
    rest = []
    for raw in dropped:
        p = Path(raw)
        kind = "images" if _is_image_folder(p) else _hint(p)
        if kind and slots[kind] is None:
            slots[kind] = raw
        else:
            rest.append(raw)
    if current is not None and len(dropped) == 1 and slots["images"] is None:
        single = dropped[0]
        return DatasetPaths(current.gt, single, current.images, current.gt_lines)
    for key in ("gt", "det"):
        if slots[key] is None and rest:
            slots[key] = rest.pop(0)
    images = slots["images"] or (current.images if current else None)
    return DatasetPaths(slots["gt"] or "", slots["det"], images, None)


class OpenDatasetDialog(QDialog):
    """GT, detections, images (optional) and text-line GT (optional)."""

    def __init__(self, parent: QWidget | None = None, paths: DatasetPaths | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Open dataset")
        self.setMinimumWidth(560)
        form = QFormLayout(self)
        self.edits: dict[str, QLineEdit] = {}
        for key, title in (
            ("gt", "GT"),
            ("det", "Detections"),
            ("images", "Images folder"),
            ("gt_lines", "Text-line GT"),
        ):
            edit = QLineEdit(getattr(paths, key, None) or "")
            edit.setPlaceholderText("folder" if key == "images" else "file, folder or zip")
            row = QHBoxLayout()
            row.addWidget(edit)
            if key != "images":
                browse = QPushButton("File…")
                browse.clicked.connect(lambda _=False, k=key: self._browse(k, folder=False))
                row.addWidget(browse)
            folder = QPushButton("Folder…")
            folder.clicked.connect(lambda _=False, k=key: self._browse(k, folder=True))
            row.addWidget(folder)
            self.edits[key] = edit
            form.addRow(title, row)
        note = QLabel(
            "Any format: detected from the content (README, Formats).\n"
            "Files and folders can also be dropped on the window."
        )
        note.setToolTip("Formats read: " + ", ".join(f.name for f in FORMATS))
        note.setWordWrap(True)
        note.setStyleSheet("color: #666")
        form.addRow(note)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Open | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def _browse(self, key: str, *, folder: bool) -> None:
        if folder:
            path = QFileDialog.getExistingDirectory(self, key)
        else:
            path, _ = QFileDialog.getOpenFileName(self, key, "", FILE_FILTER)
        if path:
            self.edits[key].setText(path)

    def paths(self) -> DatasetPaths | None:
        values = {k: e.text().strip() or None for k, e in self.edits.items()}
        if not values["gt"]:
            return None
        return DatasetPaths(values["gt"] or "", values["det"], values["images"], values["gt_lines"])


class DropOpener(QObject):
    """Makes a window take dropped files and folders: ``opened`` gets their local paths."""

    def __init__(self, window: QWidget, opened: Callable[[list[str]], None]) -> None:
        super().__init__(window)
        self.opened = opened
        window.setAcceptDrops(True)
        window.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if isinstance(event, QDragEnterEvent) and event.mimeData().hasUrls():
            event.acceptProposedAction()
            return True
        if isinstance(event, QDropEvent):
            dropped = [u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile()]
            if dropped:
                event.acceptProposedAction()
                self.opened(dropped)
                return True
        return super().eventFilter(watched, event)
