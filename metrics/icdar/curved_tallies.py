"""curved_iou / curved_siou / curved_tiou when only the tallies are read (``Detail.TALLIES``).

The same matching as ``metrics.icdar.batch.evaluate_batch`` (spec 1.2 and 3.2), clipping
only the candidate pairs whose numbers can change a tally; curved polygons go through GEOS
one pair at a time, which is most of the evaluation. A pair is clipped when an upper bound
of its intersection (``metrics.shapes.lazy.LazyPairs.bounds``) lets it make its detection
don't-care (|D ∩ G| / |D| above ``dc_area_precision`` for a don't-care G) or reach the IoU
threshold; under TIoU also every pair of a matched detection (its outlier GTs are the
other GTs it overlaps). A pair left out cannot pass either test, so it takes the value 0 in
both, which decides the same way; every number read from a clipped pair is the one
``flat_geometry`` gives.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from metrics.core.model import FloatArray, Sample
from metrics.core.results import SampleResult
from metrics.icdar.batch import Pairs, match_numbers, ranks, scored_only
from metrics.icdar.greedy import Score, tiou_options
from metrics.icdar.params import CurvedParams
from metrics.shapes.lazy import LazyPairs
from metrics.shapes.matching import BoolArray, dont_care_dets, greedy_pairs, pair_iou
from metrics.shapes.mode import Mode

_SLACK = 1e-9  # a bound this close below a threshold is clipped too (rounding)


def evaluate_tallies(
    samples: Sequence[Sample], params: CurvedParams, metric: str, score: Score, mode: Mode
) -> list[SampleResult]:
    """The block's results as ``evaluate_batch`` gives them in ``Detail.TALLIES``."""
    if not samples:
        return []
    lz = mode.cache.lazy(samples, "curved")
    f = lz.f
    g_dc = np.fromiter(
        (g.dont_care for s in samples for g in s.gt), dtype=bool, count=len(f.g_area)
    )
    lz.need(np.flatnonzero(_may_pass(lz, g_dc, params)))
    inter = lz.inter()
    det_dc, _ = dont_care_dets(f.pi, f.pj, inter, f.d_area, g_dc, params.dc_area_precision)
    iou = pair_iou(inter, f.g_area[f.pi], f.d_area[f.pj])
    rank = ranks(samples, f, params.confidences)
    m = greedy_pairs(f.pi, f.pj, iou, rank, ~g_dc, ~det_dc, params.iou_threshold)
    if score == "tiou":  # the outlier GTs of each matched det: its pairs of nonzero area
        matched = np.zeros(len(f.d_area), dtype=bool)
        matched[f.pj[m]] = True
        lz.need(np.flatnonzero(matched[f.pj]))
        inter = lz.inter()
    opts = tiou_options(params, curved=True)
    mt = match_numbers(f, Pairs(f.pi, f.pj, inter, iou), m, g_dc, score, opts, regions=False)
    return scored_only(samples, f, g_dc, det_dc, mt, metric)


def _may_pass(lz: LazyPairs, g_dc: BoolArray, params: CurvedParams) -> BoolArray:
    """Pairs whose intersection bound lets them absorb their detection (don't-care G) or
    reach the IoU threshold (cared-for G)."""
    f, top = lz.f, lz.bounds()
    d_area = f.d_area[f.pj]
    with np.errstate(divide="ignore", invalid="ignore"):
        prec_top = np.where(d_area > 0, top / np.where(d_area > 0, d_area, 1.0), 0.0)
    absorbs = g_dc[f.pi] & (prec_top > params.dc_area_precision - _SLACK)
    rest = f.g_area[f.pi] + f.d_area[f.pj] - top
    with np.errstate(divide="ignore", invalid="ignore"):
        iou_top: FloatArray = top / np.where(rest > 0, rest, 1.0)
    reaches = ~g_dc[f.pi] & ((rest <= 0) | (iou_top > params.iou_threshold - _SLACK))
    out: BoolArray = absorbs | reaches
    return out
