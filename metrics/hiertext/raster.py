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

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from metrics.core.records import dataclass

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

XY_SHIFT = 16
CHUNK_PIXELS = 1 << 24  # window pixels rasterised in one pass (bounds the memory used)


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


def _clip_edges(
    seg: IntArray, owner: IntArray, width: IntArray, height: IntArray
) -> tuple[IntArray, IntArray]:
    """Edges (x1, y1, x2, y2) as ``LineIterator`` draws them on their polygon's image
    (``width`` / ``height`` per edge): clipped when an end point is outside the image,
    dropped when nothing is left; and the polygon of each remaining edge."""
    xs, ys = seg[:, [0, 2]], seg[:, [1, 3]]
    outside = ((xs < 0) | (xs >= width[:, None]) | (ys < 0) | (ys >= height[:, None])).any(axis=1)
    if not outside.any():
        return seg, owner
    keep = np.flatnonzero(~outside)
    rows, owners = [seg[keep]], [owner[keep]]
    for k in np.flatnonzero(outside):
        x1, y1, x2, y2 = (int(v) for v in seg[k])
        clipped = clip_line(int(width[k]), int(height[k]), x1, y1, x2, y2)
        if clipped is not None:
            rows.append(np.array([clipped], dtype=np.int64))
            owners.append(owner[k : k + 1])
    return np.concatenate(rows).reshape(-1, 4), np.concatenate(owners)


def line_pixels(seg: IntArray) -> tuple[IntArray, IntArray, IntArray]:
    """Pixels (x, y, edge) of 8-connected ``Line``s from (x1, y1) to (x2, y2), vectorized.

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
    return xs, ys, edge


def _crossings(
    pts: IntArray, poly: IntArray, prev: IntArray, top: IntArray, bottom: IntArray
) -> tuple[IntArray, IntArray, IntArray]:
    """``FillEdgeCollection``'s edge crossings (polygon, row, fixed-point x) of the rows
    ``top..bottom`` of each polygon: edge (p0, p1) with y0 < y1 is active on y0 <= y < y1,
    at x = (x0 << 16) + (y - y0) * dx, dx = the slope in fixed point truncated toward 0."""
    a, b = pts[prev], pts
    keep = a[:, 1] != b[:, 1]
    a, b, owner = a[keep], b[keep], poly[keep]
    up = a[:, 1] < b[:, 1]
    y0 = np.where(up, a[:, 1], b[:, 1])
    y1 = np.where(up, b[:, 1], a[:, 1])
    x = np.where(up, a[:, 0], b[:, 0]) << XY_SHIFT
    num = (b[:, 0] - a[:, 0]) << XY_SHIFT
    den = b[:, 1] - a[:, 1]
    dx = np.sign(num) * np.sign(den) * (np.abs(num) // np.abs(den))
    first = np.maximum(y0, top[owner])
    n = np.maximum(np.minimum(y1, bottom[owner] + 1) - first, 0)
    edge = np.repeat(np.arange(len(n)), n)
    rows = first[edge] + np.arange(int(n.sum()), dtype=np.int64) - np.repeat(np.cumsum(n) - n, n)
    return owner[edge], rows, x[edge] + (rows - y0[edge]) * dx[edge]


def _spans(
    owner: IntArray, rows: IntArray, xs: IntArray, width: IntArray
) -> tuple[IntArray, IntArray, IntArray, IntArray]:
    """Sorted crossings of each (polygon, row) paired in order: spans [ceil(xl), floor(xr)]
    clipped to the image (polygon, row, xl, xr)."""
    order = np.lexsort((xs, rows, owner))
    owner, rows, xs = owner[order], rows[order], xs[order]
    if len(xs) < 2:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty, empty
    new = np.r_[True, (owner[1:] != owner[:-1]) | (rows[1:] != rows[:-1])]
    start = np.maximum.accumulate(np.where(new, np.arange(len(xs)), 0))
    rank = np.arange(len(xs)) - start
    last = np.r_[new[1:], True]
    left = np.flatnonzero((rank % 2 == 0) & ~last)
    xl = -((-xs[left]) >> XY_SHIFT)
    xr = xs[left + 1] >> XY_SHIFT
    p = owner[left]
    xl, xr = np.maximum(xl, 0), np.minimum(xr, width[p] - 1)
    ok = xl <= xr
    return p[ok], rows[left][ok], xl[ok], xr[ok]


def _windows(
    pts: IntArray, starts: IntArray, wid: IntArray, hei: IntArray
) -> tuple[IntArray, IntArray, IntArray, IntArray]:
    """Each polygon's bounding box clipped to its image: (x0, y0, x1, y1), empty when x1 < x0."""
    x0 = np.maximum(np.minimum.reduceat(pts[:, 0], starts), 0)
    y0 = np.maximum(np.minimum.reduceat(pts[:, 1], starts), 0)
    x1 = np.minimum(np.maximum.reduceat(pts[:, 0], starts), wid - 1)
    y1 = np.minimum(np.maximum.reduceat(pts[:, 1], starts), hei - 1)
    empty = (x1 < x0) | (y1 < y0)
    x1[empty], y1[empty] = x0[empty] - 1, y0[empty] - 1
    return x0, y0, x1, y1


