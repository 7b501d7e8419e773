"""``inner_points``: a point inside each instance, for the viewer's match links."""

from __future__ import annotations

import numpy as np
import shapely

from metrics.shapes.anchors import inner_points, link_ends

# a word curved like Total-Text img1's: its box centre lies in the empty inside of the bend
BENT = np.array(
    [[140, 629], [200, 629], [240, 830], [640, 880], [646, 1000], [560, 1009], [190, 900]],
    dtype=np.float64,
)


def test_a_curved_word_gets_a_point_inside_not_its_box_centre() -> None:
    (p,) = inner_points([BENT])
    poly = shapely.Polygon(BENT)
    centre = (BENT.min(axis=0) + BENT.max(axis=0)) / 2
    assert not poly.contains(shapely.Point(centre))  # why the centres would not do
    assert poly.contains(shapely.Point(p))


def test_every_ring_gets_a_point_in_its_polygon() -> None:
    rings = [BENT, np.array([[0, 0], [10, 0], [10, 5], [0, 5]], float), BENT + 1000]
    for ring, p in zip(rings, inner_points(rings), strict=True):
        assert shapely.Polygon(ring).contains(shapely.Point(p))


def test_degenerate_rings_fall_back_to_their_vertices() -> None:
    bow_tie = np.array([[0, 0], [10, 10], [10, 0], [0, 10]], float)
    line = np.array([[1, 2], [3, 4]], float)
    empty = np.zeros((0, 2))
    got = inner_points([bow_tie, line, empty])
    assert shapely.make_valid(shapely.Polygon(bow_tie)).contains(shapely.Point(got[0]))
    assert got[1].tolist() == [2.0, 3.0]  # fewer than 3 vertices: their mean
    assert np.isnan(got[2]).all()
    assert inner_points([]).shape == (0, 2)


def test_a_link_has_no_length_where_the_words_overlap_and_ends_inside_each_apart() -> None:
    gt = np.array([[0, 0], [100, 0], [100, 20], [0, 20]], float)
    over = gt + np.array([3.0, 1.0])  # the same word, a little off: the GT's point lies in it
    half = np.array([[60, 0], [100, 0], [100, 20], [60, 20]], float)  # a split's right half
    ends = link_ends([gt, gt], [over, half])
    assert ends.shape == (2, 2, 2)
    assert (ends[0, 0] == ends[0, 1]).all()  # no line: the overlap says it
    assert shapely.Polygon(gt).contains(shapely.Point(ends[1, 0]))
    assert shapely.Polygon(half).contains(shapely.Point(ends[1, 1]))
    assert not (ends[1, 0] == ends[1, 1]).all()
    assert link_ends([], []).shape == (0, 2, 2)
