"""The three passes of ``Deteval.py`` on the rounded sigma / tau tables (spec D3-D5).

Indices here are positions in the tables: rows = care GTs, columns = detections kept by the
don't-care filter. Credits are added one match at a time in the script's order, so the
per-image sums are the script's own floating-point values.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from metrics.core.model import FloatArray
from metrics.core.records import dataclass, field
from metrics.totaltext.params import TotalTextDetEvalParams

BoolArray = npt.NDArray[np.bool_]


@dataclass(frozen=True, slots=True)
class Match:
    """One credited match: the official type name, table positions and the credits added.

    ``tau_det`` is the detection of the one-to-one test (b) when it is not the matched one
    (quirk 5: the sigma and tau candidates are counted separately).
    """

    label: str
    gt: tuple[int, ...]
    det: tuple[int, ...]
    recall: float
    precision: float
    tau_det: int | None = None


@dataclass
class Passes:
    """State of one image's matching: flags, matches in event order, the two sums."""

    sigma: FloatArray
    tau: FloatArray
    params: TotalTextDetEvalParams
    gt_flag: BoolArray = field(init=False)
    det_flag: BoolArray = field(init=False)
    matches: list[Match] = field(default_factory=list)
    acc_recall: float = 0.0
    acc_precision: float = 0.0

    def __post_init__(self) -> None:
        self.gt_flag = np.zeros(self.sigma.shape[0], dtype=bool)
        self.det_flag = np.zeros(self.sigma.shape[1], dtype=bool)

    def run(self) -> Passes:
        if self.sigma.size:
            self.one_to_one()
            self.one_to_many()
            self.many_to_one()
        return self

    def _add(self, m: Match) -> None:
        self.matches.append(m)
        self.acc_recall += m.recall
        self.acc_precision += m.precision
        self.gt_flag[list(m.gt)] = True
        self.det_flag[list(m.det)] = True

    def one_to_one(self) -> None:
        """D3: one det with sigma > tr, one with tau > tp, each unique in its column."""
        p = self.params
        s_hit, t_hit = self.sigma > p.tr, self.tau > p.tp
        s_det, t_det = np.argmax(s_hit, axis=1), np.argmax(t_hit, axis=1)
        ok = (s_hit.sum(axis=1) == 1) & (t_hit.sum(axis=1) == 1)
        ok &= (s_hit.sum(axis=0)[s_det] == 1) & (t_hit.sum(axis=0)[t_det] == 1)
        if p.oo_same_det:
            ok &= s_det == t_det
        for g in np.flatnonzero(ok):
            d, td = int(s_det[g]), int(t_det[g])
            self._add(Match("OO", (int(g),), (d,), 1.0, 1.0, None if td == d else td))

    def one_to_many(self) -> None:
        """D4: one GT, several dets (k dets with sigma > 0 among all dets, quirk 9)."""
        p = self.params
        for g in range(self.sigma.shape[0]):
            if self.gt_flag[g] or np.count_nonzero(self.sigma[g] > 0) < p.k:
                continue
            cand = np.flatnonzero((self.tau[g] >= p.tp) & ~self.det_flag)
            dets = tuple(int(d) for d in cand)
            if len(cand) == 1:
                d = dets[0]
                if self.tau[g, d] >= p.tp and self.sigma[g, d] >= p.tr:
                    self._add(Match("OM_single", (g,), dets, 1.0, 1.0))
            elif len(cand) and np.sum(self.sigma[g, cand]) >= p.tr:
                self._add(Match("OM", (g,), dets, p.fsc_k, len(cand) * p.fsc_k))

    def many_to_one(self) -> None:
        """D5: several GTs, one det; GTs qualify with sigma >= tp (quirk 8) by default."""
        p = self.params
        gt_threshold = p.tp if p.merge_gt_threshold == "tp" else p.tr
        for d in range(self.sigma.shape[1]):
            if self.det_flag[d] or np.count_nonzero(self.tau[:, d] > 0) < p.k:
                continue
            cand = np.flatnonzero((self.sigma[:, d] >= gt_threshold) & ~self.gt_flag)
            gts = tuple(int(g) for g in cand)
            if len(cand) == 1:
                g = gts[0]
                if self.tau[g, d] >= p.tp and self.sigma[g, d] >= p.tr:
                    self._add(Match("MO_single", gts, (d,), 1.0, 1.0))
            elif len(cand) and np.sum(self.tau[cand, d]) >= p.tp:
                self._add(Match("MO", gts, (d,), len(cand) * p.fsc_k, p.fsc_k))


def rounded_ratio(inter: FloatArray, area: FloatArray, decimals: int) -> FloatArray:
    """``np.round(inter / area, decimals)`` (D2), 0 where the area is 0 (the script would
    divide by zero there)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(area > 0, inter / np.where(area > 0, area, 1.0), 0.0)
    return np.asarray(np.round(ratio, decimals), dtype=np.float64)


def sigma_tau(
    inter: FloatArray, gt_area: FloatArray, det_area: FloatArray, decimals: int
) -> tuple[FloatArray, FloatArray]:
    """Rounded sigma = inter / area(G) and tau = inter / area(D) of a care x kept table."""
    sigma = rounded_ratio(inter, np.broadcast_to(gt_area[:, None], inter.shape), decimals)
    tau = rounded_ratio(inter, np.broadcast_to(det_area[None, :], inter.shape), decimals)
    return sigma, tau
