"""The palette (Qt-free): every state the canvas draws has a style, and no two states look alike."""

from __future__ import annotations

import itertools

import pytest

from metrics.results import MatchKind, Verdict
from viewer.scene.palette import (
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
