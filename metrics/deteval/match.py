"""DetEval matching (spec 2.3): the one-to-one / split / merge steps with their discarded
candidates, on the overlapping pairs of ``metrics.deteval.geometry``.

Used by ``metrics.deteval.metric`` only (which documents the official behaviour reproduced here).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from metrics.core.records import dataclass, field
from metrics.core.results import MatchKind, MatchRecord
from metrics.deteval.evidence import Discarded
from metrics.deteval.geometry import Geometry, center_distance
from metrics.deteval.params import DetEvalParams

BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.intp]


# --------------------------------------------------------------------------- matching (2.3)


@dataclass
class Matcher:
    """Mutable state of the OO -> OM -> MO passes over one image."""

    geo: Geometry
    params: DetEvalParams
    records: bool = True  # False: no match records, match types or discarded candidates
    gt_credit: dict[int, float] = field(default_factory=dict)
    det_credit: dict[int, float] = field(default_factory=dict)
    gt_partners: dict[int, tuple[int, ...]] = field(default_factory=dict)
    det_partners: dict[int, tuple[int, ...]] = field(default_factory=dict)
    matches: list[MatchRecord] = field(default_factory=list)
    match_types: list[str] = field(default_factory=list)
    discarded: list[Discarded] = field(default_factory=list)
    recall_sum: float = 0.0
    precision_sum: float = 0.0
    qualifies: list[bool] = field(init=False)
    row_count: IntArray = field(init=False)
    col_count: IntArray = field(init=False)
    gt_overlaps: IntArray = field(init=False)
    det_overlaps: IntArray = field(init=False)
    gt_used: list[bool] = field(init=False)
    det_used: list[bool] = field(init=False)

    def __post_init__(self) -> None:
        p, geo = self.params, self.geo
        q = (geo.recall >= p.area_recall) & (geo.precision >= p.area_precision)
        self.row_count = np.bincount(geo.pi[q], minlength=len(geo.gt_dc))
        self.col_count = np.bincount(geo.pj[q], minlength=len(geo.det_dc))
        self.gt_overlaps = geo.gt_overlaps
        self.det_overlaps = geo.det_overlaps
        self.gt_used = [False] * len(geo.gt_dc)
        self.det_used = [False] * len(geo.det_dc)
        # the pairs as Python lists: the passes below visit them one by one
        self.qualifies = q.tolist()
        self._pi, self._pj = geo.pi.tolist(), geo.pj.tolist()
        self._rec, self._prec = geo.recall.tolist(), geo.precision.tolist()
        self._gt_dc, self._det_dc = geo.gt_dc.tolist(), geo.det_dc.tolist()
        self._row, self._col, self._by_col = geo.row.tolist(), geo.col.tolist(), geo.by_col.tolist()
        self._rows_q, self._cols_q = self.row_count.tolist(), self.col_count.tolist()
        self._gt_n, self._det_n = self.gt_overlaps.tolist(), self.det_overlaps.tolist()
        self._gt_box, self._det_box = geo.gt.tolist(), geo.det.tolist()

    def run(self) -> Matcher:
        for i in np.flatnonzero(~self.geo.gt_dc).tolist():
            self.one_to_one(i)
        for i in np.flatnonzero(~self.geo.gt_dc).tolist():
            self.one_to_many(i)
        for j in np.flatnonzero(~self.geo.det_dc).tolist():
            self.many_to_one(j)
        return self

    # ---- OO
    def one_to_one(self, i: int) -> None:
        """Step 3: only pairs meeting both area thresholds can pass the uniqueness test."""
        pairs = range(self._row[i], self._row[i + 1])
        for k in [k for k in pairs if self.qualifies[k] and not self._det_dc[self._pj[k]]]:
            if self.gt_used[i]:
                return
            if not self.det_used[self._pj[k]]:
                self._try_pair(i, self._pj[k], k)

    def _try_pair(self, i: int, j: int, k: int) -> None:
        if self._rows_q[i] != 1 or self._cols_q[j] != 1:
            self._discard(
                "not_unique", gt=i, det=j, row_count=self._rows_q[i], col_count=self._cols_q[j]
            )
            return
        n_gt, n_det = self._gt_n[i], self._det_n[j]
        if not self.params.legacy and (n_gt != 1 or n_det != 1):
            self._discard("not_single_overlap", gt=i, det=j, gt_overlaps=n_gt, det_overlaps=n_det)
            return
        d = center_distance(self._gt_box[i], self._det_box[j])
        if d >= self.params.center_diff:
            self._discard("center_distance", gt=i, det=j, d=d)
            return
        w = self.params.w_oo
        values = {"area_recall": self._rec[k], "area_precision": self._prec[k], "d": d}
        self._accept((i,), (j,), MatchKind.ONE_TO_ONE, "OO", "OO", w, w, values)

    # ---- OM
    def one_to_many(self, i: int) -> None:
        """Step 4: split of GT i over the unused dets with P(i, j) >= area_precision."""
        if self.gt_used[i]:
            return
        ap, pj = self.params.area_precision, self._pj
        ks = [
            k
            for k in range(self._row[i], self._row[i + 1])
            if not self.det_used[pj[k]] and not self._det_dc[pj[k]] and self._prec[k] >= ap
        ]
        if not ks:
            return
        dets = tuple(pj[k] for k in ks)
        s = _sequential_sum([self._rec[k] for k in ks])
        if self._rounded(s) < self.params.area_recall:
            self._discard("sum_below_threshold", stage="OM", gt=(i,), det=dets, S=s)
            return
        n = self._gt_n[i]
        if not self.params.legacy and n < 2:
            self._discard("om_not_single", stage="OM", gt=(i,), det=dets, S=s, gt_overlaps=n)
            return
        self._accept_group("OM", (i,), dets, s, n)

    # ---- MO
    def many_to_one(self, j: int) -> None:
        """Step 5: merge into det j of the unused GTs with R(i, j) >= area_recall."""
        if self.det_used[j]:
            return
        ar, pi = self.params.area_recall, self._pi
        ks = [
            k
            for k in self._by_col[self._col[j] : self._col[j + 1]]
            if not self.gt_used[pi[k]] and not self._gt_dc[pi[k]] and self._rec[k] >= ar
        ]
        if not ks:
            return
        gts = tuple(pi[k] for k in ks)
        s = _sequential_sum([self._prec[k] for k in ks])
        if self._rounded(s) < self.params.area_precision:
            self._discard("sum_below_threshold", stage="MO", gt=gts, det=(j,), S=s)
            return
        n = self._det_n[j]
        if not self.params.legacy and n < 2:
            self._discard("mo_not_single", stage="MO", gt=gts, det=(j,), S=s, det_overlaps=n)
            return
        self._accept_group("MO", gts, (j,), s, n)

    def _accept_group(
        self, stage: str, gts: tuple[int, ...], dets: tuple[int, ...], s: float, n_overlaps: int
    ) -> None:
        """Credit a split (OM) or a merge (MO); one member counts as OO (Q3)."""
        p = self.params
        sum_key = "recall_sum" if stage == "OM" else "precision_sum"
        values = {sum_key: s, "rounded_sum": self._rounded(s), "overlaps": float(n_overlaps)}
        if len(gts) == len(dets) == 1 and not p.legacy:
            self._accept(
                gts, dets, MatchKind.ONE_TO_ONE, "OO", f"OO-via-{stage}", p.w_oo, p.w_oo, values
            )
        elif stage == "OM":
            self._accept(gts, dets, MatchKind.SPLIT, "OM", "OM", p.w_om, p.w_om, values)
        else:
            self._accept(gts, dets, MatchKind.MERGE, "MO", "MO", p.w_mo, p.w_mo, values)

    def _accept(
        self,
        gts: tuple[int, ...],
        dets: tuple[int, ...],
        kind: MatchKind,
        label: str,
        match_type: str,
        gt_w: float,
        det_w: float,
        values: dict[str, float],
    ) -> None:
        """Mark a group matched; accumulate credits as the official (w x group size)."""
        self.recall_sum += gt_w * len(gts)
        self.precision_sum += det_w * len(dets)
        for i in gts:
            self.gt_used[i] = True
            self.gt_credit[i] = gt_w
            self.gt_partners[i] = dets
        for j in dets:
            self.det_used[j] = True
            self.det_credit[j] = det_w
            self.det_partners[j] = gts
        if not self.records:
            return
        values = {**values, "recall_credit": gt_w * len(gts), "precision_credit": det_w * len(dets)}
        self.matches.append(MatchRecord(kind, gts, dets, values, label))
        self.match_types.append(match_type)

    def _rounded(self, s: float) -> float:
        return s if self.params.legacy else round(s, 4)

    def _discard(
        self,
        reason: str,
        *,
        gt: int | tuple[int, ...],
        det: int | tuple[int, ...],
        stage: str = "OO",
        **values: float,
    ) -> None:
        if not self.records:
            return
        self.discarded.append(
            Discarded(
                reason,
                gt if isinstance(gt, tuple) else (gt,),
                det if isinstance(det, tuple) else (det,),
                stage,
                {k: float(v) for k, v in values.items()},
            )
        )


def _sequential_sum(values: list[float]) -> float:
    """Left-to-right float sum, as the official loop (``numpy.sum`` is pairwise)."""
    total = 0.0
    for v in values:
        total += v
    return total


# --------------------------------------------------------------------------- results (2.4)
