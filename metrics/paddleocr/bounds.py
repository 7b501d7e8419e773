"""Which pairs PaddleOCR's evaluation must clip: upper bounds of each pair's IoU and area
precision (``intersection_bounds``: the smaller area and the boxes' overlap), the pairs
that can decide the don't-care test or a match, and for near misses the pairs that could
still be an unmatched instance's best partner.

A pair left out can change nothing: its bound is below the threshold of every test it
could take part in, or below the best IoU already clipped for each of its instances.
"""

from __future__ import annotations

import numpy as np

from metrics.core.model import FloatArray
from metrics.paddleocr.params import PaddleParams
from metrics.shapes.geometry import FlatGeometry, intersection_bounds
from metrics.shapes.matching import BoolArray, IntArray, best_partner, pair_iou

NEAR = 1e-9  # ratios this close to a threshold are recomputed with GEOS as PaddleOCR does
SLACK = 1e-6  # an IoU bound is compared with the best IoU with this margin (float error)


def pair_bounds(
    f: FlatGeometry, g_area: FloatArray, d_area: FloatArray
) -> tuple[FloatArray, FloatArray]:
    """Upper bounds of each pair's IoU and of the area precision of its detection."""
    top = intersection_bounds(f, g_area, d_area)
    bound_iou = pair_iou(top, g_area[f.pi], d_area[f.pj])
    bound_prec = top / np.where(d_area[f.pj] > 0, d_area[f.pj], np.inf)
    return bound_iou, bound_prec


def decisive(
    f: FlatGeometry,
    use: BoolArray,
    g_dc: BoolArray,
    params: PaddleParams,
    bounds: tuple[FloatArray, FloatArray],
) -> IntArray:
    """Pairs whose bound can pass the IoU test, or the don't-care test with a ### GT."""
    bound_iou, bound_prec = bounds
    return np.flatnonzero(
        use
        & (
            (bound_iou > params.iou_constraint - NEAR)
            | (g_dc[f.pi] & (bound_prec > params.area_precision_constraint - NEAR))
        )
    )


def open_near(
    f: FlatGeometry,
    iou: FloatArray,
    done: BoolArray,
    bound_iou: FloatArray,
    care: tuple[BoolArray, BoolArray],
    free: tuple[BoolArray, BoolArray],
) -> tuple[BoolArray, BoolArray]:
    """Pairs not yet clipped (``done``) that could be the best (or tie with the best) care
    partner of an unmatched care GT, and of an unmatched care detection: their IoU bound
    reaches the best IoU clipped so far (``iou``, -1 where not clipped)."""
    (g_care, d_care), (g_free, d_free) = care, free
    best_g = best_partner(f.pi, f.pj, np.where(d_care[f.pj], iou, -1.0), len(g_care))[1]
    best_d = best_partner(f.pj, f.pi, np.where(g_care[f.pi], iou, -1.0), len(d_care))[1]
    reach = ~done & (bound_iou > 0)
    ceiling = bound_iou + SLACK
    return (
        reach & g_free[f.pi] & d_care[f.pj] & (ceiling >= best_g[f.pi]),
        reach & d_free[f.pj] & g_care[f.pi] & (ceiling >= best_d[f.pj]),
    )


def top_per(key: IntArray, value: FloatArray, sel: BoolArray) -> IntArray:
    """Per ``key`` among ``sel``: the index of the highest ``value``."""
    k = np.flatnonzero(sel)
    order = k[np.lexsort((-value[k], key[k]))]
    return order[np.r_[True, key[order][1:] != key[order][:-1]]] if len(k) else k
