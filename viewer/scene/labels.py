"""Label placement on screen: score labels avoid each other and the words (no Qt here).

Labels keep their screen size at any zoom, so where they fit depends on the zoom: the painter
calls ``place_labels`` with everything in screen pixels (image coordinates times the scale).
Each label is tried at the corners and sides of its own instance's box, then further out with
a leader line back to the box; the first spot that covers neither a label placed before it nor
a word wins. Labels are placed in the order given (the painter puts the selected and
hovered ones first, then the instances that lost credit). A label with no free spot at all
takes the spot that covers the fewest placed labels and is marked ``crowded``: the painter
leaves it out (unless it is the selected or hovered one) and counts it in the view's note
("N score labels not shown ... zoom in"), instead of piling labels over each other and over
the view's edge.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]

_CELL = 48.0  # grid cell of the spatial hash, screen pixels


@dataclass(frozen=True, slots=True)
class Placed:
    """A label's box (top-left x, y, width, height) in screen pixels; ``leader`` is the point
    of its instance's box a leader line goes to (None: the label touches its box)."""

    x: float
    y: float
    w: float
    h: float
    leader: tuple[float, float] | None = None
    crowded: bool = False  # no free spot: it covers another label or leaves the bounds


class _Grid:
    """Axis-aligned rectangles in a spatial hash: does a rectangle overlap any of them?"""

    def __init__(self) -> None:
        self.cells: dict[tuple[int, int], list[int]] = {}
        self.rects: list[tuple[float, float, float, float]] = []

    def _keys(self, r: tuple[float, float, float, float]) -> list[tuple[int, int]]:
        x0, y0, x1, y1 = r
        i0, i1, j0, j1 = int(x0 // _CELL), int(x1 // _CELL), int(y0 // _CELL), int(y1 // _CELL)
        return [(i, j) for i in range(i0, i1 + 1) for j in range(j0, j1 + 1)]

    def add(self, r: tuple[float, float, float, float]) -> None:
        k = len(self.rects)
        self.rects.append(r)
        for key in self._keys(r):
            self.cells.setdefault(key, []).append(k)

    def overlap(self, r: tuple[float, float, float, float]) -> float:
        """Area of ``r`` covered by the stored rectangles (summed; strict interiors only)."""
        x0, y0, x1, y1 = r
        seen: set[int] = set()
        total = 0.0
        rects, cells = self.rects, self.cells
        for key in self._keys(r):
            for k in cells.get(key, ()):
                if k in seen:
                    continue
                seen.add(k)
                a0, b0, a1, b1 = rects[k]
                w = (x1 if x1 < a1 else a1) - (x0 if x0 > a0 else a0)
                if w > 0:
                    h = (y1 if y1 < b1 else b1) - (y0 if y0 > b0 else b0)
                    if h > 0:
                        total += w * h
        return total


class _Cover:
    """Which screen pixels the words cover, as a summed-area table on a coarse raster: how
    much of a rectangle lies on words is four lookups (labels are tested against thousands
    of words at every placement)."""

    def __init__(self, rects: FloatArray, area: tuple[float, float, float, float]) -> None:
        self.x0, self.y0, x1, y1 = area
        span = max(x1 - self.x0, y1 - self.y0, 1.0)
        self.res = max(4.0, span / 2048.0)  # screen pixels per cell, at most 2048 cells a side
        w = int((x1 - self.x0) / self.res) + 2
        h = int((y1 - self.y0) / self.res) + 2
        diff = np.zeros((h + 1, w + 1), dtype=np.int32)
        if len(rects):
            r = np.asarray(rects, dtype=float)
            cx0 = np.clip(np.floor((r[:, 0] - self.x0) / self.res), 0, w).astype(np.intp)
            cy0 = np.clip(np.floor((r[:, 1] - self.y0) / self.res), 0, h).astype(np.intp)
            cx1 = np.clip(np.ceil((r[:, 2] - self.x0) / self.res), 0, w).astype(np.intp)
            cy1 = np.clip(np.ceil((r[:, 3] - self.y0) / self.res), 0, h).astype(np.intp)
            keep = (cx1 > cx0) & (cy1 > cy0)
            for ys, xs, v in ((cy0, cx0, 1), (cy0, cx1, -1), (cy1, cx0, -1), (cy1, cx1, 1)):
                np.add.at(diff, (ys[keep], xs[keep]), v)
        covered = (diff.cumsum(axis=0).cumsum(axis=1) > 0)[:h, :w].astype(np.int32)
        self.sat = np.zeros((h + 1, w + 1), dtype=np.int64)
        self.sat[1:, 1:] = covered.cumsum(axis=0).cumsum(axis=1)
        self.w, self.h = w, h

    def overlap(self, r: tuple[float, float, float, float]) -> float:
        """Covered area of ``r`` (in screen pixels, to the raster's resolution)."""
        res = self.res
        i0 = min(max(int((r[0] - self.x0) / res), 0), self.w)
        j0 = min(max(int((r[1] - self.y0) / res), 0), self.h)
        i1 = min(max(int((r[2] - self.x0) / res + 0.999), 0), self.w)
        j1 = min(max(int((r[3] - self.y0) / res + 0.999), 0), self.h)
        if i1 <= i0 or j1 <= j0:
            return 0.0
        s = self.sat
        cells = int(s[j1, i1] - s[j0, i1] - s[j1, i0] + s[j0, i0])
        return cells * res * res


def _candidates(
    box: list[float], w: float, h: float
) -> list[tuple[float, float, tuple[float, float] | None]]:
    """Top-left corners around an instance box (x0, y0, x1, y1): touching it first (six
    spots), then 1.2 and 2.4 label heights away with a leader point (six each)."""
    x0, y0, x1, y1 = box
    gap = 2.0
    near = [
        (x0, y0 - h - gap),  # above, left-aligned
        (x1 - w, y1 + gap),  # below, right-aligned
        (x1 - w, y0 - h - gap),  # above, right-aligned
        (x0, y1 + gap),  # below, left-aligned
        (x1 + gap, y0),  # right
        (x0 - w - gap, y1 - h),  # left
    ]
    out: list[tuple[float, float, tuple[float, float] | None]] = [(x, y, None) for x, y in near]
    for step in (1.2, 2.4):
        d = step * h
        for x, y in near:
            dx = 0.0 if x0 - w < x < x1 else (d if x >= x1 else -d)
            dy = -d if y < y0 else (d if y >= y1 else 0.0)
            cx, cy = x + dx, y + dy
            px = min(max(cx + w / 2, x0), x1)
            py = min(max(cy + h / 2, y0), y1)
            out.append((cx, cy, (px, py)))
    return out


def _inside(r: tuple[float, float, float, float], bounds: tuple[float, ...] | None) -> bool:
    return bounds is None or (
        r[0] >= bounds[0] and r[1] >= bounds[1] and r[2] <= bounds[2] and r[3] <= bounds[3]
    )


def _place(
    box: list[float],
    w: float,
    h: float,
    words: _Cover,
    placed: _Grid,
    bounds: tuple[float, float, float, float] | None,
) -> Placed:
    """The first spot that covers neither a label nor a word; failing that (dense text), the
    spot that covers no label and the least of the words; failing that, the least labels.
    Each ring of spots is tried whole before going further out."""
    best: tuple[float, float, float, float, tuple[float, float] | None] | None = None
    for n, (x, y, leader) in enumerate(_candidates(box, w, h)):
        if n % 6 == 0 and best is not None and best[0] == 0:
            break  # a ring ended with a spot free of labels: take the best of it
        r = (x, y, x + w, y + h)
        on_labels = placed.overlap(r) + (0.0 if _inside(r, bounds) else w * h)
        on_words = words.overlap(r) if on_labels == 0 else float("inf")
        if on_labels == 0 and on_words == 0:
            return Placed(x, y, w, h, leader)
        if best is None or (on_labels, on_words) < (best[0], best[1]):
            best = (on_labels, on_words, x, y, leader)
    assert best is not None
    return Placed(best[2], best[3], w, h, best[4], crowded=best[0] > 0)


def place_labels(
    boxes: FloatArray,
    sizes: FloatArray,
    obstacles: FloatArray,
    bounds: tuple[float, float, float, float] | None = None,
) -> list[Placed]:
    """Positions of labels of the given ``sizes`` (n, 2: width, height) for instances with
    screen ``boxes`` (n, 4), avoiding each other and the ``obstacles`` (m, 4: the words), and
    inside ``bounds`` (the visible screen area) where possible."""
    rects = np.asarray(obstacles, dtype=float).reshape(-1, 4)
    box_arr = np.asarray(boxes, dtype=float).reshape(-1, 4)
    if bounds is not None:
        area = bounds
    else:
        everything = np.concatenate([rects, box_arr]) if len(rects) else box_arr
        lo = everything.min(axis=0) if len(everything) else np.zeros(4)
        hi = everything.max(axis=0) if len(everything) else np.ones(4)
        area = (float(lo[0]) - 200, float(lo[1]) - 100, float(hi[2]) + 200, float(hi[3]) + 100)
    words, placed = _Cover(rects, area), _Grid()
    out: list[Placed] = []
    box_list = np.asarray(boxes, float).reshape(-1, 4).tolist()
    size_list = np.asarray(sizes, float).reshape(-1, 2).tolist()
    for box, size in zip(box_list, size_list, strict=True):
        w, h = float(size[0]), float(size[1])
        chosen = _place(box, w, h, words, placed, bounds)
        if not chosen.crowded:  # a crowded one is left out by the painter: it blocks nothing
            placed.add((chosen.x, chosen.y, chosen.x + chosen.w, chosen.y + chosen.h))
        out.append(chosen)
    return out
