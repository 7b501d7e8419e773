"""Rectangles against polygons for label placement (no Qt, no shapely).

A label is an axis-aligned rectangle (x0, y0, x1, y1); an instance is a ring of points. The
placer asks three things of the few instances near a candidate spot: does the label cover
the polygon (their interiors meet), how far is the label from its own polygon (and the
polygon's point nearest it, where a leader line goes), and does a leader line run through a
polygon's interior. Rotated and curved words are far from their bounding boxes' corners, so
these tests are on the polygons themselves.

Rings are lists of (x, y) tuples and the loops plain Python: a word has 4 to 30 points, and
at that size numpy's per-call cost is many times the arithmetic (a 1,000-word page asks
tens of thousands of these questions while its labels are placed).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

Rect = tuple[float, float, float, float]
Point = tuple[float, float]
Ring = Sequence[Point]
_EPS = 1e-9
CELL = 48.0  # grid cell of the spatial hash, screen pixels


def _inside(px: float, py: float, ring: Ring) -> bool:
    """Even-odd rule: is the point inside the ring?"""
    odd = False
    x0, y0 = ring[-1]
    for x1, y1 in ring:
        if (y1 > py) != (y0 > py) and px < x1 + (py - y1) * (x0 - x1) / (y0 - y1):
            odd = not odd
        x0, y0 = x1, y1
    return odd


def _clips(ax: float, ay: float, bx: float, by: float, r: Rect) -> bool:
    """Does the segment pass through the rectangle (a piece of positive length inside it)?
    Liang-Barsky."""
    dx, dy = bx - ax, by - ay
    t0, t1 = 0.0, 1.0
    for p, q in ((-dx, ax - r[0]), (dx, r[2] - ax), (-dy, ay - r[1]), (dy, r[3] - ay)):
        if abs(p) < _EPS:
            if q <= 0:
                return False
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 >= t1:
            return False
    return (t1 - t0) * math.hypot(dx, dy) > 1e-6


def rect_meets_polygon(r: Rect, ring: Ring) -> bool:
    """Do the rectangle's and the ring's interiors meet? (An edge of the ring passing
    through the rectangle, or the rectangle inside the ring.)"""
    if len(ring) < 3:
        return False
    ax, ay = ring[-1]
    for bx, by in ring:
        if _clips(ax, ay, bx, by, r):
            return True
        ax, ay = bx, by
    return _inside((r[0] + r[2]) / 2, (r[1] + r[3]) / 2, ring)


def _foot(cx: float, cy: float, ax: float, ay: float, bx: float, by: float) -> Point:
    dx, dy = bx - ax, by - ay
    dd = dx * dx + dy * dy
    t = 0.0 if dd < _EPS else min(max(((cx - ax) * dx + (cy - ay) * dy) / dd, 0.0), 1.0)
    return ax + t * dx, ay + t * dy


def nearest(r: Rect, ring: Ring) -> tuple[float, Point]:
    """The distance from the rectangle to the ring (0 when they meet) and the ring's point
    nearest the rectangle (a vertex, or the foot on an edge from a corner)."""
    if rect_meets_polygon(r, ring):
        cx, cy = (r[0] + r[2]) / 2, (r[1] + r[3]) / 2
        return 0.0, min(ring, key=lambda p: math.hypot(p[0] - cx, p[1] - cy))
    best, point = math.inf, ring[0]
    for px, py in ring:
        d = math.hypot(max(r[0] - px, px - r[2], 0.0), max(r[1] - py, py - r[3], 0.0))
        if d < best:
            best, point = d, (px, py)
    corners = ((r[0], r[1]), (r[2], r[1]), (r[0], r[3]), (r[2], r[3]))
    ax, ay = ring[-1]
    for bx, by in ring:
        for cx, cy in corners:
            fx, fy = _foot(cx, cy, ax, ay, bx, by)
            d = math.hypot(fx - cx, fy - cy)
            if d < best:
                best, point = d, (fx, fy)
        ax, ay = bx, by
    return best, point


def _side(ox: float, oy: float, ux: float, uy: float, vx: float, vy: float) -> float:
    return (ux - ox) * (vy - oy) - (uy - oy) * (vx - ox)


def segment_crosses_polygon(p: Point, q: Point, ring: Ring) -> bool:
    """Does the segment pq run through the ring's interior (not only touch its outline)?"""
    if len(ring) < 3:
        return False
    tol = 1e-6 * max(math.hypot(q[0] - p[0], q[1] - p[1]), 1.0)
    ax, ay = ring[-1]
    for bx, by in ring:
        s1 = _side(p[0], p[1], q[0], q[1], ax, ay)
        s2 = _side(p[0], p[1], q[0], q[1], bx, by)
        if s1 * s2 < -tol:
            s3 = _side(ax, ay, bx, by, p[0], p[1])
            s4 = _side(ax, ay, bx, by, q[0], q[1])
            if s3 * s4 < -tol:
                return True  # a proper crossing of an edge
        ax, ay = bx, by
    return any(  # none: the segment is all inside or all outside (but for its ends)
        _inside(p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1]), ring) for t in (0.25, 0.5, 0.75)
    )


