"""Word level overlaps (HIERTEXT.md section 2): shapely polygons, as ``polygon_ops.py`` does.

A word is ``Polygon(vertices)``, replaced by ``make_valid`` when invalid (its area is the
repaired area); its axis-aligned box comes from the vertices as given. Two words intersect
(``area(P ∩ Q)``, float64) only when their boxes overlap with positive area and both areas
are at least 1e-5; otherwise the intersection is 0.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import shapely

from metrics.geometry import GeomArray, polygons
from metrics.hiertext.masks import boxes_overlap
from metrics.hiertext.match import EPSILON, Overlaps
from metrics.model import FloatArray, Instance, Sample

BoolArray = npt.NDArray[np.bool_]


def _shapes(words: tuple[Instance, ...]) -> tuple[GeomArray, FloatArray, FloatArray]:
    """Polygons (repaired), their areas and the boxes ``[ymin, xmin, ymax, xmax]``."""
    if not words:
        return np.empty(0, dtype=object), np.zeros(0), np.zeros((0, 4))
    geoms, _ = polygons([w.points for w in words])
    boxes = np.array(
        [
            (w.points[:, 1].min(), w.points[:, 0].min(), w.points[:, 1].max(), w.points[:, 0].max())
            for w in words
        ]
    )
    return geoms, shapely.area(geoms), boxes


def word_overlaps(sample: Sample) -> Overlaps:
    """Intersections of every GT word with every detected word of the sample."""
    g, ga, gb = _shapes(sample.gt)
    d, da, db = _shapes(sample.det)
    inter = np.zeros((len(g), len(d)))
    dc_inter = np.zeros((len(g), len(d)))
    if inter.size:
        cand = boxes_overlap(gb, db) & (ga[:, None] >= EPSILON) & (da[None, :] >= EPSILON)
        ii, jj = np.nonzero(cand)
        if len(ii):
            inter[ii, jj] = shapely.area(shapely.intersection(g[ii], d[jj]))
            dc = np.fromiter((sample.gt[i].dont_care for i in ii), dtype=bool, count=len(ii))
            dc_inter[ii[dc], jj[dc]] = shapely.area(shapely.intersection(d[jj[dc]], g[ii[dc]]))
    return Overlaps(inter, dc_inter, ga, da, masks=False)
