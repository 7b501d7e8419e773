"""Qt polygons of many coordinate arrays at once (a 1,000-word page has ~3,000 of them).

Making one ``QPolygonF`` per ring from Python costs several calls each; here all rings go
into one ``QPainterPath`` read from a byte stream built by numpy in one pass, and
``toSubpathPolygons`` hands back every ring as its own polygon in one call. The rings'
bounding boxes come from the same flat array.
"""

from __future__ import annotations

import ctypes
from collections.abc import Sequence

import numpy as np
import shiboken6
from PySide6.QtCore import QByteArray, QDataStream, QIODevice
from PySide6.QtGui import QPainterPath, QPolygonF

# QDataStream layout of a QPainterPath: int32 count, then per element (int32 type, float64
# x, float64 y), all big-endian, then int32 cStart and int32 fill rule.
_ELEMENT = np.dtype([("type", ">i4"), ("x", ">f8"), ("y", ">f8")])
_LIMIT = 1e100  # the stream drops elements it deems invalid (not finite, or beyond ~1e128)


def points(c: np.ndarray) -> np.ndarray:
    """(n, 2) float64 points of a coordinate array (no copy when it already is one)."""
    if isinstance(c, np.ndarray) and c.dtype == np.float64 and c.ndim == 2:
        return c
    return np.asarray(c, dtype=np.float64).reshape(-1, 2)


def polygons(coords: Sequence[np.ndarray]) -> list[QPolygonF]:
    """One ``QPolygonF`` per coordinate array, point for point."""
    return polygons_and_boxes(coords)[0]


def polygons_and_boxes(coords: Sequence[np.ndarray]) -> tuple[list[QPolygonF], np.ndarray]:
    """The polygons of many coordinate arrays and their (n, 4) boxes (x0, y0, x1, y1; zeros
    for an empty array)."""
    arrays = [points(c) for c in coords]
    boxes = np.zeros((len(arrays), 4))
    if not arrays:
        return [], boxes
    lengths = np.fromiter(map(len, arrays), dtype=np.intp, count=len(arrays))
    flat = np.concatenate(arrays) if len(arrays) > 1 else arrays[0]
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
    keep = lengths > 0
    if keep.all():
        boxes[:, :2] = np.minimum.reduceat(flat, starts, axis=0)
        boxes[:, 2:] = np.maximum.reduceat(flat, starts, axis=0)
    elif keep.any():
        boxes[keep, :2] = np.minimum.reduceat(flat, starts[keep], axis=0)
        boxes[keep, 2:] = np.maximum.reduceat(flat, starts[keep], axis=0)
    out = _from_path(flat, lengths, starts) if lengths.min() >= 2 else None
    if out is None:
        out = _one_by_one(flat, lengths)
    return out, boxes


def _from_path(flat: np.ndarray, lengths: np.ndarray, starts: np.ndarray) -> list[QPolygonF] | None:
    """Every ring a subpath of one path read from a stream; None when the stream would drop
    a point (a ring of fewer than two points is no subpath, so such input is not sent)."""
    if not np.all(np.abs(flat) < _LIMIT):
        return None
    n = len(flat)
    elements = np.empty(n, dtype=_ELEMENT)
    kinds = np.ones(n, dtype=np.int32)  # LineToElement
    kinds[starts] = 0  # MoveToElement
    elements["type"], elements["x"], elements["y"] = kinds, flat[:, 0], flat[:, 1]
    head = np.array([n], dtype=">i4").tobytes()
    tail = np.array([0, 0], dtype=">i4").tobytes()
    data = QByteArray(head + elements.tobytes() + tail)  # alive while the stream reads it
    stream = QDataStream(data, QIODevice.OpenModeFlag.ReadOnly)
    path = QPainterPath()
    stream >> path
    out = path.toSubpathPolygons()
    return out if len(out) == len(lengths) else None


def _one_by_one(flat: np.ndarray, lengths: np.ndarray) -> list[QPolygonF]:
    """The points copied into each polygon's own buffer (x, y doubles back to back)."""
    data = np.ascontiguousarray(flat, dtype=np.float64)
    base, off, out = data.ctypes.data, 0, []
    move, address = ctypes.memmove, shiboken6.getCppPointer
    for n in lengths.tolist():
        poly = QPolygonF()
        if n:
            poly.resize(n)
            move(address(poly.data())[0], base + off, 16 * n)
            off += 16 * n
        out.append(poly)
    return out
