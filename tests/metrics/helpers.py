"""Hand-made samples for the worked examples of the spec."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from metrics.model import BoxType, Instance, Sample


def quad(
    coords: str, text: str | None = None, line: int = 1, conf: float | None = None
) -> Instance:
    """Instance from 'x1,y1,...' (4 points = QUAD, more = POLY)."""
    v = np.array([float(c) for c in coords.split(",")], dtype=np.float64).reshape(-1, 2)
    kind = BoxType.QUAD if len(v) == 4 else BoxType.POLY
    return Instance(
        points=v,
        box_type=kind,
        text=text,
        confidence=conf,
        dont_care=text == "###",
        line=line,
        integer=all(float(c).is_integer() for c in coords.split(",")),
    )


def sample(gt: list[Instance], det: list[Instance], lines: list[Instance] | None = None) -> Sample:
    return Sample(
        id="img_1",
        gt=tuple(gt),
        det=tuple(det),
        gt_source="gt:gt_img_1.txt",
        det_source="det:res_img_1.txt",
        gt_lines=None if lines is None else tuple(lines),
    )


def gts(*items: tuple[str, str]) -> list[Instance]:
    return [quad(c, t, n) for n, (c, t) in enumerate(items, start=1)]


def dets(*coords: str) -> list[Instance]:
    return [quad(c, None, n) for n, c in enumerate(coords, start=1)]


@st.composite
def convex_quads(draw: st.DrawFn) -> list[tuple[int, int]]:
    """A strictly convex int quad: a box, or one vertex strictly inside each side of a box."""
    x0, y0 = draw(st.integers(-6, 4)), draw(st.integers(-6, 4))
    x1, y1 = x0 + draw(st.integers(2, 6)), y0 + draw(st.integers(2, 6))
    if draw(st.booleans()):
        q = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    else:
        a, c = draw(st.integers(x0 + 1, x1 - 1)), draw(st.integers(x0 + 1, x1 - 1))
        b, d = draw(st.integers(y0 + 1, y1 - 1)), draw(st.integers(y0 + 1, y1 - 1))
        q = [(a, y0), (x1, b), (c, y1), (x0, d)]
    return q[::-1] if draw(st.booleans()) else q
