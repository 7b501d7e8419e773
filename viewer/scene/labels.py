"""Label placement on screen: each label belongs visibly to its own instance (no Qt here).

Labels keep their screen size at any zoom, so where they fit depends on the zoom: the painter
calls ``place_labels`` with everything in screen pixels (image coordinates times the scale).

The rule (issue 28): a label touches its own instance's box, or is joined to it by a leader
line, and covers neither another label nor another instance's box (``obstacles``: every
instance in view; ``owners`` names, per label, the obstacles that are its own). Each label is
tried at the corners and sides of its box, then 1.2 and 2.4 label heights further out with a
leader line back to the box; the first free spot wins. A box that encloses the instance (the
detection merging it, the GT a matched detection fits) is stepped over: the label sits just
outside it, still aligned with its own word. A label with no free spot is marked ``crowded``:
the painter leaves it out and counts it ("N labels not shown ... zoom in"); hover, selection
or zooming in shows it (``place_extra``, which never moves the labels already placed).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from viewer.scene.label_geometry import (
    Grid,
    Point,
    area,
    box_nearest,
    hug_spots,
    in_line,
    leader_point,
    leader_span,
    nearest,
    rect_meets_polygon,
    segment_crosses_polygon,
    segment_distance,
)

FloatArray = npt.NDArray[np.float64]
Rect = tuple[float, float, float, float]
Shape = tuple[list[Point], bool, Rect | None]  # ring, fills its box, the box if upright
Segment = tuple[Point, Point]

GAP = 2.0  # between a label and the box it touches, screen pixels
CLEAR = 1.0  # a label keeps this far from other instances and labels
TOUCH = GAP + 1.5  # a label this close to its own polygon touches it (no leader line)
ENCLOSING = 0.9  # a box holding this share of an instance's box encloses it
APART = 3.0  # a leader's end this clear of other words, its line of other leaders


@dataclass(frozen=True, slots=True)
class Placed:
    """A label's box (top-left x, y, width, height) in screen pixels; ``leader`` is the point
    of its instance's box a leader line goes to (None: the label touches its box)."""

    x: float
    y: float
    w: float
    h: float
    leader: tuple[float, float] | None = None
    crowded: bool = False  # no free spot: it would cover another label, instance or the edge


def _enclosers(box: Rect, grid: Grid, own: set[int]) -> set[int]:
    """The boxes that enclose this one (a merge detection around its GT, a GT around its
    matched detection): labels step over those, and leader lines may cross them."""
    x0, y0, x1, y1 = box
    area = max((x1 - x0) * (y1 - y0), 1e-9)
    out = set()
    for k in grid.hits(box) - own:
        a0, b0, a1, b1 = grid.rects[k]
        inter = max(min(x1, a1) - max(x0, a0), 0.0) * max(min(y1, b1) - max(y0, b0), 0.0)
        if inter >= ENCLOSING * area:
            out.add(k)
    return out


def _enclosing(box: Rect, grid: Grid, own: set[int]) -> Rect:
    """The box grown to the boxes that enclose it."""
    out = list(box)
    for k in _enclosers(box, grid, own):
        a0, b0, a1, b1 = grid.rects[k]
        out = [min(out[0], a0), min(out[1], b0), max(out[2], a1), max(out[3], b1)]
    return (out[0], out[1], out[2], out[3])


def _area(r: Rect) -> float:
    return max(r[2] - r[0], 0.0) * max(r[3] - r[1], 0.0)


def _same(a: Rect, b: Rect) -> bool:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]), abs(a[2] - b[2]), abs(a[3] - b[3])) < 0.5


def _box_shape(r: Rect) -> Shape:
    """An upright box as a shape."""
    return [(r[0], r[1]), (r[2], r[1]), (r[2], r[3]), (r[0], r[3])], True, r


def _shape(ring: list[Point], r: Rect) -> Shape:
    """A ring as a shape: whether it fills its box ``r`` (the box stands for it in the test
    of what a label covers), and the box when the ring is that upright box."""
    if len(ring) < 3:
        return ring, True, None
    boxy = area(ring) >= 0.98 * (r[2] - r[0]) * (r[3] - r[1])
    upright = len(ring) == 4 and len({p[0] for p in ring}) <= 2 and len({p[1] for p in ring}) <= 2
    return ring, boxy, r if upright else None


