"""Findings across the boxes of one file: duplicates, mixed box types, boxes outside the
image."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import shapely

from metrics.check.findings import Finding, Level, at
from metrics.core.model import BoxType, FloatArray, Instance, Sample


def _key(points: FloatArray) -> tuple[tuple[float, float], ...]:
    """The same box whatever its first vertex and direction."""
    return tuple(sorted((float(x), float(y)) for x, y in points))


def duplicates(sample: Sample) -> Iterator[Finding]:
    """A box whose vertices repeat an earlier box of the same file."""
    for side, items in (("gt", sample.gt), ("det", sample.det)):
        seen: dict[tuple[tuple[float, float], ...], int] = {}
        for k, inst in enumerate(items):
            key = _key(inst.points)
            if key in seen:
                first = items[seen[key]]
                yield at(
                    Level.WARNING,
                    "duplicate",
                    f"same box as line {first.line}: "
                    + (
                        "one of them can only be missed"
                        if side == "gt"
                        else "the second is a false positive"
                    ),
                    sample,
                    side,
                    k,
                    inst,
                    regions=(inst.points,),
                )
            else:
                seen[key] = k


def mixed_types(sample: Sample) -> Iterator[Finding]:
    """LTRB next to QUAD/POLY lines in one file (a 4-number line next to 8-number ones is
    usually a broken line); quads next to polygons are common (Total-Text) and only noted."""
    for side, items, source in (
        ("gt", sample.gt, sample.gt_source),
        ("det", sample.det, sample.det_source),
    ):
        kinds = {i.box_type for i in items}
        if len(kinds) < 2:
            continue
        names = "/".join(sorted(k.value for k in kinds))
        counts = ", ".join(
            f"{sum(i.box_type is k for i in items)} {k.value}" for k in sorted(kinds)
        )
        if BoxType.LTRB in kinds:
            level, why = Level.WARNING, "the RRC scripts read one box type per run"
        else:
            level, why = Level.INFO, "quad-only metrics skip the polygons"
        first = next(j for j, i in enumerate(items) if i.box_type is not items[0].box_type)
        yield Finding(
            level,
            "mixed_types",
            f"{names} in one file ({counts}): {why}",
            source or sample.id,
            items[first].line,
            sample.id,
            side,
            first,
        )


def outside(sample: Sample, size: tuple[int, int]) -> Iterator[Finding]:
    """Boxes reaching outside the image (0..width, 0..height), with the part outside."""
    w, h = size
    frame = shapely.box(0, 0, w, h)
    for side, items in (("gt", sample.gt), ("det", sample.det)):
        for k, inst in enumerate(items):
            yield from _outside_one(sample, side, k, inst, frame, (w, h))


def _outside_one(
    sample: Sample,
    side: str,
    k: int,
    inst: Instance,
    frame: shapely.Geometry,
    size: tuple[int, int],
) -> Iterator[Finding]:
    p = inst.points
    w, h = size
    lo, hi = p.min(axis=0), p.max(axis=0)
    if lo[0] >= 0 and lo[1] >= 0 and hi[0] <= w and hi[1] <= h:
        return
    regions: tuple[FloatArray, ...] = ()
    share = 1.0
    if len(p) >= 3:
        poly = shapely.make_valid(shapely.Polygon(p))
        out = shapely.difference(poly, frame)
        area = float(shapely.area(poly))
        share = float(shapely.area(out)) / area if area > 0 else 1.0
        regions = tuple(np.asarray(g.exterior.coords)[:-1] for g in _polys(out))
    level = Level.ERROR if share >= 0.999 else Level.WARNING
    where = "entirely" if share >= 0.999 else f"{share:.0%} of it"
    yield at(
        level,
        "outside_image",
        f"box outside the {w}x{h} image ({where} outside; "
        f"x {lo[0]:g}..{hi[0]:g}, y {lo[1]:g}..{hi[1]:g})",
        sample,
        side,
        k,
        inst,
        regions=regions,
    )


def _polys(geom: shapely.Geometry) -> list[shapely.Polygon]:
    parts = shapely.get_parts(geom)
    return [g for g in parts if isinstance(g, shapely.Polygon) and not g.is_empty]
