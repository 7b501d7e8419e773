"""The conformance machinery shared by ``test_conformance`` (the seed metrics) and
``test_conformance_protocols`` (the datasets' and toolkits' protocols): discovery of the
reference files in the shared ``reference/`` folder, indexed by metric x dataset, and the
engine's evaluation of each, computed once per session whichever module asks first.

A reference file ``<dataset>__<detset>__<metric>.json`` takes part when its metric is
registered (by id or alias, e.g. ``cleval_det_polyfix`` is ``cleval_det`` on polygons); the
test ids read ``<metric>-<dataset>-<detset>`` (``tiou-ic15-pixellink``). Only the reference's
``inputs`` are given (plus the text-line GT for the word + text-line metrics); box type, id
pairing and file format are detected as ``detlens eval`` does. The shared folder is
``$DETLENS_SHARED`` or ``../shared``; without it every test skips saying where it looked.
"""

from __future__ import annotations

import functools
import json
from typing import Any

import pytest

from metrics.catalogue.registry import resolve
from metrics.core.model import Dataset
from metrics.core.results import Evaluation
from metrics.io.reader import load_dataset
from metrics.run.runner import run
from tests.support import shared_input, shared_or_skip, shared_path

TOL = 1e-6
KEYS = ("recall", "precision", "hmean")


def _discover() -> list[tuple[str, str]]:
    """(file name, metric id) of every reference whose metric is registered."""
    folder = shared_path("reference")
    if not folder.is_dir():
        return []
    found = []
    for f in sorted(folder.glob("*.json")):
        if f.name.endswith(".FAILED.json"):
            continue
        metric = json.loads(f.read_text())["metric"]
        try:
            found.append((f.name, resolve(metric).id))
        except KeyError:
            continue  # a protocol the engine does not implement (yet)
    return found


REFERENCES = _discover()


def _test_id(name: str) -> str:
    dataset, detset, metric = name.removesuffix(".json").split("__")
    return f"{metric}-{dataset}-{detset}"


def references(*metrics: str, only: tuple[str, ...] = ()) -> list[Any]:
    """Parameters: reference file names (all, or those of the given metric ids / names)."""
    chosen = [
        n
        for n, mid in REFERENCES
        if (not metrics or mid in metrics) and (not only or _test_id(n) in only)
    ]
    if not chosen:  # no shared data: one test that skips with the reason
        return [pytest.param("<missing>", id="shared-missing")]
    return [pytest.param(n, id=_test_id(n)) for n in chosen]


@functools.cache
def _reference(name: str, root: str) -> dict[str, Any]:
    del root  # part of the cache key: another DETLENS_SHARED is another reference
    data: dict[str, Any] = json.loads(shared_or_skip("reference", name).read_text())
    return data


def reference(name: str) -> dict[str, Any]:
    shared_or_skip("reference", name)
    return _reference(name, str(shared_path()))


def _dataset(ref: dict[str, Any]) -> Dataset:
    inputs = ref["inputs"]
    lines = inputs.get("gt_textline")
    return load_dataset(
        shared_input(inputs["gt"]),
        shared_input(inputs["det"]),
        gt_lines=None if lines is None else shared_input(lines),
    )


@functools.cache
def _evaluated(
    name: str, root: str, overrides: tuple[tuple[str, Any], ...] = ()
) -> tuple[Dataset, Evaluation]:
    ref = _reference(name, root)
    spec = resolve(ref["metric"])
    ds = _dataset(ref)
    ev = run(ds, [spec], {spec.id: dict(overrides)})[0]
    return ds, ev


def evaluated(name: str, **overrides: Any) -> tuple[dict[str, Any], Dataset, Evaluation]:
    """The reference, its dataset and the engine's evaluation (computed once per session)."""
    ref = reference(name)
    ds, ev = _evaluated(name, str(shared_path()), tuple(sorted(overrides.items())))
    return ref, ds, ev
