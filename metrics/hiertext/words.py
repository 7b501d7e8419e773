"""Word level overlaps (HIERTEXT.md section 2): shapely polygons, as ``polygon_ops.py`` does.

A word is ``Polygon(vertices)``, replaced by ``make_valid`` when invalid (its area is the
repaired area); its axis-aligned box comes from the vertices as given. Two words intersect
(``area(P ∩ Q)``, float64) only when their boxes overlap with positive area and both areas
are at least 1e-5; otherwise the intersection is 0.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
import shapely

from metrics.core.model import Sample
from metrics.hiertext.masks import boxes_overlap, word_boxes
from metrics.hiertext.match import EPSILON, Overlaps
from metrics.shapes import robust
from metrics.shapes.geometry import polygons

BoolArray = npt.NDArray[np.bool_]


def word_overlaps(samples: Sequence[Sample]) -> list[Overlaps]:
    """Intersections of every GT word with every detected word, per sample; the polygons
    and intersections of the whole block are computed in one vectorized call each."""
    words = [w for s in samples for w in (*s.gt, *s.det)]
    if not words:
        geoms, areas, boxes = np.empty(0, dtype=object), np.zeros(0), np.zeros((0, 4))
    else:
        geoms, _ = polygons([w.points for w in words])
        areas, boxes = shapely.area(geoms), word_boxes(words)
    pairs, dc_pairs, k = [], [], 0
    for s in samples:
        n, m = len(s.gt), len(s.det)
        g, d = slice(k, k + n), slice(k + n, k + n + m)
        cand = boxes_overlap(boxes[g], boxes[d])
        cand &= (areas[g][:, None] >= EPSILON) & (areas[d][None, :] >= EPSILON)
        ii, jj = np.nonzero(cand)
        pairs.append((ii, jj, ii + k, jj + k + n))
        dc = np.fromiter((s.gt[i].dont_care for i in ii), dtype=bool, count=len(ii))
        dc_pairs.append(dc)
        k += n + m
    a = np.concatenate([p[2] for p in pairs]).astype(np.intp) if pairs else np.zeros(0, np.intp)
    b = np.concatenate([p[3] for p in pairs]).astype(np.intp) if pairs else np.zeros(0, np.intp)
    dcs = np.concatenate(dc_pairs) if dc_pairs else np.zeros(0, dtype=bool)
    inter = shapely.area(robust.intersection(geoms[a], geoms[b]))
    dc_inter = np.zeros(len(a))
    dc_inter[dcs] = shapely.area(robust.intersection(geoms[b[dcs]], geoms[a[dcs]]))
    out, k, q = [], 0, 0
    for s, (ii, jj, _, _) in zip(samples, pairs, strict=True):
        n, m = len(s.gt), len(s.det)
        full, dc_full = np.zeros((n, m)), np.zeros((n, m))
        full[ii, jj] = inter[q : q + len(ii)]
        dc_full[ii, jj] = dc_inter[q : q + len(ii)]
        out.append(Overlaps(full, dc_full, areas[k : k + n], areas[k + n : k + n + m], False))
        k, q = k + n + m, q + len(ii)
    return out
