"""``detlens eval --list-metrics`` and ``--describe ID``: the metrics' cards and parameters
as their families declare them (``metrics.declare.card``, ``metrics.declare.params``). Reads
no metric code: only the cards and, for ``--describe``, the metric's Params dataclass."""

from __future__ import annotations

import sys
import textwrap
from typing import TextIO

from metrics.catalogue.catalog import CARDS, card
from metrics.declare import params

_WIDTH = 92


def list_metrics(out: TextIO | None = None) -> None:
    """Every metric with its aliases and one line on what it is and where it is from."""
    out = out or sys.stdout
    for c in CARDS:
        alias = f" ({', '.join(c.aliases)})" if c.aliases else ""
        print(f"{c.id}{alias}", file=out)
        print(f"    {c.line()}", file=out)


def _para(label: str, text: str, out: TextIO) -> None:
    lines = textwrap.wrap(text, _WIDTH, initial_indent=f"  {label:<11}", subsequent_indent=" " * 13)
    print("\n".join(lines), file=out)


def describe(name: str, out: TextIO | None = None) -> None:
    """A metric's card and each parameter with its default, accepted values and help (the
    words of the viewer's tooltips). KeyError naming the known ids for an unknown metric."""
    out = out or sys.stdout
    c = card(name)
    print(f"{c.id}: {c.title}", file=out)
    rows = (
        ("aliases", ", ".join(c.aliases) or "none"),
        ("what", c.what),
        ("reproduces", c.source),
        ("used on", c.datasets),
        ("credit", c.credit),
        ("inputs", c.inputs()),
        ("canvas", c.canvas),
    )
    for label, text in rows:
        _para(label, text, out)
    print(f"parameters (--set {c.id}.KEY=VALUE):", file=out)
    for doc in params.docs(c.params_type()):
        print(f"  {doc.name} = {doc.default!r}", file=out)
        print(
            textwrap.fill(doc.tooltip(), _WIDTH, initial_indent=" " * 6, subsequent_indent=" " * 6),
            file=out,
        )
