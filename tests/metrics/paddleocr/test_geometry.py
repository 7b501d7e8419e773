"""``metrics.paddleocr.geometry``: the polygons, their validity and skip reasons are those
of ``flat_geometry`` (GEOS asked for every polygon), for quads that are convex, concave,
bow-ties or degenerate, and pentagons; the pairs are those whose polygons can overlap."""

from __future__ import annotations

import numpy as np
import shapely
from hypothesis import example, given, settings
from hypothesis import strategies as st

from metrics.paddleocr.geometry import paddle_geometry, skip_reasons
from metrics.shapes.geometry import flat_geometry

point = st.tuples(st.integers(0, 30), st.integers(0, 30))
ring = st.lists(point, min_size=2, max_size=5).map(lambda p: np.array(p, dtype=np.float64))
image = st.tuples(st.lists(ring, max_size=4), st.lists(ring, max_size=4))


@settings(max_examples=100, deadline=None)
@given(st.lists(image, min_size=1, max_size=3))
@example(  # a collapsed GT against a detection GEOS repairs into a collection (found in CI)
    [([np.array([[0.0, 0.0], [0.0, 0.0]])], [np.array([(0, 0), (0, 1), (1, 0), (0, 2)], float)])]
)
def test_the_polygons_and_reasons_of_flat_geometry(images: list) -> None:
    g_rings, d_rings = [g for g, _ in images], [d for _, d in images]
    f, _, plain = paddle_geometry(g_rings, d_rings)
    ref = flat_geometry(g_rings, d_rings, "exact", intersections=False)
    assert all(shapely.equals_exact(f.g_geoms, ref.g_geoms, 0.0) | shapely.is_empty(ref.g_geoms))
    assert all(shapely.equals_exact(f.d_geoms, ref.d_geoms, 0.0) | shapely.is_empty(ref.d_geoms))
    assert f.g_invalid.tolist() == ref.g_invalid.tolist()
    assert f.d_invalid.tolist() == ref.d_invalid.tolist()
    for rings, geoms, bad, fast in (
        ([r for s in g_rings for r in s], f.g_geoms, f.g_invalid, plain[0]),
        ([r for s in d_rings for r in s], f.d_geoms, f.d_invalid, plain[1]),
    ):
        for check in (True, False):
            assert skip_reasons(rings, geoms, bad, check, fast) == skip_reasons(
                rings, geoms, bad, check
            )
    ours = set(zip(f.pi.tolist(), f.pj.tolist(), strict=True))
    for i, j in zip(ref.pi.tolist(), ref.pj.tolist(), strict=True):
        g, d = ref.g_geoms[i], ref.d_geoms[j]
        if shapely.is_empty(g) or shapely.is_empty(d):
            continue  # no area to share (GEOS's overlay of an empty polygon and a collection fails)
        if shapely.area(shapely.intersection(g, d)) > 0:
            assert (i, j) in ours


def test_a_bow_tie_is_not_plain_and_is_skipped() -> None:
    bow = np.array([[0.0, 0.0], [10.0, 10.0], [10.0, 0.0], [0.0, 10.0]])
    square = np.array([[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]])
    f, _, plain = paddle_geometry([[bow, square]], [[square]])
    assert plain[0].tolist() == [False, True] and f.g_invalid.tolist() == [True, False]
    reasons = skip_reasons([bow, square], f.g_geoms, f.g_invalid, True, plain[0])
    assert reasons[0].startswith("not a valid polygon") and reasons[1] == ""