def fill_polys(
    polygons: Sequence[npt.ArrayLike], width: int | Sequence[int], height: int | Sequence[int]
) -> list[Raster]:
    """``cv2.fillPoly(zeros((height, width)), [points], 1) > 0`` of each polygon, as a window
    of its image (vectorized over all polygons; image sizes per polygon or shared).
    Non-integer vertices (``--floats as-given``) are rasterised at the nearest pixel corner:
    fillPoly takes integers only."""
    every = [
        np.rint(np.asarray(p, dtype=np.float64)).astype(np.int64).reshape(-1, 2) for p in polygons
    ]
    n_all = len(every)
    wid_all = np.broadcast_to(np.asarray(width, dtype=np.int64), (n_all,))
    hei_all = np.broadcast_to(np.asarray(height, dtype=np.int64), (n_all,))
    ids = [k for k in range(n_all) if len(every[k]) and wid_all[k] > 0 and hei_all[k] > 0]
    out = [EMPTY] * n_all
    if not ids:
        return out
    counts = np.array([len(every[k]) for k in ids], dtype=np.int64)
    pts = np.concatenate([every[k] for k in ids])
    starts = np.cumsum(counts) - counts
    x0, y0, x1, y1 = _windows(pts, starts, wid_all[ids], hei_all[ids])
    size = (y1 - y0 + 1) * (x1 - x0 + 1)
    chunk = np.cumsum(size) // CHUNK_PIXELS
    for c in np.unique(chunk):
        part = np.flatnonzero(chunk == c)
        sel = [ids[q] for q in part]
        rasters = _fill([every[k] for k in sel], wid_all[sel], hei_all[sel])
        for k, r in zip(sel, rasters, strict=True):
            out[k] = r
    return out


def _fill(every: list[IntArray], wid: IntArray, hei: IntArray) -> list[Raster]:
    """``fill_polys`` of non-empty polygons on non-empty images, in one pass."""
    counts = np.array([len(p) for p in every], dtype=np.int64)
    pts = np.concatenate(every)
    starts = np.cumsum(counts) - counts
    poly = np.repeat(np.arange(len(every)), counts)
    prev = np.arange(len(pts)) - 1
    prev[starts] = starts + counts - 1
    x0, y0, x1, y1 = _windows(pts, starts, wid, hei)
    h, w = y1 - y0 + 1, x1 - x0 + 1
    size = h * w
    offset = np.cumsum(size) - size
    total = int(size.sum())
    p, r, xl, xr = _spans(*_crossings(pts, poly, prev, y0, y1), wid)
    xl, xr = np.maximum(xl, x0[p]), np.minimum(xr, x1[p])
    ok = xl <= xr
    base = (offset[p] + (r - y0[p]) * w[p] - x0[p])[ok]
    diff = np.zeros(total + 1, dtype=np.int16)  # spans of a row may share an end pixel
    np.add.at(diff, base + xl[ok], 1)
    np.add.at(diff, base + xr[ok] + 1, -1)
    flat = np.cumsum(diff[:total], dtype=np.int16) > 0
    seg, owner = _clip_edges(np.hstack([pts[prev], pts]), poly, wid[poly], hei[poly])
    xs, ys, edge = line_pixels(seg)
    o = owner[edge]
    inside = (xs >= x0[o]) & (xs <= x1[o]) & (ys >= y0[o]) & (ys <= y1[o])
    flat[(offset[o] + (ys - y0[o]) * w[o] + xs - x0[o])[inside]] = True
    return [
        Raster(int(y0[q]), int(x0[q]), flat[offset[q] : offset[q] + size[q]].reshape(h[q], w[q]))
        if size[q]
        else EMPTY
        for q in range(len(every))
    ]


def fill_poly(points: npt.ArrayLike, width: int, height: int) -> Raster:
    """``cv2.fillPoly(zeros((height, width)), [points], 1) > 0`` as a window of the image."""
    return fill_polys([points], width, height)[0]
