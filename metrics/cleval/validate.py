"""CLEval input validation (spec 0.3-0.4, 5.6, 5.9, 6.1) for ``metrics.cleval.metric.validate``.

The runner validates sample by sample, so the usual clean sample is recognised with a few
C-level passes over its instances and the legacy orientation test runs as one array
operation over both sides; anything suspicious goes through the exact per-instance rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import repeat
from operator import attrgetter, is_

import numpy as np

from metrics.core.floats import REFUSED
from metrics.core.model import BoxType, FloatArray, Instance, Problem, Sample, Severity
from metrics.shapes.order import clockwise_violations

_POINTS, _BOX_TYPE, _SHAPE = attrgetter("points"), attrgetter("box_type"), attrgetter("shape")
_INTEGER, _TEXT, _DONT_CARE = attrgetter("integer"), attrgetter("text"), attrgetter("dont_care")


def has_poly(items: Sequence[Instance]) -> bool:
    """Any POLY box among ``items``."""
    return any(map(is_, map(_BOX_TYPE, items), repeat(BoxType.POLY)))


Sides = tuple[list[int], list[int]]  # GT and det indices


def batch_problems(
    samples: Sequence[Sample], box_type: str, allow_float: bool, orientation: bool, e2e: bool
) -> list[Problem]:
    """``sample_problems`` of every sample, in order; the legacy clockwise test of all the
    samples' QUAD boxes in one array operation."""
    sides = _anticlockwise_all(samples, box_type) if orientation else {}
    return [
        p
        for k, s in enumerate(samples)
        for p in sample_problems(s, box_type, allow_float, orientation, e2e, sides.get(k))
    ]


def _is_poly(sample: Sample, box_type: str) -> bool:
    return box_type == "POLY" if box_type != "auto" else has_poly((*sample.gt, *sample.det))


def _anticlockwise_all(samples: Sequence[Sample], box_type: str) -> dict[int, Sides]:
    """``_anticlockwise`` of the QUAD-mode samples whose QUAD boxes all have (4, 2) points
    (the others are left to ``sample_problems``), as one array operation."""
    owner: list[int] = []
    local: list[int] = []
    points: list[FloatArray] = []
    n_gt: dict[int, int] = {}
    for s, sample in enumerate(samples):
        if _is_poly(sample, box_type):
            continue
        items = (*sample.gt, *sample.det)
        quads = [k for k, t in enumerate(map(_BOX_TYPE, items)) if t is BoxType.QUAD]
        mine = [items[k].points for k in quads]
        if not set(map(_SHAPE, mine)) <= {(4, 2)}:
            continue
        n_gt[s] = len(sample.gt)
        owner.extend([s] * len(quads))
        local.extend(quads)
        points.extend(mine)
    out: dict[int, Sides] = {s: ([], []) for s in n_gt}
    if not points:
        return out
    bad = np.flatnonzero(_clockwise_sums(np.concatenate(points)) > 0).tolist()
    for m in bad:
        s, k = owner[m], local[m]
        gt, det = out[s]
        if k < n_gt[s]:
            gt.append(k)
        else:
            det.append(k - n_gt[s])
    return out


def _clockwise_sums(flat: FloatArray) -> FloatArray:
    """S = Σ (x' - x)(y' + y) of each quad of the (4 n, 2) points, summed in the order of
    ``np.sum(..., axis=1)`` (``clockwise_violations``' numbers)."""
    x0, y0, x1, y1, x2, y2, x3, y3 = np.asarray(flat, dtype=np.float64).reshape(-1, 8).T
    out: FloatArray = (
        (x1 - x0) * (y1 + y0)
        + (x2 - x1) * (y2 + y1)
        + (x3 - x2) * (y3 + y2)
        + (x0 - x3) * (y0 + y3)
    )
    return out


