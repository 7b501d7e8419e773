"""TedEval inputs (spec 4.2, 0.7) as flat arrays, Polygon3's numbers and the PCC.

Every GT and detection of a block of samples is stacked sample-major (``*_off`` give each
sample's slice); detections are in evaluation order, ``Inputs.d_file`` maps them back to file
indices. Also the flat-array helpers the other ``tedeval_*`` modules share. Used by
``metrics.tedeval.metric``.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from itertools import repeat

import numpy as np
import numpy.typing as npt

from metrics.core.model import BoxType, FloatArray, Instance, Sample
from metrics.core.records import dataclass
from metrics.shapes.order import confidence_order, uses_confidences
from metrics.shapes.quads import quad_area
from metrics.tedeval.params import TedEvalParams

BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.intp]

_VERTEX_ORDER_VERTICAL = [3, 0, 1, 2]


# --------------------------------------------------------------------------- inputs


@dataclass
class Inputs:
    """Every GT and detection of a block of samples as flat arrays (sample-major).

    Detections are in evaluation order within each sample; ``d_file`` maps them back.
    """

    samples: Sequence[Sample]
    g_off: IntArray
    d_off: IntArray
    g_owner: IntArray
    d_owner: IntArray
    g_ring: FloatArray  # (NG, 4, 2) int()-truncated vertices: the polygon
    d_ring: FloatArray
    g_pts: FloatArray  # points as the official code keeps them (PCC, diagonal)
    d_pts: FloatArray
    g_dc: BoolArray
    g_len: IntArray  # characters of care GTs (0 for dc)
    d_file: IntArray
    sorted_by_conf: BoolArray  # per sample

    @property
    def n_gt(self) -> int:
        return len(self.g_owner)

    @property
    def n_det(self) -> int:
        return len(self.d_owner)


_POINTS = operator.attrgetter("points")
_BOX_TYPE = operator.attrgetter("box_type")
_DONT_CARE = operator.attrgetter("dont_care")
_TEXT = operator.attrgetter("text")
_QUAD_ERROR = "TedEval needs QUAD or LTRB boxes (4 vertices each)"


def _stack(items: Sequence[Instance]) -> tuple[FloatArray, FloatArray]:
    """(rings, points): int()-truncated polygon vertices and the official point lists."""
    if not items:
        return np.zeros((0, 4, 2)), np.zeros((0, 4, 2))
    points = list(map(_POINTS, items))
    if set(map(len, points)) != {4}:
        raise ValueError(_QUAD_ERROR)
    try:
        flat = np.concatenate(points)
    except ValueError as exc:
        raise ValueError(_QUAD_ERROR) from exc
    if flat.ndim != 2 or flat.shape[1] != 2:
        raise ValueError(_QUAD_ERROR)
    raw = flat.reshape(-1, 4, 2).astype(np.float64, copy=False)
    ring = raw
    types = map(_BOX_TYPE, items)
    ltrb = np.fromiter(map(operator.is_, types, repeat(BoxType.LTRB)), bool, len(items))
    return ring, np.where(ltrb[:, None, None], ring, raw)


def build_inputs(samples: Sequence[Sample], params: TedEvalParams) -> Inputs:
    orders = [
        confidence_order(s.det, params.confidences)
        if uses_confidences(s.det, params.confidences)
        else None
        for s in samples
    ]
    gts = [g for s in samples for g in s.gt]
    dets: list[Instance] = []
    for s, order in zip(samples, orders, strict=True):
        dets.extend(s.det if order is None else [s.det[j] for j in order])
    g_counts = np.fromiter(map(len, map(_GT, samples)), np.intp, len(samples))
    d_counts = np.fromiter(map(len, map(_DET, samples)), np.intp, len(samples))
    g_off, d_off = _offsets(g_counts), _offsets(d_counts)
    g_ring, g_pts = _stack(gts)
    d_ring, d_pts = _stack(dets)
    g_dc = np.fromiter(map(_DONT_CARE, gts), bool, len(gts))
    text_len = np.fromiter(map(len, [t or "" for t in map(_TEXT, gts)]), np.intp, len(gts))
    d_owner = np.repeat(np.arange(len(samples), dtype=np.intp), d_counts)
    d_file = np.arange(len(dets), dtype=np.intp) - d_off[d_owner]
    used = [(k, order) for k, order in enumerate(orders) if order is not None]
    for k, order in used:
        d_file[d_off[k] : d_off[k + 1]] = order
    sorted_by_conf = np.zeros(len(samples), dtype=bool)
    sorted_by_conf[[k for k, _ in used]] = True
    return Inputs(
        samples=samples,
        g_off=g_off,
        d_off=d_off,
        g_owner=np.repeat(np.arange(len(samples), dtype=np.intp), g_counts),
        d_owner=d_owner,
        g_ring=g_ring,
        d_ring=d_ring,
        g_pts=g_pts,
        d_pts=d_pts,
        g_dc=g_dc,
        g_len=np.where(g_dc, 0, text_len).astype(np.intp),
        d_file=d_file,
        sorted_by_conf=sorted_by_conf,
    )


_GT = operator.attrgetter("gt")
_DET = operator.attrgetter("det")


def _offsets(counts: IntArray) -> IntArray:
    out: IntArray = np.concatenate([[0], np.cumsum(counts)]).astype(np.intp)
    return out


# --------------------------------------------------------------------------- Polygon3 numbers


def quad_centers(r: FloatArray) -> FloatArray:
    """Polygon3 ``center()`` of single-contour quads, reproducing its operation order.

    NaN for zero-area quads (the official call fails; they can never be matched).
    """
    x, y = r[:, :, 0], r[:, :, 1]
    sx, sy, orient = np.zeros(len(r)), np.zeros(len(r)), np.zeros(len(r))
    for i in range(3):
        a = x[:, i] * y[:, i + 1] - x[:, i + 1] * y[:, i]
        sx = sx + (x[:, i] + x[:, i + 1]) * a
        sy = sy + (y[:, i] + y[:, i + 1]) * a
        orient = orient + a
    open_ring = (x[:, 3] != x[:, 0]) | (y[:, 3] != y[:, 0])
    a = x[:, 3] * y[:, 0] - x[:, 0] * y[:, 3]
    sx = np.where(open_ring, sx + (x[:, 3] + x[:, 0]) * a, sx)
    sy = np.where(open_ring, sy + (y[:, 3] + y[:, 0]) * a, sy)
    orient = orient + (x[:, 3] * y[:, 0] - y[:, 3] * x[:, 0])
    area = quad_area(r)
    with np.errstate(divide="ignore", invalid="ignore"):
        den = 6.0 * area * np.sign(orient)
        cx, cy = sx / den, sy / den
        # poly_p_center of one contour: (A·cx) / A
        return np.stack([(area * cx) / area, (area * cy) / area], axis=1)


def midpoints(p: FloatArray, a: int, b: int) -> FloatArray:
    return np.stack([(p[:, a, 0] + p[:, b, 0]) / 2, (p[:, a, 1] + p[:, b, 1]) / 2], axis=1)


def diagonals(p: FloatArray) -> FloatArray:
    """Official ``diag``: mean of the two vertex-to-opposite-vertex distances."""

    def dist(a: int, b: int) -> FloatArray:
        dx = np.abs(p[:, a, 0] - p[:, b, 0])
        dy = np.abs(p[:, a, 1] - p[:, b, 1])
        return np.asarray(np.sqrt(dx * dx + dy * dy), dtype=np.float64)

    return np.asarray((dist(0, 2) + dist(1, 3)) / 2, dtype=np.float64)


# --------------------------------------------------------------------------- PCC (4.2)


def _fold(op: np.ufunc, v: FloatArray) -> FloatArray:
    """``v.max(axis=1)`` (np.maximum) or ``v.min(axis=1)`` of an (N, 4) array, by columns."""
    out: FloatArray = op(op(v[:, 0], v[:, 1]), op(v[:, 2], v[:, 3]))
    return out


@dataclass
class Pcc:
    """The pseudo character centres of a batch's GTs: points, owners and orientation."""

    xy: FloatArray  # (NPCC, 2), read-only
    off: IntArray  # per GT, len NG + 1
    gt: IntArray  # owner GT of each PCC
    vertical: BoolArray


