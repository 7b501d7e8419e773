"""Geometry (``metrics.shapes.geometry``, ``metrics.shapes.quads``): signed shoelace areas,
polygons with their validity flags, candidate pairs, the numpy quad clipper against shapely,
and results of a sample that do not depend on which other samples share its block."""

from __future__ import annotations

import numpy as np
import pytest
import shapely
from hypothesis import given, settings

from metrics.catalogue.registry import METRICS, make_params
from metrics.io.demo import demo_paths
from metrics.io.reader import load_dataset
from metrics.io.writers import sample_dict
from metrics.shapes.boxes import boxes_meet
from metrics.shapes.geometry import candidate_pairs, flat_geometry, polygons, signed_areas
from metrics.shapes.quads import convex_quad_inter, is_convex_quad, quad_intersection_areas
from tests.support import convex_quad_arrays, geos_overlap_area

SQUARE = [[0, 0], [10, 0], [10, 5], [0, 5]]
BOWTIE = [[0, 0], [10, 10], [10, 0], [0, 10]]


def _rings(*rings: list[list[float]]) -> list[np.ndarray]:
    return [np.array(r, dtype=np.float64).reshape(-1, 2) for r in rings]


def test_signed_areas_follow_the_vertex_order() -> None:
    rings = _rings(SQUARE, SQUARE[::-1], [[0, 0], [4, 0], [0, 3]], BOWTIE, [], [[1, 1], [2, 2]])
    assert signed_areas(rings).tolist() == [50.0, -50.0, 6.0, 0.0, 0.0, 0.0]


def test_polygons_flag_and_repair_invalid_rings() -> None:
    geoms, invalid = polygons(_rings(BOWTIE, [[0, 0], [1, 1]], SQUARE))
    assert invalid.tolist() == [True, False, False]
    assert all(shapely.is_valid(geoms))
    assert [g.area for g in geoms] == [50.0, 0.0, 50.0]  # both lobes of the bow-tie
    assert geoms[1].is_empty  # fewer than 3 vertices


def test_candidate_pairs_are_the_intersecting_ones() -> None:
    a, _ = polygons(
        _rings(
            [[0, 0], [10, 0], [10, 10], [0, 10]], [[100, 100], [110, 100], [110, 110], [100, 110]]
        )
    )
    b, _ = polygons(
        _rings(
            [[5, 5], [15, 5], [15, 15], [5, 15]],  # overlaps a0
            [[10, 0], [20, 0], [20, 10], [10, 10]],  # touches a0 along x = 10
            [[50, 50], [60, 50], [60, 60], [50, 60]],  # meets nothing
        )
    )
    ia, ib = candidate_pairs(a, b)
    assert sorted(zip(ia.tolist(), ib.tolist(), strict=True)) == [(0, 0), (0, 1)]


@settings(max_examples=300, deadline=None)
@given(convex_quad_arrays(), convex_quad_arrays())
def test_quad_clipper_agrees_with_shapely(a: np.ndarray, b: np.ndarray) -> None:
    assert is_convex_quad(a)[0] and is_convex_quad(b)[0]
    want = geos_overlap_area(a, b)
    assert quad_intersection_areas(a, b)[0] == pytest.approx(want, abs=1e-9)
    assert convex_quad_inter(a, b)[0] == pytest.approx(want, abs=1e-9)
    assert quad_intersection_areas(b, a)[0] == pytest.approx(want, abs=1e-9)


def test_axis_aligned_boxes_clip_exactly() -> None:
    a = np.array([[[0, 0], [100, 0], [100, 20], [0, 20]]], dtype=np.float64)
    b = np.array([[[50, 0], [100, 0], [100, 20], [50, 20]]], dtype=np.float64)
    assert quad_intersection_areas(a, b)[0] == 1000.0  # IoU exactly 0.5, no rounding


def test_flat_geometry_keeps_samples_apart() -> None:
    """Identical boxes in two samples never become a candidate pair across samples."""
    box = _rings(SQUARE)
    f = flat_geometry([box, box], [box, box], "icdar")
    assert list(zip(f.pi.tolist(), f.pj.tolist(), strict=True)) == [(0, 0), (1, 1)]
    assert f.inter.tolist() == [50.0, 50.0]


BLOCK_METRICS = [
    "ic15_iou",
    "siou",
    "tiou",
    "tedeval",
    "cleval_det",
    "cleval_legacy_det",
    "ctw1500_eval",
    "paddleocr_det_iou",
]


@pytest.mark.parametrize("metric", BLOCK_METRICS)
def test_sample_results_do_not_depend_on_their_block(metric: str) -> None:
    """A sample evaluated alone and inside a batch of the other samples: identical floats."""
    demo = demo_paths()
    spec, samples = METRICS[metric], list(load_dataset(demo.gt, demo.det_a).samples)
    prm = make_params(spec)
    if spec.validate(samples, prm):
        bad = {p.sample_id for p in spec.validate(samples, prm)}
        samples = [s for s in samples if s.id not in bad]
    together = spec.evaluate(samples, prm)
    reversed_block = spec.evaluate(samples[::-1], prm)[::-1]
    for s, in_block, in_reversed in zip(samples, together, reversed_block, strict=True):
        (alone,) = spec.evaluate([s], prm)
        want = sample_dict(alone, evidence=True)
        assert sample_dict(in_block, evidence=True) == want, s.id
        assert sample_dict(in_reversed, evidence=True) == want, s.id


def test_boxes_meet_only_where_every_bounding_box_shares_a_point() -> None:
    a = shapely.box(0, 0, 10, 10)
    b = [shapely.box(5, 5, 20, 20), shapely.box(10, 0, 20, 10), shapely.box(11, 0, 20, 10)]
    sides = np.array([a, a, a, a], dtype=object), np.array([*b, shapely.Polygon()], dtype=object)
    assert boxes_meet(*sides).tolist() == [True, True, False, True]  # empty: True
    third = np.array([shapely.box(30, 30, 40, 40)] * 4, dtype=object)
    assert not boxes_meet(*sides, third)[:3].any()
