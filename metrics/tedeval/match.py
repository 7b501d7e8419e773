"""TedEval matching (spec 4.3 steps 7-10, 4.4): MO, OO and OM records and the multiline test.

Records keep the official order per sample: MO (det order), OO (GT, det order), OM (GT order).
Used by ``metrics.tedeval.metric``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import shapely

from metrics.core.arrays import unique_values
from metrics.core.evidence import AnglePair, MultilineTest
from metrics.core.model import FloatArray
from metrics.core.records import dataclass
from metrics.core.results import MatchKind, MatchRecord
from metrics.tedeval.geometry import Geometry
from metrics.tedeval.inputs import (
    Inputs,
    IntArray,
    diagonals,
    expand,
    group_bounds,
    midpoints,
    quad_centers,
)
from metrics.tedeval.params import TedEvalParams


@dataclass
class Matching:
    """Records in official order per sample: MO (det order), OO (GT, det order), OM (GT order).

    MO/OM are MatchRecords with file indices already; OO stays as arrays (global indices) with
    their values (d, R, P) until the results are assembled.
    """

    mo: list[list[MatchRecord]]  # per sample
    om: list[list[MatchRecord]]
    oo_i: IntArray
    oo_j: IntArray
    oo_values: FloatArray  # (n, 3): d, area recall, area precision
    multiline: list[list[MultilineTest]]  # per sample
    mi: IntArray  # matched (GT, det) pairs of all records, unique, sorted
    mj: IntArray


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
    return np.stack([midpoints(ring, 0, 3), centers], axis=1)


def _angle(l_a: Sequence[float], c_a: Sequence[float], c_b: Sequence[float]) -> float:
    """Official ``get_angle_3pt(l_a, c_b, c_a)`` folded to [0, 180]."""
    ang = math.degrees(
        math.atan2(c_a[1] - c_b[1], c_a[0] - c_b[0]) - math.atan2(l_a[1] - c_b[1], l_a[0] - c_b[0])
    )
    theta = ang + 360 if ang < 0 else ang
    return 360 - theta if theta > 180 else theta


def _multiline_test(
    kind: str,
    gt: tuple[int, ...],
    det: tuple[int, ...],
    labels: list[int],
    pivots: list[list[list[float]]],
    threshold: float,
) -> MultilineTest:
    """Spec 4.4 on every ordered pair; the first failing pair is the official decision."""
    pairs: list[AnglePair] = []
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
            pairs.append(AnglePair(labels[a], labels[b], theta, angle, passed))
    return MultilineTest(
        kind=kind,
        gt=gt,
        det=det,
        pairs=tuple(pairs),
        rejected=rejecting is not None,
        rejecting_pair=rejecting,
        pivots={
            k: ((p[0][0], p[0][1]), (p[1][0], p[1][1])) for k, p in zip(labels, pivots, strict=True)
        },
    )


class Matcher:
    """Steps 7-10 over a block of samples."""

    def __init__(self, inp: Inputs, geo: Geometry, params: TedEvalParams) -> None:
        self.inp, self.geo, self.params = inp, geo, params
        self.care = ~inp.g_dc[geo.pi] & ~geo.d_dc[geo.pj]
        n = len(inp.samples)
        self.multiline: list[list[MultilineTest]] = [[] for _ in range(n)]
        self.pairs: list[tuple[int, int]] = []  # (GT, det) pairs of accepted MO/OM records

    def run(self) -> Matching:
        mo = self.groups("MO")
        oo_i, oo_j, oo_values = self.one_to_one()
        om = self.groups("OM")
        width = max(1, self.inp.n_det)
        gi = np.asarray([i for i, _ in self.pairs], dtype=np.intp)
        gj = np.asarray([j for _, j in self.pairs], dtype=np.intp)
        key = unique_values(np.r_[oo_i * width + oo_j, gi * width + gj].astype(np.intp))
        return Matching(mo, om, oo_i, oo_j, oo_values, self.multiline, key // width, key % width)

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
        dc = quad_centers(self.inp.d_ring[j])
        cut = self.geo.d_cut[j]
        if cut.any():
            cent = shapely.centroid(self.geo.d.geometries(j[cut]))
            dc[cut] = np.stack([shapely.get_x(cent), shapely.get_y(cent)], axis=1)
        gc = quad_centers(self.inp.g_ring[i])
        dx, dy = np.abs(gc[:, 0] - dc[:, 0]), np.abs(gc[:, 1] - dc[:, 1])
        dist = np.sqrt(dx * dx + dy * dy)
        dist = dist / (diagonals(self.inp.g_pts[i]) + diagonals(self.inp.d_pts[j]))
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
        starts, ends = group_bounds(keys)
        sums = np.zeros(len(starts))
        np.add.at(sums, np.repeat(np.arange(len(starts)), ends - starts), value[rows])
        chosen = np.flatnonzero((ends - starts >= 2) & (sums >= threshold))
        out: list[list[MatchRecord]] = [[] for _ in inp.samples]
        if len(chosen) == 0:
            return out
        size = ends[chosen] - starts[chosen]
        grp, k = expand(size)
        sel = member[rows[starts[chosen][grp] + k]]  # members of the chosen groups, in order
        t = _GroupTables(inp, kind, keys[starts[chosen]], sel, p)
        bounds = np.r_[0, np.cumsum(size)].tolist()
        for g, total in enumerate(sums[chosen].tolist()):
            lo, hi = bounds[g], bounds[g + 1]
            self._group(kind, g, t.members[lo:hi], t.labels[lo:hi], t.pivots[lo:hi], total, t, out)
        return out

    def _group(
        self,
        kind: str,
        g: int,
        members: list[int],
        labels: list[int],
        pivots: list[list[list[float]]],
        total: float,
        t: _GroupTables,
        out: list[list[MatchRecord]],
    ) -> None:
        head, s, head_label = t.heads[g], t.owner[g], t.head_labels[g]
        local_g: tuple[int, ...]
        local_d: tuple[int, ...]
        if kind == "MO":
            gts, dets = members, [head]
            local_g, local_d = tuple(labels), (head_label,)
        else:
            gts, dets = [head], members
            local_g, local_d = (head_label,), tuple(labels)
        test = _multiline_test(kind, local_g, local_d, labels, pivots, self.params.multiline_angle)
        self.multiline[s].append(test)
        if test.rejected:
            return
        self.pairs.extend((i, j) for i in gts for j in dets)
        key = "precision_sum" if kind == "MO" else "recall_sum"
        values = {key: total, "members": float(len(members))}
        label_kind = MatchKind.MERGE if kind == "MO" else MatchKind.SPLIT
        out[s].append(MatchRecord(label_kind, local_g, local_d, values, kind))


class _GroupTables:
    """Python lists of the chosen MO/OM groups (no numpy scalars inside the loop): per group
    its head, sample and head label; per member (concatenated) index, label and pivots."""

    def __init__(
        self,
        inp: Inputs,
        kind: str,
        heads: IntArray,
        members: IntArray,
        params: TedEvalParams,
    ) -> None:
        g_local = np.arange(inp.n_gt) - inp.g_off[inp.g_owner]
        if kind == "MO":
            self.owner = inp.d_owner[heads].tolist()
            self.head_labels = inp.d_file[heads].tolist()
            self.labels = g_local[members].tolist()
            ring = inp.g_ring[members]
        else:
            self.owner = inp.g_owner[heads].tolist()
            self.head_labels = g_local[heads].tolist()
            self.labels = inp.d_file[members].tolist()
            ring = inp.d_ring[members]
        self.heads = heads.tolist()
        self.members = members.tolist()
        self.pivots = _pivots(ring, quad_centers(ring), params).tolist()