def _candidates(
    box: Rect, outer: Rect, w: float, h: float
) -> list[tuple[float, float, tuple[float, float] | None]]:
    """Top-left corners around an instance box (x0, y0, x1, y1): touching it first (six
    spots, aligned with the box, outside ``outer``: the box and what encloses it), then 1.2
    and 2.4 label heights away with a leader point on the box (six each)."""
    x0, y0, x1, y1 = box
    ox0, oy0, ox1, oy1 = outer
    near = [
        (x0, oy0 - h - GAP),  # above, left-aligned
        (x1 - w, oy1 + GAP),  # below, right-aligned
        (x1 - w, oy0 - h - GAP),  # above, right-aligned
        (x0, oy1 + GAP),  # below, left-aligned
        (ox1 + GAP, y0),  # right
        (ox0 - w - GAP, y1 - h),  # left
    ]
    out: list[tuple[float, float, tuple[float, float] | None]] = [(x, y, None) for x, y in near]
    for step in (1.2, 2.4):
        d = step * h
        for x, y in near:
            dx = 0.0 if ox0 - w < x < ox1 else (d if x >= ox1 else -d)
            dy = -d if y < oy0 else (d if y >= oy1 else 0.0)
            cx, cy = x + dx, y + dy
            px = min(max(cx + w / 2, x0), x1)
            py = min(max(cy + h / 2, y0), y1)
            out.append((cx, cy, (px, py)))
    return out


def _inside(r: Rect, bounds: Rect | None) -> bool:
    return bounds is None or (
        r[0] >= bounds[0] and r[1] >= bounds[1] and r[2] <= bounds[2] and r[3] <= bounds[3]
    )


