"""The fit's geometry (``viewer.scene.framing``), without Qt."""

from __future__ import annotations

import pytest

from viewer.scene.framing import fit_part, fit_view


def _on_screen(fit, rect):
    """``rect`` (scene) in viewport pixels under ``fit``, for a viewport of the fit's size."""
    sx0, sy0, _, _ = fit.shown
    return tuple((v - o) * fit.scale for v, o in zip(rect, (sx0, sy0, sx0, sy0), strict=True))


@pytest.mark.parametrize(("width", "height", "top"), [(469, 672, 60), (700, 300, 0), (480, 686, 0)])
def test_the_part_is_whole_and_centred_below_the_notes(width: int, height: int, top: int) -> None:
    # boxes at the bottom right of an image without picture (Total-Text img1): the fit
    # against the scene alone pushed them to the bottom edge under a wide empty band
    part = (64.0, 595.0, 699.0, 1049.0)
    fit = fit_view(part, width, height, top=top, margin=4)
    x0, y0, x1, y1 = _on_screen(fit, part)
    assert x0 >= 4 - 1e-6 and x1 <= width - 4 + 1e-6
    assert y0 >= top + 4 - 1e-6 and y1 <= height - 4 + 1e-6
    assert abs(x0 - (width - x1)) < 1e-6  # centred across
    assert abs((y0 - top) - (height - y1)) < 1e-6  # and down, in the room below the notes
    assert min(x0 - 4, y0 - top - 4) < 1e-6  # as big as it can be: one side touches the margin


def test_the_view_shows_as_much_as_the_viewport_holds() -> None:
    fit = fit_view((0.0, 0.0, 100.0, 50.0), 400, 400)
    x0, y0, x1, y1 = fit.shown
    assert (x1 - x0) * fit.scale == pytest.approx(400)
    assert (y1 - y0) * fit.scale == pytest.approx(400)
    assert fit.centre == pytest.approx(((x0 + x1) / 2, (y0 + y1) / 2))


def test_comparing_fits_the_boxes_even_past_the_scene() -> None:
    scene = (-6.0, -6.0, 671.0, 1015.0)
    boxes = (64.0, 595.0, 699.0, 1049.0)  # the margin reaches past the frame's edge
    assert fit_part(scene, boxes, comparing=True) == boxes
    assert fit_part(scene, boxes, comparing=False) == scene
    assert fit_part(scene, None, comparing=True) == scene
