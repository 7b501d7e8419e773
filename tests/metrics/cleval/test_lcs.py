"""CLEval longest common subsequence: the tie rules of both versions (Q9) and agreement
with the official string DP on random strings."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.cleval.match import lcs


def test_q9_lcs_tie_rules() -> None:
    assert lcs("AB", "BA", legacy=False) == (1, "B")
    assert lcs("AB", "BA", legacy=True) == (1, "A")
    assert lcs("", "AB", legacy=False) == (0, "")


def _official_lcs(s1: str, s2: str, legacy: bool) -> tuple[int, str]:
    """The official string DP (utils.lcs / script.lcs), for comparison."""
    if not s1 or not s2:
        return 0, ""
    m = [["" for _ in s2] for _ in s1]
    for i in range(len(s1)):
        for j in range(len(s2)):
            if s1[i] == s2[j]:
                m[i][j] = s1[i] if i == 0 or j == 0 else m[i - 1][j - 1] + s1[i]
            elif legacy:
                m[i][j] = max(m[i - 1][j], m[i][j - 1], key=len)
            else:
                m[i][j] = m[i - 1][j] if len(m[i - 1][j]) > len(m[i][j - 1]) else m[i][j - 1]
    return len(m[-1][-1]), m[-1][-1]


@settings(max_examples=200, deadline=None)
@given(st.text("ABC", max_size=9), st.text("ABC", max_size=12), st.booleans())
def test_lcs_matches_official_string_dp(s1: str, s2: str, legacy: bool) -> None:
    assert lcs(s1, s2, legacy) == _official_lcs(s1, s2, legacy)
