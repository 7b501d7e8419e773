"""TedEval (``tedeval``): instance matching, then character-level scoring with pseudo characters.

Paper: Lee et al., "TedEval: A Fair Evaluation Metric for Scene Text Detectors", ICDAR 2019
workshops (arXiv:1907.01227).
Official implementation matched: clovaai/TedEval ``script.py`` + ``rrc_evaluation_funcs.py``
@f24e003 (Python 3, Polygon3), which produced ``shared/reference/*__tedeval.json``; spec
section 4.

A care GT of L characters gets L pseudo character centres (PCC) along its midline. Matching is
non-exclusive: many-to-one (MO), one-to-one (OO) and one-to-many (OM) records are all kept, with
both area thresholds at 0.4. A matched GT earns the fraction of its PCC that lie in exactly one
of its matched detections; a matched detection earns the fraction of the PCC of its matched GTs
that it contains.

Where this follows the code rather than the paper (spec 4.6, 7 rows 19-23, Appendix A):

- PCC inclusion is Polygon3's half-open PNPOLY test (a PCC on a shared vertical edge belongs to
  the right box only), with the smallest containing contour deciding for polygons that lost a
  don't-care region (T1);
- the multiline pivot "centre" is the polygon centroid, not the mean of the four vertices
  (T2; ``pivot_center="vertex_mean"`` restores the paper);
- a GT whose bounding box is more than 1.5 times taller than wide reads bottom to top for its
  PCC, while its multiline pivots keep the original vertex order (T3); the GT vertex order
  defines the reading direction (T6);
- OO uses the don't-care-cut detection for its centroid and for R/P but the original points
  for the diagonal, and its uniqueness test counts don't-care rows and columns (T4);
- with confidences the official code never records a matched detection, so AP is always 0;
  ``extra["ap"]`` reports that value (per image: the precision when the image has no care GT,
  as the official script does) (T5);
- an empty care transcription divides by zero in the official run; ``validate`` reports it as
  an input error (T7);
- don't-care regions (dc GTs minus the care GTs they overlap) are cut out of *every* detection
  that overlaps them, don't-care or not (T8).

Engine choices: detections are evaluated in file order, or in stable descending-confidence
order (spec 0.7; tie order is the one unavoidable divergence); all indices in results are file
indices. Intersection areas are exact for axis-aligned integer boxes, computed in numpy for
other convex quads (separated, touching and nested pairs decided exactly) and by shapely/GEOS
for the rest (spec 0.5), so a threshold met exactly by a GPC round-off could flip (never seen
on the reference sets). Care GTs never overlap a don't-care region (it is cut out of the dc
GT first), so cutting dc regions out of a detection changes only its area in the care rows.
Many samples are evaluated in one vectorized pass (``evaluate_batch``); ``evaluate_sample`` is
a batch of one.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt
import shapely

from metrics.geometry import GeomArray
from metrics.model import BoxType, FloatArray, Instance, Problem, Sample, Severity
from metrics.results import (
    InstanceResult,
    MatchKind,
    MatchRecord,
    NearMiss,
    SampleResult,
    Verdict,
    credit_tally,
    per_image_rule,
)

ID = "tedeval"

BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.intp]

PIVOT_CENTERS = ("centroid", "vertex_mean")
_RULE_NAMES = {1: "sum", 2: "single"}
_VERTEX_ORDER_VERTICAL = [3, 0, 1, 2]


@dataclass(frozen=True)
class TedEvalParams:
    """Official defaults (spec 4.1); ``pivot_center`` is the paper switch of spec 7 row 20."""

    area_recall: float = 0.4
    area_precision: float = 0.4
    center_diff: float = 1.0
    vertical_aspect: float = 1.5
    multiline_angle: float = 45.0
    pivot_center: str = "centroid"
    confidences: bool | None = None  # None: sort by confidence when every det has one
    allow_float: bool = False  # spec 7 row 1: truncate float coordinates like int()

    def __post_init__(self) -> None:
        if self.pivot_center not in PIVOT_CENTERS:
            raise ValueError(
                f"pivot_center must be one of {PIVOT_CENTERS}, not {self.pivot_center!r}"
            )


# --------------------------------------------------------------------------- validation


def validate(sample: Sample, params: TedEvalParams) -> list[Problem]:
    """QUAD/LTRB boxes, integer coordinates, and no empty care transcription (T7)."""
    out: list[Problem] = []
    for side, source, items in (
        ("GT", sample.gt_source, sample.gt),
        ("det", sample.det_source, sample.det),
    ):
        where = source or side
        for inst in items:
            for message in _instance_problems(inst, side == "GT", params):
                out.append(Problem(Severity.ERROR, where, inst.line, message, sample.id))
    return out


def validate_batch(samples: Sequence[Sample], params: TedEvalParams) -> list[Problem]:
    return [p for s in samples for p in validate(s, params)]


def _instance_problems(inst: Instance, is_gt: bool, params: TedEvalParams) -> list[str]:
    out = []
    if inst.box_type is BoxType.POLY or inst.points.shape != (4, 2):
        out.append("TedEval reads QUAD (8 numbers) or LTRB (4 numbers) boxes only")
    if not inst.integer and not params.allow_float:
        out.append(
            "coordinates must be integers for this metric (set allow_float=true to truncate them)"
        )
    if is_gt and not inst.dont_care and not inst.text:
        out.append(
            "empty transcription: TedEval divides by the number of characters "
            "(the official script aborts)"
        )
    return out


# --------------------------------------------------------------------------- inputs


@dataclass
class _Inputs:
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


def _confidence_order(dets: Sequence[Instance], enabled: bool | None) -> tuple[list[int], bool]:
    """Evaluation order (stable descending confidence, spec 0.7) and whether it applies."""
    use = (
        enabled
        if enabled is not None
        else bool(dets) and all(d.confidence is not None for d in dets)
    )
    if not use:
        return list(range(len(dets))), False
    return sorted(range(len(dets)), key=lambda j: -(dets[j].confidence or 0.0)), True


def _stack(items: Sequence[Instance]) -> tuple[FloatArray, FloatArray]:
    """(rings, points): int()-truncated polygon vertices and the official point lists."""
    if not items:
        return np.zeros((0, 4, 2)), np.zeros((0, 4, 2))
    try:
        raw = np.stack([i.points for i in items]).astype(np.float64)
    except ValueError as exc:
        raise ValueError("TedEval needs QUAD or LTRB boxes (4 vertices each)") from exc
    if raw.shape[1:] != (4, 2):
        raise ValueError("TedEval needs QUAD or LTRB boxes (4 vertices each)")
    ring = np.trunc(raw)
    ltrb = np.fromiter((i.box_type is BoxType.LTRB for i in items), bool, len(items))
    return ring, np.where(ltrb[:, None, None], ring, raw)


def _inputs(samples: Sequence[Sample], params: TedEvalParams) -> _Inputs:
    orders = [_confidence_order(s.det, params.confidences) for s in samples]
    gts = [g for s in samples for g in s.gt]
    dets = [s.det[j] for s, (order, _) in zip(samples, orders, strict=True) for j in order]
    g_counts = np.fromiter((len(s.gt) for s in samples), np.intp, len(samples))
    d_counts = np.fromiter((len(s.det) for s in samples), np.intp, len(samples))
    g_ring, g_pts = _stack(gts)
    d_ring, d_pts = _stack(dets)
    g_dc = np.fromiter((g.dont_care for g in gts), bool, len(gts))
    g_len = np.fromiter((0 if g.dont_care else len(g.text or "") for g in gts), np.intp, len(gts))
    return _Inputs(
        samples=samples,
        g_off=np.concatenate([[0], np.cumsum(g_counts)]).astype(np.intp),
        d_off=np.concatenate([[0], np.cumsum(d_counts)]).astype(np.intp),
        g_owner=np.repeat(np.arange(len(samples), dtype=np.intp), g_counts),
        d_owner=np.repeat(np.arange(len(samples), dtype=np.intp), d_counts),
        g_ring=g_ring,
        d_ring=d_ring,
        g_pts=g_pts,
        d_pts=d_pts,
        g_dc=g_dc,
        g_len=g_len,
        d_file=np.fromiter((j for order, _ in orders for j in order), np.intp, len(dets)),
        sorted_by_conf=np.fromiter((used for _, used in orders), bool, len(samples)),
    )


# --------------------------------------------------------------------------- Polygon3 numbers


def _quad_area(r: FloatArray) -> FloatArray:
    """Polygon3 ``poly_c_area``: 0.5·|Σ (x_i + x_i+1)(y_i+1 − y_i)|, in its order."""
    x, y = r[:, :, 0], r[:, :, 1]
    a = (x[:, 0] + x[:, 1]) * (y[:, 1] - y[:, 0])
    a = a + (x[:, 1] + x[:, 2]) * (y[:, 2] - y[:, 1])
    a = a + (x[:, 2] + x[:, 3]) * (y[:, 3] - y[:, 2])
    a = a + (x[:, 3] + x[:, 0]) * (y[:, 0] - y[:, 3])
    return np.asarray(0.5 * np.abs(a), dtype=np.float64)


def _quad_centers(r: FloatArray) -> FloatArray:
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
    area = _quad_area(r)
    with np.errstate(divide="ignore", invalid="ignore"):
        den = 6.0 * area * np.sign(orient)
        cx, cy = sx / den, sy / den
        # poly_p_center of one contour: (A·cx) / A
        return np.stack([(area * cx) / area, (area * cy) / area], axis=1)


def _midpoints(p: FloatArray, a: int, b: int) -> FloatArray:
    return np.stack([(p[:, a, 0] + p[:, b, 0]) / 2, (p[:, a, 1] + p[:, b, 1]) / 2], axis=1)


def _diagonals(p: FloatArray) -> FloatArray:
    """Official ``diag``: mean of the two vertex-to-opposite-vertex distances."""

    def dist(a: int, b: int) -> FloatArray:
        dx = np.abs(p[:, a, 0] - p[:, b, 0])
        dy = np.abs(p[:, a, 1] - p[:, b, 1])
        return np.asarray(np.sqrt(dx * dx + dy * dy), dtype=np.float64)

    return np.asarray((dist(0, 2) + dist(1, 3)) / 2, dtype=np.float64)


# --------------------------------------------------------------------------- PCC (4.2)


@dataclass
class _Pcc:
    xy: FloatArray  # (NPCC, 2), read-only
    off: IntArray  # per GT, len NG + 1
    gt: IntArray  # owner GT of each PCC
    vertical: BoolArray


def _pcc(inp: _Inputs, params: TedEvalParams) -> _Pcc:
    r = inp.g_ring
    dx = r[:, :, 0].max(axis=1) - r[:, :, 0].min(axis=1)
    dy = r[:, :, 1].max(axis=1) - r[:, :, 1].min(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        aspect = np.where(dx != 0, np.abs(dy / np.where(dx != 0, dx, 1.0)), 0.0)
    vertical = ~inp.g_dc & (aspect > params.vertical_aspect)
    q = np.where(vertical[:, None, None], inp.g_pts[:, _VERTEX_ORDER_VERTICAL], inp.g_pts)
    a, b = _midpoints(q, 0, 3), _midpoints(q, 1, 2)
    n = inp.g_len
    unit = (b - a) / np.where(n > 0, n, 1)[:, None]
    owner = np.repeat(np.arange(inp.n_gt, dtype=np.intp), n)
    off = np.concatenate([[0], np.cumsum(n)]).astype(np.intp)
    k = (np.arange(len(owner)) - off[owner]).astype(np.float64)
    xy = a[owner] + unit[owner] / 2 + unit[owner] * k[:, None]
    xy.flags.writeable = False
    return _Pcc(xy, off, owner, vertical)


# --------------------------------------------------------------------------- geometry (4.3)

_EXHAUSTIVE_PAIRS = 4096  # samples with at most this many pairs skip the STRtree


def _convex(r: FloatArray) -> BoolArray:
    """Strictly convex quads with one turn direction (either orientation)."""
    e = r[:, [1, 2, 3, 0]] - r
    f = e[:, [1, 2, 3, 0]]
    cross = e[:, :, 0] * f[:, :, 1] - e[:, :, 1] * f[:, :, 0]
    return np.asarray(np.all(cross > 0, axis=1) | np.all(cross < 0, axis=1), dtype=bool)


def _axis_rect(r: FloatArray) -> BoolArray:
    """Axis-aligned rectangles of positive area (either vertex order)."""
    x, y = r[:, :, 0], r[:, :, 1]
    a = (x[:, 0] == x[:, 3]) & (x[:, 1] == x[:, 2]) & (y[:, 0] == y[:, 1]) & (y[:, 2] == y[:, 3])
    b = (x[:, 0] == x[:, 1]) & (x[:, 2] == x[:, 3]) & (y[:, 1] == y[:, 2]) & (y[:, 3] == y[:, 0])
    return np.asarray((a | b) & (_quad_area(r) > 0), dtype=bool)


class _Shapes:
    """One side's polygons: the int quads, and shapely polygons built only where GEOS is
    needed (self-intersecting ones repaired for clipping, spec 0.5). ``convex``/``rect`` are
    cleared for polygons replaced by a don't-care cut."""

    def __init__(self, ring: FloatArray, owner: IntArray) -> None:
        self.ring, self.owner = ring, owner
        empty = np.zeros((0, 2))
        self.lo = ring.min(axis=1) if len(ring) else empty
        self.hi = ring.max(axis=1) if len(ring) else empty
        self.convex, self.rect = _convex(ring), _axis_rect(ring)
        self.area = _quad_area(ring)
        self.geoms: GeomArray = np.empty(len(ring), dtype=object)
        self.built = np.zeros(len(ring), dtype=bool)

    def geometries(self, idx: IntArray) -> GeomArray:
        need = np.unique(idx[~self.built[idx]])
        if len(need):
            geoms: GeomArray = shapely.polygons(self.ring[need])
            check = np.flatnonzero(~self.convex[need])
            bad = check[~shapely.is_valid(geoms[check])]
            if len(bad):
                geoms[bad] = shapely.make_valid(geoms[bad])
            self.geoms[need] = geoms
            self.built[need] = True
        out: GeomArray = self.geoms[idx]
        return out

    def replace(self, idx: IntArray, geoms: GeomArray) -> None:
        self.geoms[idx] = geoms
        self.built[idx] = True
        self.convex[idx] = self.rect[idx] = False
        self.area[idx] = shapely.area(geoms)


