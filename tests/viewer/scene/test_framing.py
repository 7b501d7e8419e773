"""The fit's geometry (``viewer.scene.framing``), without Qt."""

from __future__ import annotations

import pytest

from viewer.scene.framing import fit_part, fit_view, zoom_view


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


def test_zoom_shows_the_box_with_half_its_size_around_it() -> None:
    box = (147.0, 132.0, 296.0, 209.0)  # a word and its near miss
    view = zoom_view(box, 960, 700, top=70, current=0.5)
    x0, y0, x1, y1 = _on_screen(view, box)
    assert x0 >= 0 and x1 <= 960 and y0 >= 70 and y1 <= 700
    assert x0 == pytest.approx(960 - x1)  # centred across
    assert x0 >= 0.5 * (x1 - x0) * 0.99  # the margin: half the box's width each side


def test_zoom_never_zooms_out_further_than_the_box_needs() -> None:
    box = (0.0, 0.0, 100.0, 20.0)
    closer = zoom_view(box, 800, 600, top=0, current=50.0)  # zoomed in past the word
    x0, _, x1, _ = _on_screen(closer, box)
    assert x0 >= 0 and x1 <= 800  # zooms out just enough to show the box whole
    assert closer.scale == pytest.approx(fit_view(box, 800, 600).scale)
    near = zoom_view(box, 800, 600, top=0, current=5.0)  # the padded box needs 3.96
    assert near.scale == 5.0  # kept: the word fits, only the margin would not
