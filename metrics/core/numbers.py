"""How a number reads wherever detlens prints one next to another: a score or ratio with 4
decimals (``tightness 1.0000``, ``credit 0.4250``), a count as an integer (``tp 3``).

The CLI's notes used to print any integral value as an integer and the rest with 4
decimals, so one table read ``tightness 1.0000, pq 1.0000`` on one row (a value a hair
under 1) and ``tightness 1, pq 1`` on the next; the inspector used 3 and 4 significant
digits. What is a count is declared (``MetricSpec.extra_counts``), never guessed from the
value.
"""

from __future__ import annotations

__all__ = ["count_text", "score_text"]


def score_text(value: float) -> str:
    """A score or ratio: always 4 decimals."""
    return f"{value:.4f}"


def count_text(value: float) -> str:
    """A count: an integer (with 4 decimals only if it is not one: a bug shows)."""
    return f"{int(value)}" if float(value).is_integer() else f"{value:.4f}"
