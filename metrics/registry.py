"""The metric catalogue: the union of every family's ``SPECS``, lookup by id or alias,
parameters from strings (``--set``), and which metrics apply to a dataset.

``METRICS`` is a read-only mapping from id to ``MetricSpec`` that imports a family only when
one of its specs is first asked for; ids, aliases and the ``applies`` predicates come from
``metrics.catalog`` without importing any family (iterating ``METRICS`` gives the ids and
imports nothing; ``METRICS.values()`` imports every family).
"""

from __future__ import annotations

import dataclasses
import importlib
import types
import typing
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from metrics.catalog import BY_ID, ENTRIES, entry
from metrics.param_ranges import check_value

if TYPE_CHECKING:
    from metrics.core.model import Dataset
    from metrics.spec import MetricSpec

__all__ = [
    "METRICS",
    "MetricSpec",
    "applicable",
    "float_refusals",
    "make_params",
    "parse_sets",
    "resolve",
]


def __getattr__(name: str) -> Any:  # ``from metrics.registry import MetricSpec`` still works
    if name == "MetricSpec":
        from metrics.spec import MetricSpec

        return MetricSpec
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class _Specs(Mapping[str, "MetricSpec"]):
    """Every metric by id, in catalogue order; a family is imported when first needed."""

    def __init__(self) -> None:
        self._loaded: dict[str, MetricSpec] = {}

    def __getitem__(self, key: str) -> MetricSpec:
        spec = self._loaded.get(key)
        if spec is None:
            family = importlib.import_module(BY_ID[key].family)  # KeyError: unknown id
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


METRICS: Mapping[str, MetricSpec] = _Specs()


def resolve(name: str) -> MetricSpec:
    """Metric by id or alias (case-insensitive)."""
    return METRICS[entry(name).id]


def applicable(ds: Dataset) -> list[MetricSpec]:
    """The metrics offered for a dataset (only their families are imported)."""
    return [METRICS[e.id] for e in ENTRIES if e.applies(ds)]


# The metric shown (viewer) or run (compare, export, report) when none is named: the first
# of these the dataset offers (TIoU on quad data, curved TIoU on polygon data such as
# Total-Text and CTW1500).
PREFERRED = ("tiou", "curved_tiou", "tedeval", "cleval_det", "ic15_iou", "deteval")


def default_metric(ds: Dataset) -> MetricSpec | None:
    """The first of ``PREFERRED`` that applies to ``ds``, else the first that applies."""
    ids = [e.id for e in ENTRIES if e.applies(ds)]
    first = next((m for m in PREFERRED if m in ids), ids[0] if ids else None)
    return None if first is None else METRICS[first]


def _coerce(value: str, annotation: Any) -> Any:
    text = value.strip()
    if text.lower() in ("none", "null") and _allows_none(annotation):
        return None
    base = _base_type(annotation)
    if base is bool:
        if text.lower() in ("1", "true", "yes", "on"):
            return True
        if text.lower() in ("0", "false", "no", "off"):
            return False
        raise ValueError(f"expected true or false, got {value!r}")
    if base in (int, float):
        try:
            return base(text)
        except ValueError:
            kind = "an integer" if base is int else "a number"
            raise ValueError(f"expected {kind}, got {value!r}") from None
    return text


def _allows_none(annotation: Any) -> bool:
    return type(None) in typing.get_args(annotation)


def _base_type(annotation: Any) -> Any:
    if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is typing.Union:
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        return _base_type(args[0]) if args else str
    if typing.get_origin(annotation) is typing.Literal:
        return str
    return annotation


def _check_choice(key: str, value: Any, annotation: Any) -> None:
    """A Literal parameter's value must be one of its choices."""
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    if typing.get_origin(annotation) is typing.Literal and value not in args:
        raise ValueError(f"{key} must be one of {', '.join(map(str, args))}, got {value!r}")


def make_params(spec: MetricSpec, overrides: Mapping[str, Any] | None = None) -> Any:
    """Params of a metric with overrides (strings are converted to the field types).

    Unknown keys raise KeyError naming the valid ones.
    """
    fields = {f.name: f for f in dataclasses.fields(spec.params_type)}
    hints = typing.get_type_hints(spec.params_type)
    kwargs: dict[str, Any] = {}
    for key, value in (overrides or {}).items():
        if key not in fields:
            raise KeyError(f"{spec.id} has no parameter {key!r}; it has: {', '.join(fields)}")
        kwargs[key] = _coerce(value, hints[key]) if isinstance(value, str) else value
        check_value(key, kwargs[key])
        _check_choice(key, kwargs[key], hints[key])
    return spec.params_type(**kwargs)


def float_refusals(specs: Sequence[MetricSpec]) -> dict[str, dict[str, str]]:
    """``allow_float=false`` for every metric of ``specs`` that has it (``--floats refuse``)."""
    out: dict[str, dict[str, str]] = {}
    for spec in specs:
        names = {f.name for f in dataclasses.fields(spec.params_type)}
        out[spec.id] = {"allow_float": "false"} if "allow_float" in names else {}
    return out


def parse_sets(
    items: Sequence[str], specs: Sequence[MetricSpec], *, floats: str = "as-given"
) -> dict[str, dict[str, str]]:
    """``--set [METRIC.]KEY=VALUE`` items as overrides per metric id (one parser for every
    command). A bare KEY applies to every metric of ``specs`` that has it; ``METRIC.KEY`` to
    that metric (which need not be among ``specs``). Raises ValueError on a malformed item
    or a key that no targeted metric has. ``floats="refuse"`` (``--floats refuse``) sets
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