def build_pcc(inp: Inputs, params: TedEvalParams) -> Pcc:
    x, y = inp.g_ring[:, :, 0], inp.g_ring[:, :, 1]
    dx = _fold(np.maximum, x) - _fold(np.minimum, x)
    dy = _fold(np.maximum, y) - _fold(np.minimum, y)
    with np.errstate(divide="ignore", invalid="ignore"):
        aspect = np.where(dx != 0, np.abs(dy / np.where(dx != 0, dx, 1.0)), 0.0)
    vertical = ~inp.g_dc & (aspect > params.vertical_aspect)
    q = np.where(vertical[:, None, None], inp.g_pts[:, _VERTEX_ORDER_VERTICAL], inp.g_pts)
    a, b = midpoints(q, 0, 3), midpoints(q, 1, 2)
    n = inp.g_len
    unit = (b - a) / np.where(n > 0, n, 1)[:, None]
    owner = np.repeat(np.arange(inp.n_gt, dtype=np.intp), n)
    off = np.concatenate([[0], np.cumsum(n)]).astype(np.intp)
    k = (np.arange(len(owner)) - off[owner]).astype(np.float64)
    xy = a[owner] + unit[owner] / 2 + unit[owner] * k[:, None]
    xy.flags.writeable = False
    return Pcc(xy, off, owner, vertical)


# --------------------------------------------------------------------------- flat-array helpers


def expand(counts: IntArray) -> tuple[IntArray, IntArray]:
    """(owner, rank) of every item when item block o has counts[o] items."""
    owner = np.repeat(np.arange(len(counts), dtype=np.intp), counts)
    rank = np.arange(len(owner), dtype=np.intp) - np.repeat(np.cumsum(counts) - counts, counts)
    return owner, rank


def group_starts(keys: IntArray) -> IntArray:
    """First position of each run of equal keys."""
    if len(keys) == 0:
        return np.zeros(0, dtype=np.intp)
    return np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]]).astype(np.intp)


def group_bounds(keys: IntArray) -> tuple[IntArray, IntArray]:
    """(starts, ends) of each run of equal keys."""
    starts = group_starts(keys)
    return starts, np.r_[starts[1:], len(keys)][: len(starts)].astype(np.intp)


def ratio(num: FloatArray, den: FloatArray) -> FloatArray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den == 0, 0.0, num / np.where(den == 0, 1.0, den))