def _tree_pairs(a: _Shapes, ai: IntArray, b: _Shapes, bi: IntArray) -> tuple[IntArray, IntArray]:
    """STRtree over bounding boxes, samples shifted apart along x."""
    extent = float(max(np.abs(a.ring[ai]).max(), np.abs(b.ring[bi]).max()))
    stride = 4.0 * (extent + 1.0)
    pad = 1e-6 * max(1.0, stride)

    def boxes(s: _Shapes, i: IntArray) -> GeomArray:
        shift = s.owner[i] * stride
        out: GeomArray = shapely.box(
            s.lo[i, 0] + shift - pad, s.lo[i, 1] - pad, s.hi[i, 0] + shift + pad, s.hi[i, 1] + pad
        )
        return out

    ta, tb = shapely.STRtree(boxes(b, bi)).query(boxes(a, ai), predicate="intersects")
    keep = a.owner[ai[ta]] == b.owner[bi[tb]]
    return ai[ta[keep]], bi[tb[keep]]


def _blocks(
    a_cnt: IntArray, b_cnt: IntArray, a_off: IntArray, b_off: IntArray
) -> tuple[IntArray, IntArray]:
    """Every (a, b) pair within each sample, sorted (sample, a, b)."""
    owner, local = _expand(a_cnt * b_cnt)
    width = np.maximum(b_cnt[owner], 1)
    return a_off[owner] + local // width, b_off[owner] + local % width


