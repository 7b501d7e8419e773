"""Issue 28, point 4: verdict colours stay apart for the common colour-vision deficiencies,
and each verdict has a second channel (its outline), so no state is told by hue alone.

The minimum difference is CIEDE2000 >= 15 between two verdicts of one side (GT or
detection) and >= 10 between a GT verdict and a detection verdict, under normal vision and
under simulated protanopia, deuteranopia and tritanopia (Machado et al. 2009, severity 1:
complete dichromacy). 15 is well above the ~10 at which palette checkers flag neighbouring
categorical colours as confusable; GT and detection outlines are also told apart by the
GT's fill.
"""

from __future__ import annotations

import itertools

import pytest

from tests.viewer.scene.colour_vision import VISIONS, ciede2000, delta_e
from viewer.scene.palette import LAYER_LEGEND, PALETTE, StyleKey

K = StyleKey
GT = (K.GT_MATCHED, K.GT_PARTIAL, K.GT_MISSED)
DET = (K.DET_MATCHED, K.DET_PARTIAL, K.DET_FALSE_POSITIVE, K.DET_FP_GT_TAKEN)
SAME_SIDE, OTHER_SIDE = 15.0, 10.0


def _rgb(key: StyleKey) -> tuple[int, int, int]:
    stroke = PALETTE[key].stroke
    assert stroke is not None
    return stroke.r, stroke.g, stroke.b


def test_ciede2000_matches_the_published_test_pairs() -> None:
    # Sharma, Wu & Dalal (2005), table 1, pairs 1, 3, 7 and 17
    assert ciede2000((50, 2.6772, -79.7751), (50, 0, -82.7485)) == pytest.approx(2.0425, abs=1e-4)
    assert ciede2000((50, -1.3802, -84.2814), (50, 0, -82.7485)) == pytest.approx(1.0, abs=1e-4)
    assert ciede2000((50, 0, 0), (50, -1, 2)) == pytest.approx(2.3669, abs=1e-4)
    assert ciede2000((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387)) == pytest.approx(
        1.2644, abs=1e-4
    )


def test_simulation_folds_red_and_green_for_dichromats() -> None:
    red, green = (220, 40, 40), (40, 180, 40)
    assert delta_e(red, green) > 60
    assert delta_e(red, green, "deuteranopia") < delta_e(red, green) / 2
    assert delta_e(red, green, "protanopia") < delta_e(red, green) / 2


@pytest.mark.parametrize("vision", VISIONS)
@pytest.mark.parametrize("side", [GT, DET], ids=["gt", "det"])
def test_verdicts_of_one_side_stay_apart(side: tuple[StyleKey, ...], vision: str) -> None:
    for a, b in itertools.combinations(side, 2):
        d = delta_e(_rgb(a), _rgb(b), vision)
        assert d >= SAME_SIDE, f"{a} and {b}: CIEDE2000 {d:.1f} under {vision}"


@pytest.mark.parametrize("vision", VISIONS)
def test_gt_and_detection_verdicts_stay_apart(vision: str) -> None:
    for a, b in itertools.product(GT, DET):
        d = delta_e(_rgb(a), _rgb(b), vision)
        assert d >= OTHER_SIDE, f"{a} and {b}: CIEDE2000 {d:.1f} under {vision}"


@pytest.mark.parametrize("layer", ["gt", "det", "links", "pcc", "multiline"])
def test_every_state_has_a_second_channel(layer: str) -> None:
    """Outline pattern, width, fill or marker shape differ between any two states of a
    layer's legend: in greyscale they are still told apart (PCC dots: ● counted, × missed,
    ■ overlapped)."""
    keys = LAYER_LEGEND[layer]
    for a, b in itertools.combinations(keys, 2):
        assert PALETTE[a].channel() != PALETTE[b].channel(), f"{a} and {b} differ by hue only"


@pytest.mark.parametrize("vision", VISIONS)
def test_the_comparison_ring_is_no_verdict_colour(vision: str) -> None:
    """The ring around GTs that A and B treat differently was lime, next to the yellow of
    a partly credited GT."""
    for key in (*GT, *DET):
        d = delta_e(_rgb(K.COMPARE_DIFF), _rgb(key), vision)
        assert d >= OTHER_SIDE, f"ring and {key}: CIEDE2000 {d:.1f} under {vision}"


@pytest.mark.parametrize("vision", VISIONS)
def test_character_states_stay_apart(vision: str) -> None:
    """PCC dots were red, green and orange (one khaki under deuteranopia)."""
    for a, b in itertools.combinations(LAYER_LEGEND["pcc"], 2):
        d = delta_e(_rgb(a), _rgb(b), vision)
        assert d >= SAME_SIDE, f"{a} and {b}: CIEDE2000 {d:.1f} under {vision}"
