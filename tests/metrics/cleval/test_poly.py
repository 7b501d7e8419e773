"""CLEval on polygons (spec 5.9): character centres resampled along the polygon, padding
of short inputs, boundary centres outside, ten characters for a don't-care polygon."""

from __future__ import annotations

import numpy as np

from metrics.cleval.geometry import poly_pcc, poly_pccs, poly_points
from metrics.cleval.metric import (
    evaluate_sample,
)
from tests.support import CLEVAL_V011 as V011
from tests.support import approx_tuple as approx
from tests.support import cleval_poly as poly
from tests.support import sample


def test_poly_pcc_resampling() -> None:
    pts = np.array([[0, 0], [50, 0], [100, 0], [100, 20], [50, 20], [0, 20]], float)
    np.testing.assert_array_equal(poly_pcc(pts, 2), [[25, 10], [75, 10]])
    assert poly_pcc(pts, 0).shape == (0, 2)


def test_poly_pccs_of_many_boxes_grouped_by_box() -> None:
    six = np.array([[0, 0], [50, 0], [100, 0], [100, 20], [50, 20], [0, 20]], float)
    # 3 characters over 2 sections: top x 0, 16, 33, 50, 66, 83 (truncated), then 100
    odd = np.array([[0, 0], [10, 0], [20, 0], [20, 9], [0, 9]], float) + 0.5
    two = poly_points(np.array([[0, 0], [10, 4]], float))[1]
    boxes = [six, two, odd, six]
    pcc, owner = poly_pccs(boxes, np.array([3, 2, 2, 0]))
    np.testing.assert_array_equal(owner, [0, 0, 0, 1, 1, 2, 2])
    np.testing.assert_array_equal(pcc[:3], [[16.5, 10], [49.5, 10], [83, 10]])
    for k, n in enumerate([3, 2, 2]):
        np.testing.assert_array_equal(pcc[owner == k], poly_pcc(boxes[k], n))
    # one section: top (.5,.5) (5,0) (10.5,.5), bottom (.5,9.5) (10,9) then point 2 (20.5,.5)
    np.testing.assert_array_equal(poly_pcc(odd, 2), [[4, 4.75], [11.5, 2.5]])


def test_poly_padding_of_short_inputs() -> None:
    ring, box = poly_points(np.array([[0, 0], [10, 0], [10, 5]], float))
    np.testing.assert_array_equal(ring, [[0, 0], [10, 0], [10, 5], [0, 5]])
    ring, box = poly_points(np.array([[3, 7]], float))
    np.testing.assert_array_equal(box, [[3, 7], [3, 3], [3, 3], [3, 3]])


def test_poly_boundary_pcc_not_inside_and_dc_gets_ten_chars() -> None:
    g = poly("0,0,50,0,100,0,100,20,50,20,0,20", "AB", 1)
    dc = poly("200,0,300,0,300,20,200,20", "###", 2)
    d = poly("0,0,25,0,50,0,50,20,25,20,0,20", None, 1)  # PCC (25,10) inside, (75,10) out
    fp = poly("400,0,450,0,500,0,500,20,450,20,400,20", None, 2)
    r = evaluate_sample(sample([g, dc], [d, fp]), V011)
    assert len(r.evidence.pcc.points[1]) == 10
    assert r.det[1].values["fp_chars"] == 1
    assert (r.recall, r.precision) == approx(0.5, 0.5)
    edge = poly("0,0,12,0,25,0,25,20,12,20,0,20", None, 1)  # PCC (25,10) on the boundary
    assert evaluate_sample(sample([g], [edge]), V011).recall == 0.0