def _candidates(
    a: _Shapes, ai: IntArray, b: _Shapes, bi: IntArray, n: int
) -> tuple[IntArray, IntArray]:
    """Pairs (a, b) among the rows ai / bi (sorted by sample) of the same sample whose
    bounding boxes meet, sorted by a then b: exhaustive for small samples, else STRtree."""
    a_cnt = np.bincount(a.owner[ai], minlength=n).astype(np.intp)
    b_cnt = np.bincount(b.owner[bi], minlength=n).astype(np.intp)
    small = a_cnt * b_cnt <= _EXHAUSTIVE_PAIRS
    ka, kb = _blocks(
        np.where(small, a_cnt, 0), np.where(small, b_cnt, 0), _offsets(a_cnt), _offsets(b_cnt)
    )
    ia, ib = ai[ka], bi[kb]
    meet = np.all((a.lo[ia] <= b.hi[ib]) & (b.lo[ib] <= a.hi[ia]), axis=1)
    ia, ib = ia[meet], ib[meet]
    if not small.all():
        big_a, big_b = ai[~small[a.owner[ai]]], bi[~small[b.owner[bi]]]
        if len(big_a) and len(big_b):
            ta, tb = _tree_pairs(a, big_a, b, big_b)
            ia, ib = np.r_[ia, ta].astype(np.intp), np.r_[ib, tb].astype(np.intp)
            order = np.lexsort((ib, ia))
            ia, ib = ia[order], ib[order]
    return ia, ib


def _offsets(counts: IntArray) -> IntArray:
    return (np.cumsum(counts) - counts).astype(np.intp)


def _ccw(r: FloatArray) -> FloatArray:
    """Quads re-ordered to a positive shoelace sum (inside = left of each edge)."""
    x, y = r[:, :, 0], r[:, :, 1]
    s = np.sum(x * np.roll(y, -1, axis=1) - np.roll(x, -1, axis=1) * y, axis=1)
    return np.where((s > 0)[:, None, None], r, r[:, ::-1])


def _sides(px: FloatArray, py: FloatArray, ax: FloatArray, ay: FloatArray) -> FloatArray:
    """s[n, k, m] = cross(a_m+1 − a_m, p_k − a_m): >= 0 when vertex k of p is inside edge m."""
    ex, ey = np.roll(ax, -1, axis=1) - ax, np.roll(ay, -1, axis=1) - ay
    dx = px[:, :, None] - ax[:, None, :]
    dy = py[:, :, None] - ay[:, None, :]
    return np.asarray(ex[:, None, :] * dy - ey[:, None, :] * dx, dtype=np.float64)


def _clip_half_plane(
    x: FloatArray, y: FloatArray, count: IntArray, a: FloatArray, b: FloatArray
) -> tuple[FloatArray, FloatArray, IntArray]:
    """One Sutherland–Hodgman step on (n, k) vertex arrays: keep the left of a -> b (closed).

    Crossings on axis-aligned clip edges are snapped to the edge coordinate.
    """
    n, k = x.shape
    idx = np.arange(k)[None, :]
    flat = (
        np.where(idx == 0, np.maximum(count - 1, 0)[:, None], idx - 1) + k * np.arange(n)[:, None]
    )
    px, py = x.ravel().take(flat), y.ravel().take(flat)
    ex, ey = (b[:, 0] - a[:, 0])[:, None], (b[:, 1] - a[:, 1])[:, None]
    ax, ay = a[:, 0:1], a[:, 1:2]
    s_cur = ex * (y - ay) - ey * (x - ax)
    s_prev = ex * (py - ay) - ey * (px - ax)
    den = s_prev - s_cur
    t = np.divide(s_prev, den, out=np.zeros_like(den), where=den != 0)
    cx = np.where(ex == 0, ax, px + t * (x - px))
    cy = np.where(ey == 0, ay, py + t * (y - py))
    valid = idx < count[:, None]
    keep = np.stack([valid & ((s_cur >= 0) != (s_prev >= 0)), valid & (s_cur >= 0)], axis=2)
    pos = np.cumsum(keep.reshape(n, 2 * k), axis=1) - 1
    new_count = (pos[:, -1] + 1).astype(np.intp)
    width = max(int(new_count.max()), 1)
    src = np.flatnonzero(keep)
    dest = (src // (2 * k)) * width + pos.ravel()[src]
    out_x, out_y = np.zeros(n * width), np.zeros(n * width)
    out_x[dest] = np.stack([cx, x], axis=2).ravel()[src]
    out_y[dest] = np.stack([cy, y], axis=2).ravel()[src]
    return out_x.reshape(n, width), out_y.reshape(n, width), new_count


def _clipped_area(sub: FloatArray, clip: FloatArray) -> FloatArray:
    """|S ∩ C| by Sutherland–Hodgman; ``clip`` convex with a positive shoelace sum."""
    n = len(sub)
    if n == 0:
        return np.zeros(0)
    x, y = sub[:, :, 0].copy(), sub[:, :, 1].copy()
    count = np.full(n, 4, dtype=np.intp)
    for e in range(4):
        x, y, count = _clip_half_plane(x, y, count, clip[:, e], clip[:, (e + 1) % 4])
    k = x.shape[1]
    idx = np.arange(k)[None, :]
    nxt = np.where(idx + 1 < count[:, None], idx + 1, 0) + k * np.arange(n)[:, None]
    terms = x * y.ravel().take(nxt) - x.ravel().take(nxt) * y
    area = np.abs(np.where(idx < count[:, None], terms, 0.0).sum(axis=1)) / 2
    return np.asarray(np.where(count >= 3, area, 0.0), dtype=np.float64)


def _convex_quad_inter(sub: FloatArray, clip: FloatArray) -> FloatArray:
    """|S ∩ C| of pairs of convex quads (N, 4, 2).

    Separated or touching pairs give exactly 0 and contained ones the exact quad area
    (integer vertices make these side tests exact); the rest are clipped.
    """
    if len(sub) == 0:
        return np.zeros(0)
    origin = sub[:, :1, :]
    s, c = _ccw(sub - origin), _ccw(clip - origin)
    sx, sy = np.ascontiguousarray(s[:, :, 0]), np.ascontiguousarray(s[:, :, 1])
    cx, cy = np.ascontiguousarray(c[:, :, 0]), np.ascontiguousarray(c[:, :, 1])
    s_in_c, c_in_s = _sides(sx, sy, cx, cy), _sides(cx, cy, sx, sy)
    apart = np.all(s_in_c <= 0, axis=1).any(axis=1) | np.all(c_in_s <= 0, axis=1).any(axis=1)
    s_inside = np.all(s_in_c >= 0, axis=(1, 2))
    c_inside = ~s_inside & np.all(c_in_s >= 0, axis=(1, 2))
    out = np.where(s_inside, _quad_area(sub), np.where(c_inside, _quad_area(clip), 0.0))
    rest = np.flatnonzero(~apart & ~s_inside & ~c_inside)
    out[rest] = _clipped_area(s[rest], c[rest])
    return np.asarray(out, dtype=np.float64)


def _inter(a: _Shapes, b: _Shapes, ia: IntArray, ib: IntArray) -> FloatArray:
    """|a_ia ∩ b_ib|: exact for axis-aligned rectangles, numpy clipping for convex quads,
    GEOS for the rest (cut or non-convex polygons)."""
    out = np.zeros(len(ia))
    rect = a.rect[ia] & b.rect[ib]
    lo = np.maximum(a.lo[ia[rect]], b.lo[ib[rect]])
    hi = np.minimum(a.hi[ia[rect]], b.hi[ib[rect]])
    wh = np.maximum(hi - lo, 0.0)
    out[rect] = wh[:, 0] * wh[:, 1]
    quad = ~rect & a.convex[ia] & b.convex[ib]
    out[quad] = _convex_quad_inter(a.ring[ia[quad]], b.ring[ib[quad]])
    slow = ~rect & ~quad
    if slow.any():
        out[slow] = shapely.area(
            shapely.intersection(a.geometries(ia[slow]), b.geometries(ib[slow]))
        )
    return out


def _ratio(num: FloatArray, den: FloatArray) -> FloatArray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den == 0, 0.0, num / np.where(den == 0, 1.0, den))


