"""Instance attributes of a dataset (script, language, legibility, ...) for the inspector and
the sample filter: which attributes there are, their values, and the samples holding each."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from metrics.core.model import Dataset, Instance

AttributeIndex = dict[str, dict[str, set[str]]]  # name -> value -> sample ids


def value_text(value: object) -> str:
    """An attribute value as typed in the filter (``true``/``false`` for booleans)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def instance_attributes(inst: Instance) -> list[tuple[str, str]]:
    """(name, value) of an instance's attributes, plus its don't-care flag."""
    out = [(k, value_text(v)) for k, v in (inst.attrs or {}).items()]
    if inst.dont_care:
        out.append(("dont_care", "true"))
    return out


def attribute_index(dataset: Dataset | None) -> AttributeIndex:
    """Every attribute name and value of the dataset's GT and detections, with the ids of the
    samples that hold at least one instance with it."""
    out: AttributeIndex = {}
    for s in dataset or ():
        for inst in (*s.gt, *s.det):
            if inst.attrs:
                for k, v in inst.attrs.items():
                    out.setdefault(k, {}).setdefault(value_text(v), set()).add(s.id)
    return out


def parse_filter(text: str) -> tuple[str, str] | None:
    """``name=value`` (spaces around allowed) or None for a plain sample-id filter."""
    name, eq, value = text.partition("=")
    if not eq or not name.strip():
        return None
    return name.strip(), value.strip()


def matching_samples(
    index: Mapping[str, Mapping[str, set[str]]], name: str, value: str
) -> set[str]:
    """Samples with an instance whose attribute ``name`` equals ``value`` (case-insensitive);
    every sample with the attribute when ``value`` is empty."""
    values = index.get(name, {})
    want = value.lower()
    found: Iterable[set[str]] = (ids for v, ids in values.items() if not want or v.lower() == want)
    return set().union(*found)


def summary(index: Mapping[str, Mapping[str, set[str]]], limit: int = 6) -> str:
    """One line per attribute: its values (the first few) - the filter box's tooltip."""
    lines = []
    for name in sorted(index):
        values = sorted(index[name])
        more = ", …" if len(values) > limit else ""
        lines.append(f"{name}: {', '.join(values[:limit])}{more}")
    return "\n".join(lines)
