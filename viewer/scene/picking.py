"""Picking (no Qt): the instance under the mouse, from the GT and detection outlines."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from viewer.scene.items import DrawItem, Ref, bboxes


class PickIndex:
    """GT/det outlines with their bounding boxes and areas, for picking with the mouse."""

    def __init__(self, items: Sequence[DrawItem]) -> None:
        self.items = [
            it
            for it in items
            if it.ref is not None and it.shape == "polygon" and it.layer in ("gt", "det")
        ]
        self.boxes = bboxes([it.coords for it in self.items])
        self.areas = (self.boxes[:, 2] - self.boxes[:, 0]) * (self.boxes[:, 3] - self.boxes[:, 1])

    def pick(self, x: float, y: float, layers: Iterable[str]) -> Ref | None:
        """The instance under (x, y): the smallest visible GT/det polygon containing it."""
        if not self.items:
            return None
        visible = set(layers)
        b = self.boxes
        near = np.flatnonzero((b[:, 0] <= x) & (x <= b[:, 2]) & (b[:, 1] <= y) & (y <= b[:, 3]))
        for k in near[np.argsort(self.areas[near], kind="stable")]:
            it = self.items[int(k)]
            if it.layer in visible and _inside(it.coords, x, y):
                return it.ref
        return None


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
