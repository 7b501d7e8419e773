"""The type of JSON data, read or written: what ``json.loads`` gives and ``json.dumps``
takes. Containers are read-only views (``Sequence``, ``Mapping``), so a ``list[float]`` or
a ``dict[str, list[int]]`` built by a writer is a ``JSONValue`` as it is; ``JSONObject`` is
the mutable object a writer builds."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeAlias

JSONValue: TypeAlias = (
    "str | int | float | bool | Sequence[JSONValue] | Mapping[str, JSONValue] | None"
)
JSONObject: TypeAlias = "dict[str, JSONValue]"