def sample_problems(
    sample: Sample,
    box_type: str,
    allow_float: bool,
    orientation: bool,
    e2e: bool,
    anticlockwise: Sides | None = None,
) -> list[Problem]:
    """Problems of one sample; ``orientation``: the legacy clockwise test (QUAD mode), whose
    result ``anticlockwise`` may already give."""
    poly = _is_poly(sample, box_type)
    suspect = _suspect(sample, allow_float, poly)
    out = _box_problems(sample, allow_float, poly) if suspect else []
    if orientation and not poly:
        bad_gt, bad_det = anticlockwise or _anticlockwise(sample.gt, sample.det)
        for side, source, items, bad in (
            ("GT", sample.gt_source, sample.gt, bad_gt),
            ("det", sample.det_source, sample.det, bad_det),
        ):
            out.extend(
                _problem(
                    Severity.ERROR,
                    source,
                    side,
                    items[k],
                    "points are not clockwise (image coordinates, y down); "
                    "set check_orientation=false to accept them",
                    sample,
                )
                for k in bad
            )
    if e2e:
        out.extend(
            _problem(
                Severity.ERROR,
                sample.det_source,
                "det",
                d,
                "end-to-end evaluation needs a transcription on every detection",
                sample,
            )
            for d in sample.det
            if d.text is None
        )
    return out


def _suspect(sample: Sample, allow_float: bool, poly: bool) -> bool:
    """False when ``_box_problems`` certainly finds nothing."""
    items = (*sample.gt, *sample.det)
    lengths = set(map(len, map(_POINTS, items)))
    if poly:
        care = [g for g in sample.gt if not g.dont_care]
        return bool(lengths and min(lengths) < 4) or not all(map(_TEXT, care))
    return not lengths <= {4} or not (allow_float or all(map(_INTEGER, items)))


def _anticlockwise(gt: Sequence[Instance], det: Sequence[Instance]) -> tuple[list[int], list[int]]:
    """``clockwise_violations`` of both sides in one array operation (same numbers)."""
    items = (*gt, *det)
    quads = [k for k, t in enumerate(map(_BOX_TYPE, items)) if t is BoxType.QUAD]
    if not quads:
        return [], []
    points = [items[k].points for k in quads]
    flat = _quad_points(points)
    if flat is None:  # not all (4, 2): the original test (it raises as the official code)
        return clockwise_violations(gt), clockwise_violations(det)
    n = len(gt)
    bad = [quads[m] for m in np.flatnonzero(_clockwise_sums(flat) > 0).tolist()]
    return [k for k in bad if k < n], [k - n for k in bad if k >= n]


def _quad_points(points: list[FloatArray]) -> FloatArray | None:
    """The (4 n, 2) concatenation of (4, 2) point arrays; None for any other shape."""
    if set(map(len, points)) != {4}:
        return None
    try:
        flat = np.concatenate(points)
    except ValueError:
        return None
    return flat if flat.shape == (4 * len(points), 2) else None


def _problem(
    sev: Severity, source: str | None, side: str, inst: Instance, msg: str, sample: Sample
) -> Problem:
    return Problem(sev, source or side, inst.line, msg, sample.id)


def _box_problems(sample: Sample, allow_float: bool, poly: bool) -> list[Problem]:
    out: list[Problem] = []
    for side, source, items in (
        ("GT", sample.gt_source, sample.gt),
        ("det", sample.det_source, sample.det),
    ):
        for inst in items:
            n = len(inst.points)
            if poly and n < 4:
                out.append(
                    _problem(
                        Severity.WARNING,
                        source,
                        side,
                        inst,
                        f"POLY box with {n} point(s): padded as the official CLEval "
                        "code does (degenerate polygon for 1-2 points)",
                        sample,
                    )
                )
            elif not poly and n != 4:
                out.append(
                    _problem(
                        Severity.ERROR,
                        source,
                        side,
                        inst,
                        f"box_type QUAD needs 4 points, got {n}",
                        sample,
                    )
                )
            elif not poly and not inst.integer and not allow_float:
                out.append(
                    _problem(
                        Severity.ERROR,
                        source,
                        side,
                        inst,
                        f"CLEval QUAD/LTRB {REFUSED}",
                        sample,
                    )
                )
            if poly and side == "GT" and not inst.dont_care and not inst.text:
                out.append(
                    _problem(
                        Severity.ERROR,
                        source,
                        side,
                        inst,
                        "POLY GT without transcription (the official code divides "
                        "by zero); it gets no character",
                        sample,
                    )
                )
    return out
