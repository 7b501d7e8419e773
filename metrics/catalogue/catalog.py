"""The metric catalogue: every family's cards gathered, one line per family.

A family declares its metrics itself (``cards.py``: what each is; ``params.py``: its
parameters with their help and ranges; ``specs.py``: the code); this module only gathers the
cards, in the order below. Importing it imports no family's metric code, no numpy and no
shapely, so ``detlens --help``, ``--list-metrics``, ``--describe``, ``--metric`` lookups and
the ``--metric all`` plan are cheap; ``metrics.catalogue.registry.METRICS`` imports a family's
``specs`` the first time one of its specs is asked for. A new metric is declared in its
family; a new family is one line here.
"""

from __future__ import annotations

from metrics.cleval import cards as cleval
from metrics.ctw1500 import cards as ctw1500
from metrics.declare.card import Card
from metrics.deteval import cards as deteval
from metrics.hiertext import cards as hiertext
from metrics.icdar import cards as icdar
from metrics.mmocr import cards as mmocr
from metrics.paddleocr import cards as paddleocr
from metrics.tedeval import cards as tedeval
from metrics.totaltext import cards as totaltext

__all__ = ["BY_ID", "CARDS", "Card", "card"]

CARDS: tuple[Card, ...] = (
    *icdar.CARDS,
    *totaltext.CARDS,
    *ctw1500.CARDS,
    *deteval.CARDS,
    *tedeval.CARDS,
    *cleval.CARDS,
    *mmocr.CARDS,
    *paddleocr.CARDS,
    *hiertext.CARDS,
)

BY_ID: dict[str, Card] = {c.id: c for c in CARDS}


def card(name: str) -> Card:
    """Card by id or alias (case-insensitive, ``-`` read as ``_``); KeyError naming the
    known ids otherwise."""
    key = name.strip().lower().replace("-", "_")
    found = BY_ID.get(key) or next((c for c in CARDS if key in c.aliases), None)
    if found is None:
        raise KeyError(f"unknown metric {name!r}; known: {', '.join(BY_ID)}")
    return found
