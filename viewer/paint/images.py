"""Images read for the canvas, exports and reports: only regular files are opened (a pipe
named like an image blocked the viewer, ``export`` and ``report``; a device would be read
without end). ``metrics.io.image_files`` pairs only such files; a path is checked again here
because the file may have been replaced since."""

from __future__ import annotations

from PySide6.QtGui import QImage

from metrics.io.image_files import not_an_image_file


def read_image(path: str | None) -> QImage:
    """The image at ``path``; a null ``QImage`` if there is none, it is no regular file or
    it cannot be decoded."""
    if not path or not_an_image_file(path) is not None:
        return QImage()
    return QImage(path)