class Placer:
    """Places labels one after the other against the instances and the labels placed before.

    ``shapes`` (optional, aligned with ``obstacles``) are the instances' polygons, in the
    obstacles' coordinates divided by ``scale`` (image coordinates: scaled when first
    needed, for the few instances near a label); without them the boxes stand for them."""

    def __init__(
        self,
        obstacles: FloatArray,
        bounds: Rect | None,
        shapes: Sequence[FloatArray] | None = None,
        scale: float = 1.0,
    ) -> None:
        rects = np.asarray(obstacles, dtype=float).reshape(-1, 4)
        clip = (
            None
            if bounds is None
            else (bounds[0] - 400, bounds[1] - 400, bounds[2] + 400, bounds[3] + 400)
        )
        self.words, self.labels, self.leaders = Grid(clip), Grid(clip), Grid(clip)
        self.lines: list[Segment] = []  # the leaders' lines, aligned with ``leaders``
        for r in rects.tolist():
            self.words.add((r[0], r[1], r[2], r[3]))
        self.bounds = bounds
        self.shapes, self.scale = shapes, scale
        self._polys: dict[int, Shape] = {}

    def fork(self) -> Placer:
        """A placer with the same instances and a copy of the labels placed so far."""
        other = Placer.__new__(Placer)
        other.words, other.bounds = self.words, self.bounds
        other.shapes, other.scale, other._polys = self.shapes, self.scale, self._polys
        other.labels, other.leaders = Grid(self.labels.clip), Grid(self.labels.clip)
        for r in self.labels.rects:
            other.labels.add(r)
        for r in self.leaders.rects:
            other.leaders.add(r)
        other.lines = list(self.lines)
        return other

    def polygon(self, k: int) -> Shape:
        """Instance ``k``'s shape in the placer's coordinates."""
        hit = self._polys.get(k)
        if hit is None:
            r = self.words.rects[k]
            if self.shapes is None:
                hit = _box_shape(r)
            else:
                xy = np.asarray(self.shapes[k], dtype=float).reshape(-1, 2) * self.scale
                hit = _shape([(float(x), float(y)) for x, y in xy.tolist()], r)
            self._polys[k] = hit
        return hit

    def _covers(self, r: Rect, k: int) -> bool:
        ring, boxy, _ = self.polygon(k)
        return boxy or rect_meets_polygon(r, ring)

    def _cost(self, r: Rect, own: set[int]) -> tuple[int, int, int]:
        """(labels, the edge, whether instances) that a spot covers: (0, 0, 0) is free."""
        c = (r[0] - CLEAR, r[1] - CLEAR, r[2] + CLEAR, r[3] + CLEAR)
        return (
            len(self.labels.hits(c)) + len(self.leaders.hits(r)),  # no label over a leader
            int(not _inside(r, self.bounds)),
            int(any(self._covers(c, k) for k in self.words.hits(c) - own)),  # one is enough
        )

    def _targets(self, box: Rect, own: set[int]) -> list[Shape]:
        """What a label touches or points its leader at: its own instances' polygons whose
        box is the label's box (an instance's label), else its own instances and its box
        (a TIoU region's, a match link's, a multiline pair's label)."""
        mine = sorted(own)
        exact = [k for k in mine if _same(self.words.rects[k], box)]
        if exact:
            return [self.polygon(k) for k in exact]
        return [self.polygon(k) for k in mine] + [_box_shape(box)]

    def _leader_cost(self, r: Rect, leader: tuple[float, float], skip: set[int]) -> int:
        """Labels over the leader line, instances (but its own and those enclosing its box)
        it runs through, and leaders it meets, runs along or lines up with (two leaders on
        one line read as one, through both words)."""
        span = leader_span(r, leader)
        line = (_start(r, leader), leader)
        crossed = sum(
            segment_crosses_polygon(line[0], leader, self.polygon(k)[0])
            for k in self.words.hits(span) - skip
        )
        far = 4 * (r[3] - r[1])  # leaders in line closer than 4 label heights read as one
        x0, y0, x1, y1 = span
        near = self.leaders.hits((x0 - far, y0 - far, x1 + far, y1 + far))
        clash = sum(
            segment_distance(line, self.lines[k])
            < (far if in_line(line, self.lines[k], APART) else APART)
            for k in near
        )
        return len(self.labels.hits(span)) + crossed + clash

    def place(self, box: Rect, w: float, h: float, own: set[int], *, add: bool = True) -> Placed:
        """The first free spot touching its own instance's polygon and no other instance
        (but its partners: what encloses it or lies mostly on it); else the first free near
        spot joined to it by a leader line that crosses no other instance; else a free
        spot touching its own and another; else a free spot further out. Failing all, the
        one covering the fewest instances, then labels, marked ``crowded``. Only a free
        spot is kept for later labels (unless ``add`` is False)."""
        outer = _enclosing(box, self.words, own)
        skip = own | _enclosers(box, self.words, own)
        partners = skip | self._lying_on(box, own)
        targets = self._targets(box, own)
        spots, touching = self._spots(box, outer, w, h, targets)
        best: tuple[tuple[int, int], float, float, tuple[float, float] | None] | None = None
        second: list[Placed] = []  # free near spots: joined by a leader, then touching two
        for n, (x, y) in enumerate(spots):
            if n == touching and second:
                break
            r = (x, y, x + w, y + h)
            on_labels, off, on_words = self._cost(r, own)
            cost = (on_words + off, on_labels)
            if best is not None and cost >= best[0]:
                continue  # no better than the best so far: its leader does not matter
            leader = self._leader(r, targets, partners)
            if leader is not None:
                cost = (cost[0], cost[1] + self._leader_cost(r, leader, skip))
            if cost != (0, 0):
                if best is None or cost < best[0]:
                    best = (cost, x, y, leader)
                continue
            spot = Placed(x, y, w, h, leader)
            if n >= touching or (leader is None and not self._touches(r, partners)):
                return self._keep(spot, add)
            second.append(spot)
        if second:  # a leader line says whose a label is; touching two words does not
            return self._keep(min(second, key=lambda p: p.leader is None), add)
        assert best is not None
        x, y = self._within(best[1], best[2], w, h)
        return Placed(x, y, w, h, best[3], crowded=True)

    def _leader(self, r: Rect, targets: list[Shape], partners: set[int]) -> Point | None:
        """The point of the label's own polygon (or box) nearest it, where its leader line
        goes, clear of the other words' outlines (``leader_point``); None when the label
        touches its own."""
        found = [nearest(r, ring) if up is None else box_nearest(r, up) for ring, _, up in targets]
        k = min(range(len(found)), key=lambda n: found[n][0])
        if found[k][0] <= TOUCH:
            return None
        px, py = found[k][1]
        m = APART
        others = self.words.hits((px - m, py - m, px + m, py + m)) - partners
        rings = [self.polygon(j)[0] for j in sorted(others)]
        return leader_point(r, targets[k][0], found[k], rings, APART)[1]

    def _lying_on(self, box: Rect, own: set[int]) -> set[int]:
        """The instances lying mostly on this box (its matched detection, its GT): a label
        touching them as well as its own is still plainly its own."""
        out = set()
        for k in self.words.hits(box) - own:
            a = self.words.rects[k]
            inter = max(min(box[2], a[2]) - max(box[0], a[0]), 0.0) * max(
                min(box[3], a[3]) - max(box[1], a[1]), 0.0
            )
            if inter >= 0.5 * min(_area(a), _area(box)):
                out.add(k)
        return out

    def _touches(self, r: Rect, partners: set[int]) -> bool:
        """Does the spot touch an instance other than its own and its partners?"""
        m = TOUCH + 0.5
        c = (r[0] - m, r[1] - m, r[2] + m, r[3] + m)
        return any(self._covers(c, k) for k in self.words.hits(c) - partners)

    def _keep(self, p: Placed, add: bool) -> Placed:
        """A free spot, kept (with its leader line) for the labels placed after it."""
        if add:
            r = (p.x, p.y, p.x + p.w, p.y + p.h)
            self.labels.add(r)
            if p.leader is not None:
                self.leaders.add(leader_span(r, p.leader))
                self.lines.append((_start(r, p.leader), p.leader))
        return p

    def _spots(
        self, box: Rect, outer: Rect, w: float, h: float, targets: list[Shape]
    ) -> tuple[list[tuple[float, float]], int]:
        """The box's six touching spots, then (for a rotated or curved instance) spots
        hugging its polygon, then the box's spots further out (with a leader line); and how
        many are near (the first two groups)."""
        spots = [(x, y) for x, y, _ in _candidates(box, outer, w, h)]
        hugs = [xy for ring, _, up in targets if up is None for xy in hug_spots(ring, w, h, GAP)]
        return spots[:6] + hugs + spots[6:], 6 + len(hugs)

    def _within(self, x: float, y: float, w: float, h: float) -> tuple[float, float]:
        """A spot moved inside the bounds (as far as the label fits), never cut at an edge."""
        b = self.bounds
        if b is None:
            return x, y
        return min(max(x, b[0]), max(b[2] - w, b[0])), min(max(y, b[1]), max(b[3] - h, b[1]))


