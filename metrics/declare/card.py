"""A metric's card: everything said about a metric before its family's code is imported.

Each family declares its cards in its own ``cards.py`` (id, title, aliases, the ``applies``
predicate, the inputs it needs, and the texts: what it computes, the official code it
reproduces, where it is used, how an instance's credit comes about, what the canvas shows)
and its parameters in ``params.py``. ``metrics.catalogue.catalog`` gathers the cards;
``--list-metrics``, ``--describe``, ``--metric`` lookups and the viewer's help read them
without numpy, shapely or the family's metric code (``tests/metrics/test_startup.py``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING

from metrics.core.records import dataclass
from metrics.declare.offers import always

if TYPE_CHECKING:
    from metrics.core.model import Dataset, Facts


@dataclass(frozen=True, slots=True, kw_only=True)
class Card:
    """One metric as its family declares it.

    ``family`` is the package whose ``specs`` module holds the metric's ``MetricSpec`` and
    whose ``params`` module holds the class named ``params`` (imported on first use, so a
    card costs no dataclass creation). ``requires`` says in words what ``applies`` asks of
    the data where the predicate's docstring does not; ``needs_gt_lines``: text-line GT.
    """

    id: str
    title: str
    family: str
    params: str
    what: str
    source: str
    datasets: str
    credit: str
    canvas: str
    aliases: tuple[str, ...] = ()
    applies: Callable[[Dataset | Facts], bool] = always
    needs_gt_lines: bool = False
    requires: str = ""

    def params_type(self) -> type:
        """The Params dataclass (its family's ``params`` module is imported, nothing else)."""
        cls: type = getattr(importlib.import_module(f"{self.family}.params"), self.params)
        return cls

    def line(self) -> str:
        """One line for ``--list-metrics``: what it is, its source, where it is used."""
        return f"{self.what}. Reproduces {self.source}; used on {self.datasets}."

    def inputs(self) -> str:
        """What the metric needs of the data, in words."""
        doc = (self.applies.__doc__ or "").strip().split("\n\n")[0]
        need = self.requires or " ".join(doc.split())
        return need + ("; text-line GT (--gt-lines)" if self.needs_gt_lines else "")