def _subtract_rounds(s: _Shapes, target: IntArray, cutter: _Shapes, member: IntArray) -> None:
    """s[t] -= cutter[m] for the (t, m) rows, in row order within each target."""
    if len(target) == 0:
        return
    starts, ends = _group_bounds(target)
    rank = np.arange(len(target)) - np.repeat(starts, ends - starts)
    geoms = s.geometries(target).copy()
    cutters = cutter.geometries(member)
    for r in range(int(rank.max()) + 1):
        sel = np.flatnonzero(rank == r)
        geoms[sel] = shapely.difference(geoms[sel - r], cutters[sel])
        if r:
            geoms[sel - r] = geoms[sel]
    first = starts
    s.replace(target[first], geoms[first])


@dataclass
class _Geometry:
    """Polygons after the don't-care cuts and the candidate pairs with R and P (steps 2-6)."""

    g: _Shapes
    d: _Shapes
    pi: IntArray
    pj: IntArray
    inter: FloatArray = field(default_factory=lambda: np.zeros(0))
    d_dc: BoolArray = field(default_factory=lambda: np.zeros(0, dtype=bool))
    d_rule: npt.NDArray[np.int8] = field(default_factory=lambda: np.zeros(0, dtype=np.int8))
    d_absorbed: IntArray = field(default_factory=lambda: np.zeros(0, dtype=np.intp))
    d_dc_value: FloatArray = field(default_factory=lambda: np.zeros(0))
    d_cut: BoolArray = field(default_factory=lambda: np.zeros(0, dtype=bool))
    recall: FloatArray = field(default_factory=lambda: np.zeros(0))
    precision: FloatArray = field(default_factory=lambda: np.zeros(0))

    def refresh(self) -> None:
        self.recall = _ratio(self.inter, self.g.area[self.pi])
        self.precision = _ratio(self.inter, self.d.area[self.pj])


def _geometry(inp: _Inputs, params: TedEvalParams) -> _Geometry:
    g, d = _Shapes(inp.g_ring, inp.g_owner), _Shapes(inp.d_ring, inp.d_owner)
    n = len(inp.samples)
    if min(params.area_recall, params.area_precision) <= 0:
        pi, pj = _blocks(np.diff(inp.g_off), np.diff(inp.d_off), inp.g_off, inp.d_off)
    else:
        pi, pj = _candidates(g, np.arange(inp.n_gt), d, np.arange(inp.n_det), n)
    geo = _Geometry(g, d, pi, pj)
    _cut_dont_care_gts(inp, geo)
    geo.inter = _inter(g, d, pi, pj)
    geo.refresh()
    _dont_care_dets(inp, geo, params)
    _cut_dets(inp, geo)
    return geo


def _cut_dont_care_gts(inp: _Inputs, geo: _Geometry) -> None:
    """Step 2: every dc GT loses the care GTs that overlap it (positive area)."""
    dc, care = np.flatnonzero(inp.g_dc), np.flatnonzero(~inp.g_dc)
    if len(dc) == 0 or len(care) == 0:
        return
    a, b = _candidates(geo.g, dc, geo.g, care, len(inp.samples))
    pos = _inter(geo.g, geo.g, a, b) > 0
    _subtract_rounds(geo.g, a[pos], geo.g, b[pos])


def _dont_care_dets(inp: _Inputs, geo: _Geometry, params: TedEvalParams) -> None:
    """Step 5 rules: Σ P over dc GTs with R > ar reaching ap, else one dc GT with P > ap."""
    nd = inp.n_det
    on_dc = inp.g_dc[geo.pi]
    contrib = on_dc & (geo.recall > params.area_recall)
    total = np.zeros(nd)
    np.add.at(total, geo.pj[contrib], geo.precision[contrib])  # sequential, GT order
    has_dc = np.bincount(inp.g_owner[inp.g_dc], minlength=len(inp.samples)) > 0
    by_sum = has_dc[inp.d_owner] & (total >= params.area_precision)
    single = on_dc & (geo.precision > params.area_precision)
    by_single = ~by_sum & (np.bincount(geo.pj[single], minlength=nd) > 0)
    geo.d_dc = by_sum | by_single
    geo.d_rule = np.where(by_sum, 1, np.where(by_single, 2, 0)).astype(np.int8)
    geo.d_absorbed = np.full(nd, -1, dtype=np.intp)
    geo.d_dc_value = np.where(by_sum, total, 0.0)
    for mask, use, is_single in ((contrib, by_sum, False), (single, by_single, True)):
        rows = np.flatnonzero(mask)
        rows = rows[use[geo.pj[rows]]]
        js, first = np.unique(geo.pj[rows], return_index=True)  # pairs sorted by GT
        geo.d_absorbed[js] = geo.pi[rows[first]]
        if is_single:
            geo.d_dc_value[js] = geo.precision[rows[first]]


