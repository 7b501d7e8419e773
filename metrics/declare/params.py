"""Metric parameters, declared once in each family's Params dataclass and read here.

A family declares every field with ``param(default, help, range=..., choices=...)``: the
help is the sentence the viewer's tooltip, ``detlens eval --describe`` and the docs show,
the range (numbers) and choices (words) are what ``--set`` and the API accept. This module
reads those declarations (``docs``), converts strings (``coerce``) and checks values
(``check``), so no table keyed by a bare parameter name exists anywhere else.

Light on purpose: no numpy, no metric family (``--describe`` and the catalogue use it).
"""

from __future__ import annotations

import dataclasses
import math
import types
import typing
from collections.abc import Mapping
from typing import TypeVar

from metrics.core.records import dataclass

T = TypeVar("T")
P = TypeVar("P")


UNIT = (0.0, 1.0)
NON_NEGATIVE = (0.0, math.inf)

_HELP, _RANGE, _CHOICES = "help", "range", "choices"


def param(
    default: T,
    help: str,
    *,
    range: tuple[float, float] | None = None,
    choices: tuple[str, ...] = (),
) -> T:
    """A Params field with its default, its help sentence and, for a number, its closed
    range (``UNIT``, ``NON_NEGATIVE`` or any ``(lo, hi)``); for a word, its choices (a
    ``Literal`` annotation gives them too)."""
    meta = {_HELP: help, _RANGE: range, _CHOICES: choices}
    field: T = dataclasses.field(default=default, metadata=meta)
    return field


@dataclass(frozen=True, slots=True)
class ParamDoc:
    """What is declared of one parameter: name, type, default, help, range, choices."""

    name: str
    kind: type
    default: object
    help: str
    range: tuple[float, float] | None
    choices: tuple[str, ...]
    optional: bool  # None is a value (e.g. ``confidences``: None = auto)

    @property
    def is_number(self) -> bool:
        return self.kind in (int, float)

    def allowed(self) -> str:
        """The values accepted, in words (``"0 to 1"``, ``"rrc, legacy"``, ``"true, false"``)."""
        if self.kind is bool:
            text = "true, false"
        elif self.choices:
            text = ", ".join(self.choices)
        elif self.range is not None:
            lo, hi = self.range
            text = "0 to 1" if self.range == UNIT else f"{lo:g} to {hi:g}".replace("inf", "∞")
        else:
            text = self.kind.__name__
        return f"{text}, none" if self.optional else text

    def tooltip(self) -> str:
        """The viewer's tooltip, the same words as ``--describe``."""
        return f"{self.help}. Official default: {self.default!r}; accepts {self.allowed()}."


def _base(annotation: object) -> object:
    if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is typing.Union:
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        return _base(args[0]) if args else str
    return annotation


def _doc(f: dataclasses.Field[object], annotation: object) -> ParamDoc:
    base = _base(annotation)
    literal = typing.get_origin(base) is typing.Literal
    choices = tuple(map(str, typing.get_args(base))) if literal else f.metadata.get(_CHOICES, ())
    kind = str if literal or not isinstance(base, type) else base
    return ParamDoc(
        name=f.name,
        kind=kind,
        default=f.default,
        help=f.metadata.get(_HELP, ""),
        range=f.metadata.get(_RANGE),
        choices=tuple(choices),
        optional=type(None) in typing.get_args(annotation),
    )


def docs(params_type: type) -> tuple[ParamDoc, ...]:
    """Every parameter of a Params dataclass as declared, in field order."""
    hints = typing.get_type_hints(params_type)
    return tuple(_doc(f, hints[f.name]) for f in dataclasses.fields(params_type))


def coerce(doc: ParamDoc, value: str) -> object:
    """A ``--set`` string as a value of the parameter's type (ValueError naming the type)."""
    text = value.strip()
    if text.lower() in ("none", "null") and doc.optional:
        return None
    if doc.kind is bool:
        if text.lower() in ("1", "true", "yes", "on"):
            return True
        if text.lower() in ("0", "false", "no", "off"):
            return False
        raise ValueError(f"expected true or false, got {value!r}")
    if doc.kind in (int, float):
        try:
            return doc.kind(text)
        except ValueError:
            kind = "an integer" if doc.kind is int else "a number"
            raise ValueError(f"expected {kind}, got {value!r}") from None
    return text


def check(doc: ParamDoc, value: object) -> None:
    """Raise ValueError, in one line naming the parameter, when ``value`` is outside its
    declared range or choices (every float must be finite)."""
    if doc.choices and value is not None and value not in doc.choices:
        raise ValueError(f"{doc.name} must be one of {', '.join(doc.choices)}, got {value!r}")
    if isinstance(value, bool) or not isinstance(value, int | float):
        return
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"{doc.name} must be a finite number, got {value}")
    lo, hi = doc.range or (-math.inf, math.inf)
    if not lo <= value <= hi:
        what = "from 0 to 1" if (lo, hi) == UNIT else f"in [{lo:g}, {hi:g}]"
        raise ValueError(f"{doc.name} must be {what}, got {value:g}")


def make(params_type: type[P], overrides: Mapping[str, object] | None, owner: str) -> P:
    """``params_type`` with ``overrides`` (strings converted to the field types, every value
    checked). KeyError naming the valid keys for an unknown one; ValueError for a bad value."""
    by_name = {d.name: d for d in docs(params_type)}
    kwargs: dict[str, object] = {}
    for key, value in (overrides or {}).items():
        doc = by_name.get(key)
        if doc is None:
            raise KeyError(f"{owner} has no parameter {key!r}; it has: {', '.join(by_name)}")
        kwargs[key] = coerce(doc, value) if isinstance(value, str) else value
        check(doc, kwargs[key])
    return params_type(**kwargs)
