"""The light catalogue (``metrics.catalog``) agrees with the families' specs, entry by entry,
and ``METRICS`` imports a family only when one of its specs is asked for."""

from __future__ import annotations

import importlib
import subprocess
import sys

from metrics.catalog import BY_ID, ENTRIES, entry
from metrics.registry import METRICS


def test_every_entry_is_its_familys_spec() -> None:
    for e in ENTRIES:
        spec = METRICS[e.id]
        assert spec.id == e.id
        assert spec.title == e.title, e.id
        assert spec.aliases == e.aliases, e.id
        assert spec.applies is e.applies, e.id
        assert spec.needs_gt_lines is e.needs_gt_lines, e.id
        assert spec in importlib.import_module(e.family).SPECS, e.id


def test_every_family_spec_has_an_entry() -> None:
    for family in {e.family for e in ENTRIES}:
        for spec in importlib.import_module(family).SPECS:
            assert BY_ID[spec.id].family == family, spec.id


def test_ids_and_aliases_name_one_metric_each() -> None:
    names = [n for e in ENTRIES for n in (e.id, *e.aliases)]
    assert len(names) == len(set(names))
    assert all(entry(n.upper()).id in BY_ID for n in names)


def test_metrics_iterates_ids_in_catalog_order() -> None:
    assert list(METRICS) == [e.id for e in ENTRIES]
    assert len(METRICS) == len(ENTRIES)
    assert "tiou" in METRICS and "nope" not in METRICS


def _loaded_after(code: str) -> set[str]:
    """Modules loaded by a fresh interpreter after running ``code``."""
    probe = f"import sys\n{code}\nprint('\\n'.join(sys.modules))"
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120
    ).stdout
    return set(out.split())


def test_a_lookup_imports_only_its_family() -> None:
    loaded = _loaded_after("from metrics.registry import resolve; resolve('ic13')")
    assert "metrics.deteval" in loaded
    assert not {"metrics.icdar", "metrics.cleval", "metrics.tedeval"} & loaded


def test_the_catalog_imports_no_family_nor_numpy() -> None:
    loaded = _loaded_after(
        "import metrics.catalog, metrics.registry; list(metrics.registry.METRICS)"
    )
    assert not {m for m in loaded if m.startswith(("numpy", "shapely", "metrics.icdar"))}
