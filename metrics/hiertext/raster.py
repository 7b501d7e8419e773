"""OpenCV ``cv2.fillPoly(mask, [pts], 1)`` (integer vertices, lineType 8, shift 0), in numpy.

Port of ``modules/imgproc/src/drawing.cpp`` of OpenCV 4.1.2 (the version the official
HierText evaluation pins): ``fillPoly`` calls ``CollectPolyEdges``, which draws every edge
with the 8-connected ``Line`` (``LineIterator`` with ``left_to_right``, the line clipped to
the image by ``clipLine`` when an end point lies outside), then ``FillEdgeCollection``
fills the scanlines between the sorted edge crossings (even-odd pairs, fixed point with
16 fractional bits, spans ``[ceil(xl), floor(xr)]``). Boundary pixels are therefore
inside: the square (2,2)-(12,12) covers 11 x 11 pixels.

Only the polygon's bounding box (clipped to the image) is rasterised: a ``Raster`` is that
window and its origin. Each polygon is vectorized over its edges and rows.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

XY_SHIFT = 16
_FAR = np.iinfo(np.int64).max


@dataclass(frozen=True, slots=True, eq=False)
class Raster:
    """A binary mask as a window of the image: ``mask[r, c]`` is pixel (x0 + c, y0 + r)."""

    y0: int
    x0: int
    mask: BoolArray

    @property
    def area(self) -> int:
        return int(np.count_nonzero(self.mask))

    def to_image(self, width: int, height: int) -> BoolArray:
        """The full image mask (for tests and drawing)."""
        out = np.zeros((height, width), dtype=bool)
        h, w = self.mask.shape
        out[self.y0 : self.y0 + h, self.x0 : self.x0 + w] = self.mask
        return out


EMPTY = Raster(0, 0, np.zeros((0, 0), dtype=bool))


def _cdiv(a: int, b: int) -> int:
    """C integer division (truncation toward zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def _outcode(x: int, y: int, right: int, bottom: int) -> int:
    return (x < 0) + (x > right) * 2 + (y < 0) * 4 + (y > bottom) * 8


def clip_line(
    width: int, height: int, x1: int, y1: int, x2: int, y2: int
) -> tuple[int, int, int, int] | None:
    """OpenCV 4.1.2 ``clipLine(Size2l, pt1, pt2)``: the clipped end points, or None."""
    if width <= 0 or height <= 0:
        return None
    right, bottom = width - 1, height - 1
    c1, c2 = _outcode(x1, y1, right, bottom), _outcode(x2, y2, right, bottom)
    if (c1 & c2) == 0 and (c1 | c2) != 0:
        if c1 & 12:
            a = 0 if c1 < 8 else bottom
            x1 += _cdiv((a - y1) * (x2 - x1), y2 - y1)
            y1 = a
            c1 = (x1 < 0) + (x1 > right) * 2
        if c2 & 12:
            a = 0 if c2 < 8 else bottom
            x2 += _cdiv((a - y2) * (x2 - x1), y2 - y1)
            y2 = a
            c2 = (x2 < 0) + (x2 > right) * 2
        if (c1 & c2) == 0 and (c1 | c2) != 0:
            if c1:
                a = 0 if c1 == 1 else right
                y1 += _cdiv((a - x1) * (y2 - y1), x2 - x1)
                x1, c1 = a, 0
            if c2:
                a = 0 if c2 == 1 else right
                y2 += _cdiv((a - x2) * (y2 - y1), x2 - x1)
                x2, c2 = a, 0
    return (x1, y1, x2, y2) if (c1 | c2) == 0 else None


def _clip_edges(seg: IntArray, width: int, height: int) -> IntArray:
    """Edges (x1, y1, x2, y2) as ``LineIterator`` draws them: clipped when an end point is
    outside the image, dropped when nothing is left."""
    outside = (
        (seg[:, [0, 2]] < 0).any(axis=1)
        | (seg[:, [0, 2]] >= width).any(axis=1)
        | (seg[:, [1, 3]] < 0).any(axis=1)
        | (seg[:, [1, 3]] >= height).any(axis=1)
    )
    if not outside.any():
        return seg
    rows = [seg[k] for k in np.flatnonzero(~outside)]
    for k in np.flatnonzero(outside):
        x1, y1, x2, y2 = (int(v) for v in seg[k])
        clipped = clip_line(width, height, x1, y1, x2, y2)
        if clipped is not None:
            rows.append(np.array(clipped, dtype=np.int64))
    return np.array(rows, dtype=np.int64).reshape(-1, 4)


def line_pixels(seg: IntArray) -> tuple[IntArray, IntArray]:
    """Pixels (x, y) of 8-connected ``Line``s from (x1, y1) to (x2, y2), vectorized.

    ``LineIterator`` starts at the left end point, steps one pixel along the major axis per
    iteration and along the minor axis when its error term is negative; the minor offset
    after k steps is ``ceil((2 d k - D) / (2 D))`` (D, d = major, minor extents).
    """
    swap = seg[:, 2] < seg[:, 0]
    ax = np.where(swap, seg[:, 2], seg[:, 0])
    ay = np.where(swap, seg[:, 3], seg[:, 1])
    dx = np.abs(seg[:, 2] - seg[:, 0])
    dy = np.where(swap, seg[:, 1] - seg[:, 3], seg[:, 3] - seg[:, 1])
    sy = np.where(dy < 0, -1, 1)
    ady = np.abs(dy)
    y_major = ady > dx
    big = np.where(y_major, ady, dx)
    small = np.where(y_major, dx, ady)
    counts = big + 1
    edge = np.repeat(np.arange(len(seg)), counts)
    k = np.arange(int(counts.sum()), dtype=np.int64) - np.repeat(np.cumsum(counts) - counts, counts)
    bk, sk = big[edge], small[edge]
    minor = np.where(bk > 0, -((bk - 2 * sk * k) // np.maximum(2 * bk, 1)), 0)
    ym = y_major[edge]
    xs = ax[edge] + np.where(ym, minor, k)
    ys = ay[edge] + np.where(ym, k, minor) * sy[edge]
    return xs, ys


def _spans(
    pts: IntArray, width: int, rows: IntArray
) -> tuple[IntArray, IntArray, IntArray] | None:
    """``FillEdgeCollection``: per scanline the spans (row, xl, xr) between sorted pairs of
    edge crossings (edges with y0 <= y < y1, x advanced by the truncated fixed-point slope)."""
    p0 = np.roll(pts, 1, axis=0)
    keep = p0[:, 1] != pts[:, 1]
    if np.count_nonzero(keep) < 2 or len(rows) == 0:
        return None
    a, b = p0[keep], pts[keep]
    top = a[:, 1] < b[:, 1]
    y0 = np.where(top, a[:, 1], b[:, 1])
    y1 = np.where(top, b[:, 1], a[:, 1])
    x = np.where(top, a[:, 0], b[:, 0]) << XY_SHIFT
    num = (b[:, 0] - a[:, 0]) << XY_SHIFT
    den = b[:, 1] - a[:, 1]
    dx = np.sign(num) * np.sign(den) * (np.abs(num) // np.abs(den))
    active = (y0[:, None] <= rows[None, :]) & (rows[None, :] < y1[:, None])
    xs = np.where(active, x[:, None] + (rows[None, :] - y0[:, None]) * dx[:, None], _FAR)
    if len(xs) % 2:
        xs = np.vstack([xs, np.full((1, len(rows)), _FAR)])
    xs.sort(axis=0)
    left, right = xs[0::2], xs[1::2]
    ok = right != _FAR
    xl = -((-left) >> XY_SHIFT)
    xr = right >> XY_SHIFT
    ok &= (xl < width) & (xr >= 0)
    r = np.broadcast_to(np.arange(len(rows)), xl.shape)[ok]
    return r, np.maximum(xl[ok], 0), np.minimum(xr[ok], width - 1)


def fill_poly(points: npt.ArrayLike, width: int, height: int) -> Raster:
    """``cv2.fillPoly(zeros((height, width)), [points], 1) > 0`` as a window of the image."""
    pts = np.asarray(points, dtype=np.int64).reshape(-1, 2)
    if len(pts) == 0 or width <= 0 or height <= 0:
        return EMPTY
    gx0, gy0 = max(int(pts[:, 0].min()), 0), max(int(pts[:, 1].min()), 0)
    gx1, gy1 = min(int(pts[:, 0].max()), width - 1), min(int(pts[:, 1].max()), height - 1)
    if gx0 > gx1 or gy0 > gy1:
        return EMPTY
    mask = np.zeros((gy1 - gy0 + 1, gx1 - gx0 + 1), dtype=bool)
    spans = _spans(pts, width, np.arange(gy0, gy1 + 1, dtype=np.int64))
    if spans is not None:
        r, xl, xr = spans
        xl, xr = np.maximum(xl, gx0) - gx0, np.minimum(xr, gx1) - gx0
        good = xl <= xr
        diff = np.zeros((mask.shape[0], mask.shape[1] + 1), dtype=np.int32)
        np.add.at(diff, (r[good], xl[good]), 1)
        np.add.at(diff, (r[good], xr[good] + 1), -1)
        mask |= np.cumsum(diff[:, :-1], axis=1) > 0
    seg = np.hstack([np.roll(pts, 1, axis=0), pts])
    xs, ys = line_pixels(_clip_edges(seg, width, height))
    inside = (xs >= gx0) & (xs <= gx1) & (ys >= gy0) & (ys <= gy1)
    mask[ys[inside] - gy0, xs[inside] - gx0] = True
    return Raster(gy0, gx0, mask)
