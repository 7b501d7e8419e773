"""The palette (Qt-free): every state the canvas draws has a style, and no two states look alike."""

from __future__ import annotations

import itertools

import pytest

from metrics.core.results import MatchKind, Verdict
from viewer.scene.palette import (
    CANVAS_LEGEND,
    LAYER_LEGEND,
    MATCH_KIND,
    PALETTE,
    StyleKey,
    verdict_key,
)


@pytest.mark.parametrize("side", ["gt", "det"])
@pytest.mark.parametrize("verdict", [*Verdict, None])
def test_every_verdict_has_a_style_on_both_sides(side: str, verdict: Verdict | None) -> None:
    key = verdict_key(side, verdict)
    assert key in PALETTE and key.value.startswith(f"{side}.")


@pytest.mark.parametrize("kind", list(MatchKind))
def test_every_match_kind_has_a_link_style(kind: MatchKind) -> None:
    assert MATCH_KIND[kind] in PALETTE


def test_every_key_has_a_style_and_no_two_states_look_alike() -> None:
    assert set(PALETTE) == set(StyleKey)
    for (k1, s1), (k2, s2) in itertools.combinations(PALETTE.items(), 2):
        assert s1.look() != s2.look(), f"{k1} and {k2} look the same"


def test_legend_labels_every_style_it_lists() -> None:
    for keys in LAYER_LEGEND.values():
        assert all(PALETTE[k].label for k in keys)


def test_not_evaluated_is_neutral_and_never_a_verdict_colour() -> None:
    """A skipped or pending instance is drawn in its own neutral style, not in the colours of
    any verdict (a skipped image once looked matched)."""
    verdict_looks = {
        PALETTE[verdict_key(side, v)].stroke
        for side in ("gt", "det")
        for v in Verdict
        if (side, v) != ("gt", Verdict.FALSE_POSITIVE)  # no metric gives a GT that verdict
    }
    for key in (StyleKey.GT_NONE, StyleKey.DET_NONE):
        assert PALETTE[key].stroke not in verdict_looks
        assert PALETTE[key].dot


def test_every_drawn_state_is_in_a_legend() -> None:
    """Each style the canvas draws on its own appears in the layer legend or the canvas
    legend (texts are explained by their layer's entry)."""
    listed = {k for keys in LAYER_LEGEND.values() for k in keys} | set(CANVAS_LEGEND)
    text_only = {StyleKey.TIOU_CUT_TEXT, StyleKey.TIOU_OUTLIER_TEXT}
    assert set(StyleKey) - text_only <= listed
    assert all(PALETTE[k].label for k in CANVAS_LEGEND)


def test_pivots_and_characters_have_different_markers() -> None:
    pcc = {PALETTE[k].marker for k in (StyleKey.PCC_MISSED, StyleKey.PCC_COUNTED)}
    pivots = {PALETTE[k].marker for k in (StyleKey.MULTILINE_REJECTED, StyleKey.MULTILINE_ACCEPTED)}
    assert not pcc & pivots