def area(ring: Ring) -> float:
    """The ring's area (shoelace)."""
    s = 0.0
    ax, ay = ring[-1]
    for bx, by in ring:
        s += ax * by - bx * ay
        ax, ay = bx, by
    return abs(s) / 2


def hug_spots(ring: Ring, w: float, h: float, gap: float) -> list[Point]:
    """Top-left corners of a w x h label just outside the ring, ``gap`` from it: beyond its
    extreme point in four directions (above, below, beside) and beyond the middle of its
    two longest edges (a word's long sides) along their outward normals; on a convex
    ring these labels meet it nowhere (on a curved one the placer's test decides)."""
    spots: list[tuple[Point, float, float]] = []
    for ux, uy in ((0, -1), (0, 1), (1, 0), (-1, 0)):
        spots.append((max(ring, key=lambda p: p[0] * ux + p[1] * uy), ux, uy))
    cx = sum(p[0] for p in ring) / len(ring)
    cy = sum(p[1] for p in ring) / len(ring)
    edges = [(ring[k - 1], ring[k]) for k in range(len(ring))]
    edges.sort(key=lambda e: -math.hypot(e[1][0] - e[0][0], e[1][1] - e[0][1]))
    for a, b in edges[:2]:
        length = math.hypot(b[0] - a[0], b[1] - a[1])
        if length < _EPS:
            continue
        nx, ny = (b[1] - a[1]) / length, -(b[0] - a[0]) / length
        mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        if (mid[0] - cx) * nx + (mid[1] - cy) * ny < 0:
            nx, ny = -nx, -ny
        spots.append((mid, nx, ny))
    out = []
    for (px, py), nx, ny in spots:
        # the label's corner (or side's middle) nearest the ring at the point plus the gap
        qx, qy = px + gap * nx, py + gap * ny
        x = qx - w / 2 if abs(nx) < 1e-9 else (qx if nx > 0 else qx - w)
        y = qy - h / 2 if abs(ny) < 1e-9 else (qy if ny > 0 else qy - h)
        out.append((x, y))
    return out


def leader_span(r: Rect, leader: tuple[float, float]) -> Rect:
    """The rectangle spanned by a label's leader line: from the point of the label's box
    nearest the leader point (where the painter starts it) to that point, half a pixel wide."""
    ex, ey = min(max(leader[0], r[0]), r[2]), min(max(leader[1], r[1]), r[3])
    lx, ly = leader
    return (min(ex, lx) - 0.5, min(ey, ly) - 0.5, max(ex, lx) + 0.5, max(ey, ly) + 0.5)


def rect_gap(r: Rect, b: Rect) -> float:
    """The distance between two rectangles (0 when they meet)."""
    dx = max(b[0] - r[2], r[0] - b[2], 0.0)
    dy = max(b[1] - r[3], r[1] - b[3], 0.0)
    return math.hypot(dx, dy)


def box_nearest(r: Rect, b: Rect) -> tuple[float, tuple[float, float]]:
    """``nearest`` for an upright box: the box's point nearest the label's centre."""
    cx, cy = (r[0] + r[2]) / 2, (r[1] + r[3]) / 2
    return rect_gap(r, b), (min(max(cx, b[0]), b[2]), min(max(cy, b[1]), b[3]))