def _start(r: Rect, leader: Point) -> Point:
    """Where the painter starts a leader line: the label's point nearest its end."""
    return min(max(leader[0], r[0]), r[2]), min(max(leader[1], r[1]), r[3])


def _default_owners(boxes: FloatArray, rects: FloatArray) -> list[set[int]]:
    """Without ``owners``: the obstacles equal to a label's box are its own."""
    if not len(rects):
        return [set() for _ in range(len(boxes))]
    return [set(np.flatnonzero(np.all(np.abs(rects - b) < 1e-9, axis=1)).tolist()) for b in boxes]


def place_labels(
    boxes: FloatArray,
    sizes: FloatArray,
    obstacles: FloatArray,
    bounds: Rect | None = None,
    owners: Sequence[Sequence[int]] | None = None,
    shapes: Sequence[FloatArray] | None = None,
) -> list[Placed]:
    """Positions of labels of the given ``sizes`` (n, 2: width, height) for instances with
    screen ``boxes`` (n, 4), avoiding each other and the ``obstacles`` (m, 4: the instances'
    boxes; ``shapes``: their polygons, m rings, when they are not upright boxes) but their
    own (``owners[k]``: indices into ``obstacles``), inside ``bounds`` (the visible screen
    area). Labels are placed in the order given."""
    rects = np.asarray(obstacles, dtype=float).reshape(-1, 4)
    box_arr = np.asarray(boxes, dtype=float).reshape(-1, 4)
    own = [set(o) for o in owners] if owners is not None else _default_owners(box_arr, rects)
    placer = Placer(rects, bounds, shapes)
    size_list = np.asarray(sizes, float).reshape(-1, 2).tolist()
    return [
        placer.place((b[0], b[1], b[2], b[3]), float(w), float(h), mine)
        for b, (w, h), mine in zip(box_arr.tolist(), size_list, own, strict=True)
    ]