def _cut_dets(inp: _Inputs, geo: _Geometry) -> None:
    """Step 5 cut and step 6: dets lose every dc region they overlap; R and P recomputed.

    A care GT never overlaps a (care-cut) dc region with positive area, so |G ∩ D'| =
    |G ∩ D| for care rows: only |D'| changes there, and dc rows become 0 (spec 4.3-6).
    """
    rows = np.flatnonzero(inp.g_dc[geo.pi] & (geo.recall > 0))
    geo.d_cut = np.zeros(inp.n_det, dtype=bool)
    if len(rows) == 0:
        return
    order = np.lexsort((geo.pi[rows], geo.pj[rows]))
    target, member = geo.pj[rows][order], geo.pi[rows][order]
    _subtract_rounds(geo.d, target, geo.g, member)
    geo.d_cut[target] = True
    geo.inter = np.where(geo.d_cut[geo.pj] & inp.g_dc[geo.pi], 0.0, geo.inter)
    geo.refresh()


# --------------------------------------------------------------------------- matching (4.3-4.4)


@dataclass
class _Matching:
    """Records in official order per sample: MO (det order), OO (GT, det order), OM (GT order).

    MO/OM are MatchRecords with file indices already; OO stays as arrays (global indices) with
    their values (d, R, P) until the results are assembled.
    """

    mo: list[list[MatchRecord]]  # per sample
    om: list[list[MatchRecord]]
    oo_i: IntArray
    oo_j: IntArray
    oo_values: FloatArray  # (n, 3): d, area recall, area precision
    multiline: list[list[dict[str, Any]]]  # per sample
    mi: IntArray  # matched (GT, det) pairs of all records, unique, sorted
    mj: IntArray


def _group_starts(keys: IntArray) -> IntArray:
    """First position of each run of equal keys."""
    if len(keys) == 0:
        return np.zeros(0, dtype=np.intp)
    return np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]]).astype(np.intp)


def _group_bounds(keys: IntArray) -> tuple[IntArray, IntArray]:
    """(starts, ends) of each run of equal keys."""
    starts = _group_starts(keys)
    return starts, np.r_[starts[1:], len(keys)][: len(starts)].astype(np.intp)


def _pivots(ring: FloatArray, centers: FloatArray, params: TedEvalParams) -> FloatArray:
    """(N, 2, 2): left pivot midpoint(v1, v4) and centre pivot of each original polygon."""
    if params.pivot_center == "vertex_mean":
        centers = np.stack(
            [
                (ring[:, 0, 0] + ring[:, 1, 0] + ring[:, 2, 0] + ring[:, 3, 0]) / 4,
                (ring[:, 0, 1] + ring[:, 1, 1] + ring[:, 2, 1] + ring[:, 3, 1]) / 4,
            ],
            axis=1,
        )
    return np.stack([_midpoints(ring, 0, 3), centers], axis=1)


def _angle(l_a: Sequence[float], c_a: Sequence[float], c_b: Sequence[float]) -> float:
    """Official ``get_angle_3pt(l_a, c_b, c_a)`` folded to [0, 180]."""
    ang = math.degrees(
        math.atan2(c_a[1] - c_b[1], c_a[0] - c_b[0]) - math.atan2(l_a[1] - c_b[1], l_a[0] - c_b[0])
    )
    theta = ang + 360 if ang < 0 else ang
    return 360 - theta if theta > 180 else theta


def _multiline_test(
    kind: str, labels: list[int], pivots: list[list[list[float]]], threshold: float
) -> dict[str, Any]:
    """Spec 4.4 on every ordered pair; the first failing pair is the official decision."""
    pairs: list[dict[str, Any]] = []
    rejecting: tuple[int, int] | None = None
    for a, (l_a, c_a) in enumerate(pivots):
        for b, (_, c_b) in enumerate(pivots):
            if a == b:
                continue
            theta = _angle(l_a, c_a, c_b)
            angle = min(theta, 180 - theta)
            passed = not angle >= threshold
            if not passed and rejecting is None:
                rejecting = (labels[a], labels[b])
            pairs.append(
                {"a": labels[a], "b": labels[b], "theta": theta, "angle": angle, "passed": passed}
            )
    return {
        "kind": kind,
        "pairs": tuple(pairs),
        "rejected": rejecting is not None,
        "rejecting_pair": rejecting,
        "pivots": {
            k: ((p[0][0], p[0][1]), (p[1][0], p[1][1])) for k, p in zip(labels, pivots, strict=True)
        },
    }


