"""Picking (no Qt): the instance under the mouse, from the GT and detection outlines."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from metrics.core.results import SampleResult
from viewer.scene.items import DrawItem, Ref, bboxes


class PickIndex:
    """GT/det outlines with their bounding boxes and areas, for picking with the mouse."""

    def __init__(self, items: Sequence[DrawItem], boxes: np.ndarray | None = None) -> None:
        """``boxes``: the items' bounding boxes when already known (one row per item)."""
        keep = [
            k
            for k, it in enumerate(items)
            if it.ref is not None and it.shape == "polygon" and it.layer in ("gt", "det")
        ]
        self.items = [items[k] for k in keep]
        if boxes is None or len(boxes) != len(items):
            self.boxes = bboxes([it.coords for it in self.items])
        else:
            self.boxes = np.asarray(boxes, dtype=float)[keep].reshape(-1, 4)
        self.areas = (self.boxes[:, 2] - self.boxes[:, 0]) * (self.boxes[:, 3] - self.boxes[:, 1])

    def pick(self, x: float, y: float, layers: Iterable[str]) -> Ref | None:
        """The instance under (x, y): the smallest visible GT/det polygon containing it."""
        found = self.pick_all(x, y, layers)
        return found[0] if found else None

    def pick_all(self, x: float, y: float, layers: Iterable[str]) -> list[Ref]:
        """Every visible GT/det polygon containing (x, y), smallest first (clicking again
        where instances overlap goes through them in this order)."""
        if not self.items:
            return []
        visible = set(layers)
        b = self.boxes
        near = np.flatnonzero((b[:, 0] <= x) & (x <= b[:, 2]) & (b[:, 1] <= y) & (y <= b[:, 3]))
        out: list[Ref] = []
        for k in near[np.argsort(self.areas[near], kind="stable")]:
            it = self.items[int(k)]
            if it.layer in visible and it.ref not in out and _inside(it.coords, x, y):
                assert it.ref is not None
                out.append(it.ref)
        return out

    def bounds_of(self, ref: Ref) -> tuple[float, float, float, float] | None:
        """Bounding box (x0, y0, x1, y1) of an instance's outline, or None."""
        for it, box in zip(self.items, self.boxes, strict=True):
            if it.ref == ref:
                return float(box[0]), float(box[1]), float(box[2]), float(box[3])
        return None

    def bounds_with_partners(
        self, ref: Ref, also: Iterable[Ref] = ()
    ) -> tuple[float, float, float, float] | None:
        """Bounding box of an instance, the instances drawn as related to it (its match
        partners) and ``also`` (its near miss: ``near_miss_of``), or None."""
        box = self.bounds_of(ref)
        related = {
            r
            for it in self.items
            if it.ref == ref and it.layer in ("gt", "det")
            for r in it.related
        }
        for other in (related | set(also)) - {ref}:
            more = self.bounds_of(other)
            if box is not None and more is not None:
                box = (
                    min(box[0], more[0]),
                    min(box[1], more[1]),
                    max(box[2], more[2]),
                    max(box[3], more[3]),
                )
        return box


def near_miss_of(result: SampleResult | None, ref: Ref) -> Ref | None:
    """The instance of the other side that the engine names as ``ref``'s best near miss
    (the one the inspector links), or None."""
    if result is None:
        return None
    side, k = ref
    own = result.gt if side == "gt" else result.det
    nm = own[k].near_miss if 0 <= k < len(own) else None
    return None if nm is None else ("det" if side == "gt" else "gt", nm.partner)


def hit_test(items: Sequence[DrawItem], x: float, y: float, layers: Iterable[str]) -> Ref | None:
    """The instance under (x, y): the smallest visible GT/det polygon containing it."""
    return PickIndex(items).pick(x, y, layers)


def _inside(poly: np.ndarray, x: float, y: float) -> bool:
    """Even-odd ray casting, for picking with the mouse."""
    px, py = poly[:, 0], poly[:, 1]
    qx, qy = np.roll(px, 1), np.roll(py, 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        cross = ((py > y) != (qy > y)) & (x < (qx - px) * (y - py) / (qy - py) + px)
    return bool(np.count_nonzero(cross) % 2)
