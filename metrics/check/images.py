"""Image sizes from the file header (PNG, JPEG, GIF, BMP, WebP), without decoding the image
and without Pillow (the engine stands alone), and whether an image folder fits the GT."""

from __future__ import annotations

import os
import stat
import struct
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from metrics.check.findings import Finding, Level
from metrics.core.model import Dataset

_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


def image_size(path: str | Path) -> tuple[int, int] | None:
    """(width, height) of an image, or None when the header cannot be read or the path is
    no regular file (opened without blocking and checked before reading: a pipe named like
    an image would block the reader until something wrote to it)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            return None
        with os.fdopen(fd, "rb") as fh:
            head = fh.read(32)
            if head.startswith(b"\xff\xd8"):
                fh.seek(2)
                return _jpeg(fh.read(1 << 20))
    except OSError:
        return None
    return _simple(head)


def _simple(head: bytes) -> tuple[int, int] | None:
    if head.startswith(b"\x89PNG\r\n\x1a\n") and len(head) >= 24:
        w, h = struct.unpack(">II", head[16:24])
        return int(w), int(h)
    if head[:6] in (b"GIF87a", b"GIF89a"):
        w, h = struct.unpack("<HH", head[6:10])
        return int(w), int(h)
    if head.startswith(b"BM") and len(head) >= 26:
        w, h = struct.unpack("<ii", head[18:26])
        return abs(int(w)), abs(int(h))
    if head.startswith(b"RIFF") and head[8:12] == b"WEBP" and head[12:16] == b"VP8X":
        w = int.from_bytes(head[24:27], "little") + 1
        h = int.from_bytes(head[27:30], "little") + 1
        return w, h
    return None


def _jpeg(data: bytes) -> tuple[int, int] | None:
    """Walk the JPEG segments to the first start-of-frame marker."""
    pos = 0
    while pos + 4 <= len(data):
        if data[pos] != 0xFF:
            return None
        marker = data[pos + 1]
        if marker == 0xFF:
            pos += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            pos += 2
            continue
        (length,) = struct.unpack(">H", data[pos + 2 : pos + 4])
        if marker in _SOF and pos + 9 <= len(data):
            h, w = struct.unpack(">HH", data[pos + 5 : pos + 9])
            return int(w), int(h)
        pos += 2 + length
    return None


def misfit(ds: Dataset, sizes: dict[str, tuple[int, int]]) -> Iterator[Finding]:
    """GT boxes reaching beyond their image (by more than 2 % and 2 px) in a quarter of the
    images or more: the images of another dataset, or a resized copy."""
    over = []
    for s in ds:
        if s.id not in sizes or not s.gt:
            continue
        w, h = sizes[s.id]
        top = np.max([g.points.max(axis=0) for g in s.gt], axis=0)
        if top[0] > w * 1.02 + 2 or top[1] > h * 1.02 + 2:
            over.append((s, (w, h), (float(top[0]), float(top[1]))))
    if not over or 4 * len(over) < len(sizes):
        return
    s, (w, h), (x, y) = over[0]
    yield Finding(
        Level.ERROR,
        "images_misfit",
        f"the images do not fit the GT: in {len(over)} of {len(sizes)} images GT boxes reach "
        f"beyond the image (first: {s.id}, GT up to x {x:g}, y {y:g} in a {w}x{h} image): "
        "the images of another dataset, or a resized copy? (the scores do not depend on "
        "the images; what is drawn on them does)",
        ds.images_path,
    )