class _Matcher:
    """Steps 7-10 over a block of samples."""

    def __init__(self, inp: _Inputs, geo: _Geometry, params: TedEvalParams) -> None:
        self.inp, self.geo, self.params = inp, geo, params
        self.g_center = _quad_centers(inp.g_ring)
        self.d_center = _quad_centers(inp.d_ring)
        self.care = ~inp.g_dc[geo.pi] & ~geo.d_dc[geo.pj]
        n = len(inp.samples)
        self.multiline: list[list[dict[str, Any]]] = [[] for _ in range(n)]
        self.pairs: list[tuple[int, int]] = []  # (GT, det) pairs of accepted MO/OM records

    def run(self) -> _Matching:
        mo = self.groups("MO")
        oo_i, oo_j, oo_values = self.one_to_one()
        om = self.groups("OM")
        width = max(1, self.inp.n_det)
        gi = np.asarray([i for i, _ in self.pairs], dtype=np.intp)
        gj = np.asarray([j for _, j in self.pairs], dtype=np.intp)
        key = np.unique(np.r_[oo_i * width + oo_j, gi * width + gj].astype(np.intp))
        return _Matching(mo, om, oo_i, oo_j, oo_values, self.multiline, key // width, key % width)

    # ---- OO (step 8)
    def one_to_one(self) -> tuple[IntArray, IntArray, FloatArray]:
        geo, p = self.geo, self.params
        qual = (geo.recall >= p.area_recall) & (geo.precision >= p.area_precision)
        rows = np.bincount(geo.pi[qual], minlength=self.inp.n_gt)
        cols = np.bincount(geo.pj[qual], minlength=self.inp.n_det)
        cand = np.flatnonzero(qual & self.care & (rows[geo.pi] == 1) & (cols[geo.pj] == 1))
        d = self._center_distances(geo.pi[cand], geo.pj[cand])
        ok = d < p.center_diff
        cand = cand[ok]
        values = np.stack([d[ok], geo.recall[cand], geo.precision[cand]], axis=1)
        return geo.pi[cand], geo.pj[cand], values

    def _center_distances(self, i: IntArray, j: IntArray) -> FloatArray:
        """2·‖centroid(G) − centroid(D')‖ / (diag(G) + diag(D)), official operation order."""
        dc = self.d_center[j]
        cut = self.geo.d_cut[j]
        if cut.any():
            cent = shapely.centroid(self.geo.d.geometries(j[cut]))
            dc[cut] = np.stack([shapely.get_x(cent), shapely.get_y(cent)], axis=1)
        gc = self.g_center[i]
        dx, dy = np.abs(gc[:, 0] - dc[:, 0]), np.abs(gc[:, 1] - dc[:, 1])
        dist = np.sqrt(dx * dx + dy * dy)
        dist = dist / (_diagonals(self.inp.g_pts[i]) + _diagonals(self.inp.d_pts[j]))
        return np.asarray(dist * 2.0, dtype=np.float64)

    # ---- MO (step 7) and OM (step 9)
    def groups(self, kind: str) -> list[list[MatchRecord]]:
        """Candidate groups (>= 2 members, sequential Σ reaching the threshold), then 4.4."""
        geo, p, inp = self.geo, self.params, self.inp
        if kind == "MO":
            rows = np.flatnonzero(self.care & (geo.recall >= p.area_recall))
            rows = rows[np.lexsort((geo.pi[rows], geo.pj[rows]))]
            owner, member, value, threshold = geo.pj, geo.pi, geo.precision, p.area_precision
        else:
            rows = np.flatnonzero(self.care & (geo.precision >= p.area_precision))
            owner, member, value, threshold = geo.pi, geo.pj, geo.recall, p.area_recall
        keys = owner[rows]
        starts, ends = _group_bounds(keys)
        sums = np.zeros(len(starts))
        np.add.at(sums, np.repeat(np.arange(len(starts)), ends - starts), value[rows])
        chosen = np.flatnonzero((ends - starts >= 2) & (sums >= threshold))
        out: list[list[MatchRecord]] = [[] for _ in inp.samples]
        if len(chosen) == 0:
            return out
        members = member[rows].tolist()
        tables = _GroupTables(inp, self.g_center, self.d_center, p)
        for head, lo, hi, total in zip(
            keys[starts[chosen]].tolist(),
            starts[chosen].tolist(),
            ends[chosen].tolist(),
            sums[chosen].tolist(),
            strict=True,
        ):
            self._group(kind, head, members[lo:hi], total, tables, out)
        return out

    def _group(
        self,
        kind: str,
        head: int,
        members: list[int],
        total: float,
        t: _GroupTables,
        out: list[list[MatchRecord]],
    ) -> None:
        if kind == "MO":
            s = t.d_owner[head]
            gts, dets = members, [head]
            labels, pivots = [t.g_local[m] for m in members], [t.g_pivots[m] for m in members]
        else:
            s = t.g_owner[head]
            gts, dets = [head], members
            labels, pivots = [t.d_file[m] for m in members], [t.d_pivots[m] for m in members]
        local_g = tuple([t.g_local[g] for g in gts])
        local_d = tuple([t.d_file[d] for d in dets])
        test = _multiline_test(kind, labels, pivots, self.params.multiline_angle)
        self.multiline[s].append({"kind": kind, "gt": local_g, "det": local_d, **test})
        if test["rejected"]:
            return
        self.pairs.extend((i, j) for i in gts for j in dets)
        key = "precision_sum" if kind == "MO" else "recall_sum"
        values = {key: total, "members": float(len(members))}
        label_kind = MatchKind.MERGE if kind == "MO" else MatchKind.SPLIT
        out[s].append(MatchRecord(label_kind, local_g, local_d, values, kind))


class _GroupTables:
    """Python-list views used by the MO/OM loop (no numpy scalars inside the loop)."""

    def __init__(
        self, inp: _Inputs, g_center: FloatArray, d_center: FloatArray, params: TedEvalParams
    ) -> None:
        self.g_owner = inp.g_owner.tolist()
        self.d_owner = inp.d_owner.tolist()
        self.g_local = (np.arange(inp.n_gt) - inp.g_off[inp.g_owner]).tolist()
        self.d_file = inp.d_file.tolist()
        self.g_pivots = _pivots(inp.g_ring, g_center, params).tolist()
        self.d_pivots = _pivots(inp.d_ring, d_center, params).tolist()


# --------------------------------------------------------------------------- PCC hits (step 11)


@dataclass
class _CutRings:
    """Rings of the don't-care-cut detections (exterior then holes per part), closed."""

    owner: IntArray  # global det index per ring
    xy: FloatArray  # all ring vertices, each ring closed (first vertex repeated)
    start: IntArray
    length: IntArray  # vertices per ring, closing one included
    hole: BoolArray


def _cut_rings(geo: _Geometry) -> _CutRings:
    cut = np.flatnonzero(geo.d_cut)
    parts, part_idx = shapely.get_parts(geo.d.geometries(cut), return_index=True)
    poly = shapely.get_type_id(parts) == 3
    parts, part_idx = parts[poly], part_idx[poly]
    rings, ring_part = shapely.get_rings(parts, return_index=True)
    first = np.r_[True, ring_part[1:] != ring_part[:-1]] if len(rings) else np.zeros(0, bool)
    xy, coord_ring = shapely.get_coordinates(rings, return_index=True)
    length = np.bincount(coord_ring, minlength=len(rings)).astype(np.intp)
    xy.flags.writeable = False
    return _CutRings(
        owner=cut[part_idx[ring_part]].astype(np.intp),
        xy=xy,
        start=(np.cumsum(length) - length).astype(np.intp),
        length=length,
        hole=~first,
    )


@dataclass
class _Contours:
    """Contours of every detection polygon as Polygon3 holds them, smallest first per det."""

    x: FloatArray
    y: FloatArray
    start: IntArray  # per contour, into x/y
    length: IntArray
    hole: BoolArray
    first: IntArray  # per det
    count: IntArray  # per det


def _contours(inp: _Inputs, geo: _Geometry, cr: _CutRings) -> _Contours:
    """Uncut dets: their int quad in file vertex order; cut dets: the cut rings, unclosed."""
    plain = np.flatnonzero(~geo.d_cut)
    owner = np.r_[plain, cr.owner].astype(np.intp)
    length = np.r_[np.full(len(plain), 4, dtype=np.intp), cr.length - 1].astype(np.intp)
    keep = np.ones(len(cr.xy), dtype=bool)
    keep[cr.start + cr.length - 1] = False
    xy = np.concatenate([inp.d_ring[plain].reshape(-1, 2), cr.xy[keep]])
    start = (np.cumsum(length) - length).astype(np.intp)
    area = np.r_[np.zeros(len(plain)), _ring_areas(xy, start[len(plain) :], length[len(plain) :])]
    order = np.lexsort((area, owner))
    owner = owner[order]
    return _Contours(
        x=xy[:, 0],
        y=xy[:, 1],
        start=start[order],
        length=length[order],
        hole=np.r_[np.zeros(len(plain), dtype=bool), cr.hole][order],
        first=np.searchsorted(owner, np.arange(inp.n_det)).astype(np.intp),
        count=np.bincount(owner, minlength=inp.n_det).astype(np.intp),
    )


def _ring_areas(xy: FloatArray, start: IntArray, length: IntArray) -> FloatArray:
    """|shoelace| of rings stored at xy[start : start + length] (unclosed)."""
    if len(length) == 0:
        return np.zeros(0)
    ring, k = _expand(length)
    cur = start[ring] + k
    nxt = start[ring] + (k + 1) % length[ring]
    terms = xy[cur, 0] * xy[nxt, 1] - xy[nxt, 0] * xy[cur, 1]
    return np.asarray(np.abs(np.bincount(ring, terms, len(length))) / 2, dtype=np.float64)


def _expand(counts: IntArray) -> tuple[IntArray, IntArray]:
    """(owner, rank) of every item when item block o has counts[o] items."""
    owner = np.repeat(np.arange(len(counts), dtype=np.intp), counts)
    rank = np.arange(len(owner), dtype=np.intp) - np.repeat(np.cumsum(counts) - counts, counts)
    return owner, rank


def _inside(px: FloatArray, py: FloatArray, det: IntArray, c: _Contours) -> BoolArray:
    """Polygon3 ``isInside`` (spec 0.6): PNPOLY per contour, the smallest containing decides."""
    q, rank = _expand(c.count[det])
    contour = c.first[det[q]] + rank
    qc, e = _expand(c.length[contour])
    cont = contour[qc]
    vi = c.start[cont] + e
    vj = c.start[cont] + (e - 1) % c.length[cont]
    x, y = px[q[qc]], py[q[qc]]
    yi, yj, xi, xj = c.y[vi], c.y[vj], c.x[vi], c.x[vj]
    span = ((yi <= y) & (y < yj)) | ((yj <= y) & (y < yi))
    with np.errstate(divide="ignore", invalid="ignore"):
        toggle = span & (x < (xj - xi) * (y - yi) / (yj - yi) + xi)
    odd = (np.bincount(qc, toggle, len(contour)) % 2).astype(bool)
    hit_q = q[odd]
    first = np.unique(hit_q, return_index=True)[1]
    out = np.zeros(len(det), dtype=bool)
    out[hit_q[first]] = ~c.hole[contour[odd][first]]
    return out


@dataclass
class _Hits:
    pcc: IntArray  # hit (PCC index, det) pairs
    det: IntArray
    counts: IntArray  # per PCC: number of matched dets containing it
    found: IntArray  # per GT
    contained: IntArray  # per det
    total: IntArray  # per det


def _hits(inp: _Inputs, pcc: _Pcc, m: _Matching, contours: _Contours) -> _Hits:
    qm, k = _expand(inp.g_len[m.mi])
    idx = pcc.off[m.mi[qm]] + k
    det = m.mj[qm]
    inside = _inside(pcc.xy[idx, 0], pcc.xy[idx, 1], det, contours)
    counts = np.bincount(idx[inside], minlength=len(pcc.gt)).astype(np.intp)
    found = np.bincount(pcc.gt[counts == 1], minlength=inp.n_gt).astype(np.intp)
    contained = np.bincount(det[inside], minlength=inp.n_det).astype(np.intp)
    total = np.bincount(m.mj, inp.g_len[m.mi], minlength=inp.n_det).astype(np.intp)
    return _Hits(idx[inside], det[inside], counts, found, contained, total)


# --------------------------------------------------------------------------- results

_MATCHED, _PARTIAL, _MISSED = Verdict.MATCHED, Verdict.PARTIAL, Verdict.MISSED
_FALSE_POSITIVE, _DONT_CARE = Verdict.FALSE_POSITIVE, Verdict.DONT_CARE


def evaluate_sample(sample: Sample, params: TedEvalParams) -> SampleResult:
    """TedEval of one image (spec 4.3) with the per-image rule of spec 0.9."""
    return evaluate_batch([sample], params)[0]


def evaluate_batch(samples: Sequence[Sample], params: TedEvalParams) -> list[SampleResult]:
    """TedEval of many images in one vectorized pass (same results as ``evaluate_sample``)."""
    if not samples:
        return []
    inp = _inputs(samples, params)
    pcc = _pcc(inp, params)
    geo = _geometry(inp, params)
    matching = _Matcher(inp, geo, params).run()
    rings = _cut_rings(geo)
    hits = _hits(inp, pcc, matching, _contours(inp, geo, rings))
    return _Assembler(inp, geo, pcc, matching, hits, rings).results()


def global_extras(results: Iterable[SampleResult]) -> dict[str, float]:
    """Global AP: always 0 in the official code (T5), reported when confidences were used."""
    return {"ap": 0.0} if any("ap" in r.extra for r in results) else {}


def _sequential_sums(owner: IntArray, values: FloatArray, n: int) -> FloatArray:
    out = np.zeros(n)
    np.add.at(out, owner, values)  # in array order: the official accumulation order
    return out


def _best(
    key: IntArray, partner: IntArray, value: FloatArray, n: int
) -> tuple[list[int], list[float]]:
    """Per key: the partner with the largest value (lowest partner index on ties), -1/0 if none."""
    best = np.full(n, -1, dtype=np.intp)
    val = np.zeros(n)
    if len(key):
        order = np.lexsort((partner, -value, key))
        first = order[_group_starts(key[order])]
        best[key[first]] = partner[first]
        val[key[first]] = value[first]
    return best.tolist(), val.tolist()


def _grouped(key: IntArray, item: IntArray, n: int) -> list[tuple[int, ...]]:
    """Per key 0..n-1: the items of its rows, in ascending item order."""
    out: list[tuple[int, ...]] = [()] * n
    order = np.lexsort((item, key))
    keys = key[order]
    starts, ends = _group_bounds(keys)
    items = item[order].tolist()
    for k, lo, hi in zip(keys[starts].tolist(), starts.tolist(), ends.tolist(), strict=True):
        out[k] = tuple(items[lo:hi])
    return out


class _Assembler:
    """Per-sample SampleResults from the flat arrays (indices back to file order)."""

    def __init__(
        self, inp: _Inputs, geo: _Geometry, pcc: _Pcc, m: _Matching, hits: _Hits, rings: _CutRings
    ) -> None:
        self.inp, self.geo, self.pcc, self.m, self.hits, self.rings = inp, geo, pcc, m, hits, rings
        n = len(inp.samples)
        g_matched = np.bincount(m.mi, minlength=inp.n_gt) > 0
        d_matched = np.bincount(m.mj, minlength=inp.n_det) > 0
        g_credit = np.where(g_matched, hits.found / np.maximum(inp.g_len, 1), 0.0)
        d_credit = np.where(
            d_matched, _ratio(hits.contained.astype(np.float64), hits.total.astype(np.float64)), 0.0
        )
        gm, dm = np.flatnonzero(g_matched), np.flatnonzero(d_matched)
        self.recall_sum = _sequential_sums(inp.g_owner[gm], g_credit[gm], n).tolist()
        self.precision_sum = _sequential_sums(inp.d_owner[dm], d_credit[dm], n).tolist()
        self.g_local = np.arange(inp.n_gt) - inp.g_off[inp.g_owner]
        self.d_pos = inp.d_off[inp.d_owner] + inp.d_file  # global file-order position
        self.n_gt_care = np.bincount(inp.g_owner[~inp.g_dc], minlength=n).tolist()
        self.n_det_care = np.bincount(inp.d_owner[~geo.d_dc], minlength=n).tolist()
        self.oo = self._oo_records()
        self.gt = self._gt_results(g_matched, g_credit)
        self.det = self._det_results(d_matched, d_credit)

    # ---- instances (global lists, file order)
    def _gt_results(self, matched: BoolArray, credit: FloatArray) -> list[InstanceResult]:
        inp, geo, m = self.inp, self.geo, self.m
        care = ~inp.g_dc[geo.pi] & ~geo.d_dc[geo.pj]
        d_local = inp.d_file[geo.pj[care]]
        best, val = _best(geo.pi[care], d_local, geo.recall[care], inp.n_gt)
        partners = _grouped(m.mi, inp.d_file[m.mj], inp.n_gt)
        out = []
        for i, (dc, hit, c, found, length, local) in enumerate(
            zip(
                inp.g_dc.tolist(),
                matched.tolist(),
                credit.tolist(),
                self.hits.found.tolist(),
                inp.g_len.tolist(),
                self.g_local.tolist(),
                strict=True,
            )
        ):
            if dc:
                out.append(InstanceResult(local, _DONT_CARE, values={"found": 0, "length": 0}))
            elif hit:
                values = {"found": found, "length": length}
                out.append(InstanceResult(local, _verdict(c), c, partners[i], values=values))
            else:
                near = NearMiss(best[i], val[i], "area_recall") if val[i] > 0 else None
                values = {"found": 0, "length": length}
                out.append(InstanceResult(local, _MISSED, near_miss=near, values=values))
        return out

    def _det_results(self, matched: BoolArray, credit: FloatArray) -> list[InstanceResult]:
        inp, geo, m = self.inp, self.geo, self.m
        care = ~inp.g_dc[geo.pi] & ~geo.d_dc[geo.pj]
        best, val = _best(geo.pj[care], self.g_local[geo.pi[care]], geo.precision[care], inp.n_det)
        partners = _grouped(m.mj, self.g_local[m.mi], inp.n_det)
        absorbed = np.where(
            geo.d_absorbed >= 0, geo.d_absorbed - inp.g_off[inp.d_owner], -1
        ).tolist()
        out: list[InstanceResult | None] = [None] * inp.n_det
        for j, (pos, f, dc, hit, c) in enumerate(
            zip(
                self.d_pos.tolist(),
                inp.d_file.tolist(),
                geo.d_dc.tolist(),
                matched.tolist(),
                credit.tolist(),
                strict=True,
            )
        ):
            if dc:
                value = float(geo.d_dc_value[j])
                values = {"dc_precision": value, "contained": 0, "total": 0}
                by = absorbed[j] if absorbed[j] >= 0 else None
                out[pos] = InstanceResult(f, _DONT_CARE, absorbed_by=by, values=values)
            elif hit:
                values = {
                    "contained": int(self.hits.contained[j]),
                    "total": int(self.hits.total[j]),
                }
                out[pos] = InstanceResult(f, _verdict(c), c, partners[j], values=values)
            else:
                near = NearMiss(best[j], val[j], "area_precision") if val[j] > 0 else None
                values = {"contained": 0, "total": 0}
                out[pos] = InstanceResult(f, _FALSE_POSITIVE, near_miss=near, values=values)
        return [r for r in out if r is not None]

    # ---- samples
    def results(self) -> list[SampleResult]:
        ev = _Evidence(self.inp, self.geo, self.pcc, self.hits, self.rings)
        return [self._sample(s, ev) for s in range(len(self.inp.samples))]

    def _sample(self, s: int, ev: _Evidence) -> SampleResult:
        inp = self.inp
        g0, g1 = int(inp.g_off[s]), int(inp.g_off[s + 1])
        d0, d1 = int(inp.d_off[s]), int(inp.d_off[s + 1])
        n_gt, n_det = self.n_gt_care[s], self.n_det_care[s]
        rc, pc = self.recall_sum[s], self.precision_sum[s]
        recall, precision, h = per_image_rule(n_gt, n_det, rc, pc)
        extra: dict[str, float] = {"num_gt_care": n_gt, "num_det_care": n_det}
        if inp.sorted_by_conf[s]:
            extra["ap"] = precision if n_gt == 0 else 0.0
        return SampleResult(
            metric=ID,
            sample_id=inp.samples[s].id,
            recall=recall,
            precision=precision,
            hmean=h,
            tally=credit_tally(n_gt, n_det, rc, pc),
            gt=tuple(self.gt[g0:g1]),
            det=tuple(self.det[d0:d1]),
            matches=(*self.m.mo[s], *self.oo[s], *self.m.om[s]),
            evidence=ev.sample(g0, g1, d0, d1, self.m.multiline[s]),
            extra=extra,
        )

    def _oo_records(self) -> list[list[MatchRecord]]:
        """OO MatchRecords of every sample, built in one pass."""
        m, inp = self.m, self.inp
        kind = MatchKind.ONE_TO_ONE
        records = [
            MatchRecord(kind, (i,), (j,), {"d": d, "area_recall": r, "area_precision": p}, "OO")
            for i, j, (d, r, p) in zip(
                self.g_local[m.oo_i].tolist(),
                inp.d_file[m.oo_j].tolist(),
                m.oo_values.tolist(),
                strict=True,
            )
        ]
        bounds = np.searchsorted(inp.g_owner[m.oo_i], np.arange(len(inp.samples) + 1)).tolist()
        return [records[bounds[s] : bounds[s + 1]] for s in range(len(inp.samples))]


class _Evidence:
    """The viewer's evidence of spec 4.5, per sample, from global per-GT tables built once."""

    def __init__(
        self, inp: _Inputs, geo: _Geometry, pcc: _Pcc, hits: _Hits, rings: _CutRings
    ) -> None:
        self.geo = geo
        lo, hi = pcc.off[:-1].tolist(), pcc.off[1:].tolist()
        counts = hits.counts
        counts.flags.writeable = False
        hit_by = _grouped(hits.pcc, inp.d_file[hits.det], len(pcc.gt))
        self.pcc = [pcc.xy[a:b] for a, b in zip(lo, hi, strict=True)]
        self.hits = [counts[a:b] for a, b in zip(lo, hi, strict=True)]
        self.hit_by = [tuple(hit_by[a:b]) for a, b in zip(lo, hi, strict=True)]
        self.vertical = pcc.vertical.tolist()
        self.rule = geo.d_rule.tolist()
        self.cut = geo.d_cut.tolist()
        self.file = inp.d_file.tolist()
        self.rings: dict[int, list[FloatArray]] = {}
        for j, a, n in zip(
            rings.owner.tolist(), rings.start.tolist(), rings.length.tolist(), strict=True
        ):
            self.rings.setdefault(j, []).append(rings.xy[a : a + n])

    def sample(
        self, g0: int, g1: int, d0: int, d1: int, multiline: list[dict[str, Any]]
    ) -> dict[str, Any]:
        dets = range(d0, d1)
        return {
            "pcc": tuple(self.pcc[g0:g1]),
            "pcc_vertical": tuple(self.vertical[g0:g1]),
            "pcc_hits": tuple(self.hits[g0:g1]),
            "pcc_hit_by": tuple(self.hit_by[g0:g1]),
            "multiline": tuple(multiline),
            "dc_det_rule": {self.file[j]: _RULE_NAMES[self.rule[j]] for j in dets if self.rule[j]},
            "det_polygons_after_dc": {
                self.file[j]: tuple(self.rings.get(j, ())) for j in dets if self.cut[j]
            },
        }


def _verdict(credit: float) -> Verdict:
    return _MATCHED if credit >= 1.0 else _PARTIAL
