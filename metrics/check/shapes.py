"""Findings on single boxes: float coordinates, counter-clockwise quads, bow-ties and other
invalid rings, zero area, too few points, coordinates swallowed into the transcription,
care GTs without text."""

from __future__ import annotations

import re
from collections.abc import Iterator

import numpy as np
import shapely

from metrics.check.findings import Finding, Level, at, instances
from metrics.core.model import BoxType, FloatArray, Instance, Sample
from metrics.shapes.geometry import polygons

_NUMBER = re.compile(r"\s*[-+]?(?:\d+\.?\d*|\.\d+)\s*\Z")
Point = tuple[float, float]
# (level, code, message, points to mark)
Raw = tuple[Level, str, str, tuple[Point, ...]]


def signed_area(points: FloatArray) -> float:
    """Shoelace area; positive = clockwise on screen (y down), as the RRC scripts want."""
    x, y = points[:, 0], points[:, 1]
    return float(0.5 * np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y))


def crossings(points: FloatArray) -> list[Point]:
    """Points where non-adjacent edges of the ring cross (a bow-tie's centre)."""
    n = len(points)
    a, b = points, np.roll(points, -1, axis=0)
    out = []
    for i in range(n):
        for j in range(i + 2, n - (1 if i == 0 else 0)):
            hit = _cross(a[i], b[i], a[j], b[j])
            if hit is not None:
                out.append(hit)
    return out


def _cross(p: FloatArray, p2: FloatArray, q: FloatArray, q2: FloatArray) -> Point | None:
    r, s = p2 - p, q2 - q
    den = float(r[0] * s[1] - r[1] * s[0])
    if den == 0:
        return None
    d = q - p
    t = float(d[0] * s[1] - d[1] * s[0]) / den
    u = float(d[0] * r[1] - d[1] * r[0]) / den
    if 0 < t < 1 and 0 < u < 1:
        return (float(p[0] + t * r[0]), float(p[1] + t * r[1]))
    return None


def swallowed(inst: Instance) -> bool:
    """A QUAD whose transcription starts with a run of numbers: the x,y pairs of a longer
    polygon that a QUAD reader left in the text (at least two numbers followed by the real
    transcription, or four and more). A lone ``4,000`` stays a transcription."""
    if inst.box_type is not BoxType.QUAD or not inst.text or "," not in inst.text:
        return False
    fields = inst.text.split(",")
    lead = 0
    while lead < len(fields) and _NUMBER.match(fields[lead]):
        lead += 1
    return lead >= 4 or (lead >= 2 and lead < len(fields))


def _invalid(points: FloatArray, area: float, bad: bool) -> Iterator[Raw]:
    kind = f"{len(points)}-point polygon" if len(points) != 4 else "quad"
    cross = tuple(crossings(points)) if bad else ()
    if cross:
        lobes = "its lobes cancel to zero area" if area == 0 else "its shoelace area cancels lobes"
        msg = f"self-intersecting {kind} (bow-tie, {len(cross)} crossing(s)): {lobes}"
        yield Level.WARNING, "bow_tie", msg + "; GEOS calls it invalid", cross
    elif area == 0:
        yield Level.WARNING, "zero_area", f"{kind} with zero area", ()
    elif bad:
        reason = shapely.is_valid_reason(shapely.Polygon(points))
        yield Level.WARNING, "invalid_ring", f"invalid {kind} ({reason})", ()


def _shape(inst: Instance, bad: bool) -> Iterator[Raw]:
    n = len(inst.points)
    if n < 3:
        yield (
            Level.WARNING,
            "few_points",
            f"{n}-point polygon: no area; scripts fail or drop it",
            (),
        )
        return
    if n == 3:
        yield Level.WARNING, "few_points", "3-point polygon: quad-only scripts refuse it", ()
    area = signed_area(inst.points)
    problems = list(_invalid(inst.points, area, bad))
    yield from problems
    if problems:
        return
    if inst.box_type is BoxType.QUAD and area < 0:
        msg = "counter-clockwise quad: the RRC scripts (ICDAR15 IoU, TIoU, TedEval) refuse it"
        yield Level.WARNING, "ccw_quad", msg, ()
    elif inst.box_type is BoxType.POLY and area > 0:
        msg = (
            "polygon in the ICDAR (clockwise) order: the curved TIoU script wants the reverse "
            "and refuses it (detlens reverses it with auto_orient)"
        )
        yield Level.INFO, "poly_order", msg, ()


def _text(side: str, inst: Instance) -> Iterator[Raw]:
    if swallowed(inst):
        yield (
            Level.ERROR,
            "swallowed_coords",
            f"transcription {(inst.text or '')[:40]!r} starts with a run of numbers: polygon "
            "coordinates read as text by a QUAD reader (read the file as POLY)",
            (),
        )
    if side == "gt" and not inst.dont_care and not (inst.text or "").strip():
        msg = "care GT without transcription: TedEval and CLEval divide by its length"
        yield Level.WARNING, "empty_care_text", msg, ()
    if not inst.integer:
        msg = (
            "non-integer coordinates: the official scripts accept integers only; detlens "
            "evaluates them as given (--floats refuse|round|truncate)"
        )
        yield Level.WARNING, "float_coords", msg, ()


def shape_findings(sample: Sample) -> list[Finding]:
    """Every single-box finding of one sample (GEOS validity computed in one pass)."""
    items = instances(sample)
    _, bad = polygons([inst.points for _, _, inst in items])
    out: list[Finding] = []
    for (side, k, inst), invalid in zip(items, bad, strict=True):
        for level, code, msg, pts in (*_shape(inst, bool(invalid)), *_text(side, inst)):
            out.append(at(level, code, msg, sample, side, k, inst, points=pts))
    return out