def ring_distance(p: Point, ring: Ring) -> float:
    """The distance from the point to the ring's outline, 0 inside the ring."""
    if len(ring) >= 3 and _inside(p[0], p[1], ring):
        return 0.0
    best = math.inf
    ax, ay = ring[-1]
    for bx, by in ring:
        fx, fy = _foot(p[0], p[1], ax, ay, bx, by)
        best = min(best, math.hypot(fx - p[0], fy - p[1]))
        ax, ay = bx, by
    return best


def leader_point(
    r: Rect, ring: Ring, found: tuple[float, Point], others: Sequence[Ring], margin: float
) -> tuple[float, Point]:
    """A leader line's end must say whose it is: ``found`` (the gap from the label and the
    ring's point nearest it) when that point is ``margin`` clear of the ``others`` rings,
    else the nearest of the ring's vertices and edge middles that is (a corner or an edge
    two words share is neither's); ``found`` when none is."""
    if not others or min(ring_distance(found[1], o) for o in others) >= margin:
        return found
    edges = [(ring[k - 1], ring[k]) for k in range(len(ring))]
    mids = [((a[0] + b[0]) / 2, (a[1] + b[1]) / 2) for a, b in edges]
    tried = [
        (math.hypot(max(r[0] - q[0], q[0] - r[2], 0.0), max(r[1] - q[1], q[1] - r[3], 0.0)), q)
        for q in [*ring, *mids]
    ]
    for d, q in sorted(tried):
        if min(ring_distance(q, o) for o in others) >= margin:
            return d, q
    return found


def segment_distance(a: tuple[Point, Point], b: tuple[Point, Point]) -> float:
    """The distance between two segments (0 when they cross)."""
    (p, q), (u, v) = a, b
    d1, d2 = _side(*p, *q, *u), _side(*p, *q, *v)
    d3, d4 = _side(*u, *v, *p), _side(*u, *v, *q)
    if d1 * d2 < 0 and d3 * d4 < 0:
        return 0.0
    ends = [(p, b), (q, b), (u, a), (v, a)]
    return min(
        math.hypot(c[0] - f[0], c[1] - f[1])
        for c, s in ends
        for f in (_foot(c[0], c[1], s[0][0], s[0][1], s[1][0], s[1][1]),)
    )


def in_line(a: tuple[Point, Point], b: tuple[Point, Point], tol: float) -> bool:
    """Do the two segments lie on one straight line (both ends of each within ``tol`` of
    the other's line), so that drawn they read as one line?"""

    def off(s: tuple[Point, Point], c: Point) -> float:
        (x0, y0), (x1, y1) = s
        length = math.hypot(x1 - x0, y1 - y0)
        return math.inf if length < _EPS else abs(_side(x0, y0, x1, y1, c[0], c[1])) / length

    return max(off(a, b[0]), off(a, b[1])) < tol and max(off(b, a[0]), off(b, a[1])) < tol


class Grid:
    """Axis-aligned rectangles in a spatial hash: which of them does a rectangle overlap?"""

    def __init__(self, clip: Rect | None = None) -> None:
        self.cells: dict[tuple[int, int], list[int]] = {}
        self.rects: list[Rect] = []
        self.clip = clip

    def _keys(self, r: Rect) -> list[tuple[int, int]]:
        x0, y0, x1, y1 = r
        if self.clip is not None:  # only the cells near the view: a box may be huge
            c = self.clip
            x0, y0, x1, y1 = max(x0, c[0]), max(y0, c[1]), min(x1, c[2]), min(y1, c[3])
            if x1 < x0 or y1 < y0:
                return []
        i0, i1, j0, j1 = int(x0 // CELL), int(x1 // CELL), int(y0 // CELL), int(y1 // CELL)
        return [(i, j) for i in range(i0, i1 + 1) for j in range(j0, j1 + 1)]

    def add(self, r: Rect) -> None:
        k = len(self.rects)
        self.rects.append(r)
        for key in self._keys(r):
            self.cells.setdefault(key, []).append(k)

    def hits(self, r: Rect) -> set[int]:
        """Indices of the stored rectangles whose interior meets ``r``'s."""
        x0, y0, x1, y1 = r
        out: set[int] = set()
        rects, cells = self.rects, self.cells
        for key in self._keys(r):
            for k in cells.get(key, ()):
                a0, b0, a1, b1 = rects[k]
                if min(x1, a1) > max(x0, a0) and min(y1, b1) > max(y0, b0):
                    out.add(k)
        return out
