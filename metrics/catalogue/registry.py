"""The metric specs by id: the union of every family's ``SPECS``, lookup by id or alias,
parameters from strings (``--set``), and which metrics apply to a dataset.

``METRICS`` is a read-only mapping from id to ``MetricSpec`` that imports a family's
``specs`` only when one of its specs is first asked for; ids, aliases and the ``applies``
predicates come from the cards (``metrics.catalogue.catalog``) without importing any family's code
(iterating ``METRICS`` gives the ids and imports nothing; ``METRICS.values()`` imports every
family).
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, TypeVar

from metrics.catalogue.catalog import BY_ID, CARDS, card
from metrics.core.protocols import Params
from metrics.declare import params

if TYPE_CHECKING:
    from metrics.core.model import Dataset
    from metrics.declare.spec import MetricSpec

P = TypeVar("P", bound="Params")

__all__ = [
    "METRICS",
    "MetricSpec",
    "applicable",
    "float_refusals",
    "make_params",
    "parse_sets",
    "resolve",
]


def __getattr__(name: str) -> object:  # ``from metrics.catalogue.registry import MetricSpec`` works
    if name == "MetricSpec":
        from metrics.declare.spec import MetricSpec

        return MetricSpec
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class _Specs(Mapping[str, "MetricSpec[Params]"]):
    """Every metric by id, in catalogue order; a family is imported when first needed."""

    def __init__(self) -> None:
        self._loaded: dict[str, MetricSpec[Params]] = {}

    def __getitem__(self, key: str) -> MetricSpec[Params]:
        spec = self._loaded.get(key)
        if spec is None:
            family = importlib.import_module(f"{BY_ID[key].family}.specs")  # KeyError: unknown
            for s in family.SPECS:
                self._loaded.setdefault(s.id, s)
            spec = self._loaded[key]
        return spec

    def __iter__(self) -> Iterator[str]:
        return iter(BY_ID)

    def __len__(self) -> int:
        return len(BY_ID)

    def __contains__(self, key: object) -> bool:
        return key in BY_ID

    def __repr__(self) -> str:
        return f"METRICS({', '.join(BY_ID)})"


METRICS: Mapping[str, MetricSpec[Params]] = _Specs()


def resolve(name: str) -> MetricSpec[Params]:
    """Metric by id or alias (case-insensitive)."""
    return METRICS[card(name).id]


def applicable(ds: Dataset) -> list[MetricSpec[Params]]:
    """The metrics offered for a dataset (only their families are imported)."""
    return [METRICS[c.id] for c in CARDS if c.applies(ds)]


# The metric shown (viewer) or run (compare, export, report) when none is named: the first
# of these the dataset offers (TIoU on quad data, curved TIoU on polygon data such as
# Total-Text and CTW1500).
PREFERRED = ("tiou", "curved_tiou", "tedeval", "cleval_det", "ic15_iou", "deteval")


def default_metric(ds: Dataset) -> MetricSpec[Params] | None:
    """The first of ``PREFERRED`` that applies to ``ds``, else the first that applies."""
    ids = [c.id for c in CARDS if c.applies(ds)]
    first = next((m for m in PREFERRED if m in ids), ids[0] if ids else None)
    return None if first is None else METRICS[first]


def make_params(spec: MetricSpec[P], overrides: Mapping[str, object] | None = None) -> P:
    """Params of a metric with overrides (strings are converted to the field types and every
    value checked against its declared range or choices, ``metrics.declare.params``).

    Unknown keys raise KeyError naming the valid ones; bad values ValueError.
    """
    return params.make(spec.params_type, overrides, spec.id)


def float_refusals(specs: Sequence[MetricSpec[Params]]) -> dict[str, dict[str, str]]:
    """``allow_float=false`` for every metric of ``specs`` that has it (``--floats refuse``)."""
    out: dict[str, dict[str, str]] = {}
    for spec in specs:
        names = {f.name for f in dataclasses.fields(spec.params_type)}
        out[spec.id] = {"allow_float": "false"} if "allow_float" in names else {}
    return out


def parse_sets(
    items: Sequence[str], specs: Sequence[MetricSpec[Params]], *, floats: str = "as-given"
) -> dict[str, dict[str, str]]:
    """``--set [METRIC.]KEY=VALUE`` items as overrides per metric id (one parser for every
    command). A bare KEY applies to every metric of ``specs`` that has it; ``METRIC.KEY`` to
    that metric, which must be among ``specs`` (the metrics run: an item for another would
    be silently ignored). Raises ValueError on a malformed item, a metric not run, or a key
    that no targeted metric has. ``floats="refuse"`` (``--floats refuse``) sets
    ``allow_float=false`` on every metric of ``specs`` that has it, before the items (an
    explicit ``--set`` wins)."""
    out = float_refusals(specs) if floats == "refuse" else {s.id: {} for s in specs}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"--set needs KEY=VALUE, got {item!r}")
        metric, dot, name = key.strip().rpartition(".")
        try:
            targets = [resolve(metric)] if dot else list(specs)
        except KeyError as exc:
            raise ValueError(exc.args[0]) from None
        if dot and targets[0].id not in {s.id for s in specs}:
            run = ", ".join(s.id for s in specs) or "none"
            raise ValueError(
                f"--set {key.strip()}: {targets[0].id} is not among the metrics run ({run})"
            )
        hit = False
        for spec in targets:
            if name in {f.name for f in dataclasses.fields(spec.params_type)}:
                out.setdefault(spec.id, {})[name] = value
                hit = True
        if not hit:
            if dot:
                raise ValueError(f"{targets[0].id} has no parameter {name!r}")
            raise ValueError(f"no selected metric has a parameter {name!r}")
    return out
