"""The OpenCV ``fillPoly`` port (HIERTEXT.md section 3): hand-computed pixel counts, the
border example of the spec, and properties (rectangle areas, vertex order)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.hiertext.raster import clip_line, fill_poly, fill_polys, line_pixels


def square(x0: int, y0: int, x1: int, y1: int) -> list[list[int]]:
    return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]


def test_square_includes_its_boundary_pixels() -> None:
    assert fill_poly(square(2, 2, 12, 12), 100, 100).area == 121


def test_squares_shifted_by_3px_share_88_of_154_pixels() -> None:
    a = fill_poly(square(0, 0, 10, 10), 100, 100).to_image(100, 100)
    b = fill_poly(square(3, 0, 13, 10), 100, 100).to_image(100, 100)
    assert (np.count_nonzero(a & b), np.count_nonzero(a | b)) == (88, 154)


def test_zero_height_polygon_is_its_edge_line() -> None:
    """``mask_zero_height_pred``: no scanline edge, the 8-connected edge gives 39 pixels."""
    assert fill_poly([[10, 5], [48, 5], [48, 5], [10, 5]], 100, 100).area == 39


def test_quad_crossing_the_border_is_clipped_as_opencv_4_1_2() -> None:
    """HIERTEXT.md section 3: 27525 pixels with the pinned OpenCV 4.1.2."""
    quad = [[988, 79], [1283, 19], [1281, 112], [991, 173]]
    assert fill_poly(quad, 1280, 720).area == 27525


def test_polygon_outside_the_image_is_empty() -> None:
    assert fill_poly(square(-20, -20, -5, -5), 100, 100).area == 0
    assert fill_poly(square(0, 0, 5, 5), 0, 0).area == 0


def test_clip_line_keeps_inside_lines_and_drops_outside_ones() -> None:
    assert clip_line(10, 10, 1, 1, 5, 5) == (1, 1, 5, 5)
    assert clip_line(10, 10, -5, -5, -1, -1) is None
    assert clip_line(10, 10, -5, 2, 20, 2) == (0, 2, 9, 2)


def test_lines_are_8_connected_from_end_to_end() -> None:
    xs, ys, edge = line_pixels(np.array([[0, 0, 7, 3], [5, 9, 2, 0]]))
    for k, (x1, y1, x2, y2) in enumerate([(0, 0, 7, 3), (5, 9, 2, 0)]):
        px, py = xs[edge == k], ys[edge == k]
        assert {(px[0], py[0]), (px[-1], py[-1])} == {(x1, y1), (x2, y2)}
        assert (np.abs(np.diff(px)) <= 1).all() and (np.abs(np.diff(py)) <= 1).all()
        assert len(px) == max(abs(x2 - x1), abs(y2 - y1)) + 1


def test_batch_equals_one_by_one() -> None:
    polys = [square(0, 0, 10, 10), [[5, 5], [30, 8], [12, 40]], square(90, 90, 120, 95)]
    batch = fill_polys(polys, 100, 100)
    for p, r in zip(polys, batch, strict=True):
        assert np.array_equal(r.to_image(100, 100), fill_poly(p, 100, 100).to_image(100, 100))


coord = st.integers(min_value=0, max_value=60)


@settings(max_examples=80, deadline=None)
@given(coord, coord, st.integers(0, 30), st.integers(0, 30))
def test_rectangle_covers_its_inclusive_pixel_count(x: int, y: int, w: int, h: int) -> None:
    assert fill_poly(square(x, y, x + w, y + h), 100, 100).area == (w + 1) * (h + 1)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(coord, coord), min_size=3, max_size=8), st.integers(0, 7))
def test_vertex_rotation_and_reversal_do_not_change_the_mask(
    pts: list[tuple[int, int]], shift: int
) -> None:
    """Convex hulls (simple polygons): the fill is orientation-free."""
    arr = np.array(pts)
    if len(np.unique(arr, axis=0)) < 3:
        return
    hull = _hull(arr)
    ref = fill_poly(hull, 64, 64).to_image(64, 64)
    rolled = np.roll(hull, shift % len(hull), axis=0)
    assert np.array_equal(fill_poly(rolled, 64, 64).to_image(64, 64), ref)
    assert np.array_equal(fill_poly(hull[::-1], 64, 64).to_image(64, 64), ref)


def _hull(p: np.ndarray) -> np.ndarray:
    """Monotone chain convex hull (integer points)."""
    pts = sorted({(int(a), int(b)) for a, b in p})

    def half(seq: list[tuple[int, int]]) -> list[tuple[int, int]]:
        out: list[tuple[int, int]] = []
        for q in seq:
            while (
                len(out) >= 2
                and (
                    (out[-1][0] - out[-2][0]) * (q[1] - out[-2][1])
                    - (out[-1][1] - out[-2][1]) * (q[0] - out[-2][0])
                )
                <= 0
            ):
                out.pop()
            out.append(q)
        return out

    lower, upper = half(pts), half(pts[::-1])
    return np.array(lower[:-1] + upper[:-1]) if len(pts) > 2 else np.array(pts)


def test_spans_of_a_row_sharing_a_start_pixel_are_both_filled() -> None:
    """Row 2 of this self-touching polygon has the crossings 0, 0, 0, 3.67 (two vertical
    edges on x = 0 and an edge starting there): spans [0, 0] and [0, 3] start on the same
    pixel, and x = 3 (no edge pixel) must be filled."""
    mask = fill_poly([[0, 2], [4, 3], [3, 0], [0, 1], [0, 6]], 20, 20).to_image(20, 20)
    assert mask[2, :6].tolist() == [True, True, True, True, True, False]
    assert int(mask.sum()) == 17
