"""Pure-Python polygon geometry: word frames, arcs, areas, clipping and IoU."""

from __future__ import annotations

import math
from dataclasses import dataclass

from .config import FPt, Poly


def rnd(v: float) -> int:
    """Round half up (independent of banker's rounding)."""
    return math.floor(v + 0.5)


@dataclass(frozen=True)
class Frame:
    """A word box: centre, size and angle (degrees, counter-clockwise)."""

    cx: float
    cy: float
    w: float
    h: float
    angle: float = 0.0

    def point(self, u: float, v: float) -> FPt:
        """Image point at relative position (u, v) in [0, 1] of the box."""
        lx, ly = (u - 0.5) * self.w, (v - 0.5) * self.h
        a = math.radians(self.angle)
        c, s = math.cos(a), math.sin(a)
        return self.cx + lx * c + ly * s, self.cy - lx * s + ly * c

    def quad(self, u0: float = 0, u1: float = 1, v0: float = 0, v1: float = 1) -> Poly:
        """Integer TL, TR, BR, BL corners of a sub-box (clockwise)."""
        pts = [self.point(u0, v0), self.point(u1, v0)]
        pts += [self.point(u1, v1), self.point(u0, v1)]
        return [(rnd(x), rnd(y)) for x, y in pts]


def box_frame(x: int, y: int, w: int, h: int) -> Frame:
    return Frame(x + w / 2, y + h / 2, w, h)


@dataclass(frozen=True)
class Arc:
    """Text along a circular arc; angles in degrees from 12 o'clock."""

    cx: float
    cy: float
    r: float
    h: float
    a0: float
    a1: float

    def point(self, t: float, v: float) -> FPt:
        phi = math.radians(self.a0 + t * (self.a1 - self.a0))
        rho = self.r + self.h / 2 - v * self.h
        return self.cx + rho * math.sin(phi), self.cy - rho * math.cos(phi)

    def polygon(self, k: int = 7) -> Poly:
        """Top edge left->right, bottom edge right->left (2k points)."""
        ts = [i / (k - 1) for i in range(k)]
        pts = [self.point(t, 0) for t in ts] + [self.point(t, 1) for t in ts[::-1]]
        return [(rnd(x), rnd(y)) for x, y in pts]


def signed_area(poly: list[FPt] | Poly) -> float:
    """Shoelace area; > 0 means clockwise on screen (y axis down)."""
    n = len(poly)
    s = sum(poly[i][0] * poly[(i + 1) % n][1] - poly[(i + 1) % n][0] * poly[i][1] for i in range(n))
    return s / 2


def convex_parts(poly: Poly) -> list[Poly]:
    """Quads are convex; a 2k-point band polygon splits into k-1 quads."""
    if len(poly) == 4:
        return [poly]
    k = len(poly) // 2
    top, bottom = poly[:k], poly[k:][::-1]
    return [[top[i], top[i + 1], bottom[i + 1], bottom[i]] for i in range(k - 1)]


def _cut(p: FPt, q: FPt, a: FPt, b: FPt) -> FPt:
    dx, dy = q[0] - p[0], q[1] - p[1]
    ex, ey = b[0] - a[0], b[1] - a[1]
    t = (ex * (p[1] - a[1]) - ey * (p[0] - a[0])) / (ey * dx - ex * dy)
    return p[0] + t * dx, p[1] + t * dy


def clip_convex(subject: list[FPt], clipper: list[FPt]) -> list[FPt]:
    """Sutherland-Hodgman clipping of subject by a convex clockwise polygon."""
    out = list(subject)
    for i, a in enumerate(clipper):
        b = clipper[(i + 1) % len(clipper)]

        def inside(p: FPt, a: FPt = a, b: FPt = b) -> bool:
            return (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]) >= 0

        src, out = out, []
        for j, p in enumerate(src):
            q = src[(j + 1) % len(src)]
            if inside(q):
                if not inside(p):
                    out.append(_cut(p, q, a, b))
                out.append(q)
            elif inside(p):
                out.append(_cut(p, q, a, b))
        if not out:
            return []
    return out


def inter_area(a: Poly, b: Poly) -> float:
    total = 0.0
    for pa in convex_parts(a):
        for pb in convex_parts(b):
            piece = clip_convex([(float(x), float(y)) for x, y in pa], pb)
            total += abs(signed_area(piece)) if len(piece) > 2 else 0.0
    return total


def iou(a: Poly, b: Poly) -> float:
    i = inter_area(a, b)
    return i / (abs(signed_area(a)) + abs(signed_area(b)) - i)


def bbox_quad(polys: list[Poly], pad: int = 0) -> Poly:
    xs = [x for p in polys for x, _ in p]
    ys = [y for p in polys for _, y in p]
    x0, y0, x1, y1 = min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
