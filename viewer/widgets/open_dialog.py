"""OpenDatasetDialog: GT, detections, images and text-line GT for File › Open."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QWidget,
)

from viewer.paths import DatasetPaths


class OpenDatasetDialog(QDialog):
    """GT, detections, images (optional) and text-line GT (optional), each zip or folder."""

    def __init__(self, parent: QWidget | None = None, paths: DatasetPaths | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Open dataset")
        form = QFormLayout(self)
        self.edits: dict[str, QLineEdit] = {}
        for key, title in (
            ("gt", "GT (zip or folder)"),
            ("det", "Detections"),
            ("images", "Images folder"),
            ("gt_lines", "Text-line GT"),
        ):
            edit = QLineEdit(getattr(paths, key, None) or "")
            browse = QPushButton("…")
            browse.clicked.connect(lambda _=False, k=key: self._browse(k))
            row = QHBoxLayout()
            row.addWidget(edit)
            row.addWidget(browse)
            self.edits[key] = edit
            form.addRow(title, row)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Open | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def _browse(self, key: str) -> None:
        if key == "images":
            path = QFileDialog.getExistingDirectory(self, "Images folder")
        else:
            path, _ = QFileDialog.getOpenFileName(
                self, key, "", "Zip or text (*.zip *.txt);;All (*)"
            )
        if path:
            self.edits[key].setText(path)

    def paths(self) -> DatasetPaths | None:
        values = {k: e.text().strip() or None for k, e in self.edits.items()}
        if not values["gt"]:
            return None
        return DatasetPaths(values["gt"] or "", values["det"], values["images"], values["gt_lines"])
