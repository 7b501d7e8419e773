"""Attributes of a box that analysis groups by: size, shape, orientation, text.

Computed from the points as written (no metric's polygon convention): the minimum rotated
rectangle gives the box's ``height`` (its shorter side, in pixels), ``width`` (longer side),
``aspect`` (width / height) and ``angle`` (of the longer side, degrees in (-90, 90], 0 =
horizontal, image y pointing down). ``vertical`` is a box whose longer side lies within
30° of vertical and whose aspect is at least 1.5 (a column of text); ``shape`` is ``quad``
for 4 points, ``polygon`` for more (curved text) and ``degenerate`` below 3;
``text_length`` the number of characters of the transcription (None without one).
Attributes a reader attaches to an instance (``Instance.attrs``: script, language,
legibility, ...) are passed through as they are.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np
import shapely

from metrics.core.jsonvalue import JSONObject
from metrics.core.model import Instance

VERTICAL_ANGLE = 60.0
VERTICAL_ASPECT = 1.5


def _rect(points: np.ndarray) -> tuple[float, float, float]:
    """(long side, short side, angle of the long side) of the minimum rotated rectangle."""
    if len(points) < 3:
        return 0.0, 0.0, 0.0
    rect = shapely.minimum_rotated_rectangle(shapely.multipoints(points))
    if rect.geom_type != "Polygon":
        xs, ys = points[:, 0], points[:, 1]
        return float(max(np.ptp(xs), np.ptp(ys))), 0.0, 0.0
    c = np.asarray(rect.exterior.coords)[:4]
    e1, e2 = c[1] - c[0], c[2] - c[1]
    l1, l2 = float(np.hypot(*e1)), float(np.hypot(*e2))
    long_edge = e1 if l1 >= l2 else e2
    angle = math.degrees(math.atan2(long_edge[1], long_edge[0]))
    if angle <= -90.0:
        angle += 180.0
    elif angle > 90.0:
        angle -= 180.0
    return max(l1, l2), min(l1, l2), angle


def attributes(inst: Instance) -> JSONObject:
    """Every attribute of one box (see the module docstring)."""
    width, height, angle = _rect(np.asarray(inst.points, dtype=np.float64))
    n = len(inst.points)
    aspect = width / height if height > 0 else math.inf
    extra = inst.attrs
    out: dict[str, Any] = {
        "height": height,
        "width": width,
        "aspect": aspect,
        "angle": angle,
        "vertical": abs(angle) >= VERTICAL_ANGLE and aspect >= VERTICAL_ASPECT,
        "shape": "quad" if n == 4 else ("polygon" if n > 4 else "degenerate"),
        "text_length": None if inst.text is None or inst.dont_care else len(inst.text),
    }
    if isinstance(extra, Mapping):
        out.update({str(k): v for k, v in extra.items()})
    return out
