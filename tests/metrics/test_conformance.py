"""Every visible reference file of ../shared/reference, reproduced through ``detlens eval``.

Only the ``inputs`` of each reference file are given on the command line (plus
``--gt-lines`` for the word+text-line metrics); box type and id pairing are detected.
Per-image SIoU entries flagged ``stale`` (spec 3.8 Q4) are skipped.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from metrics.cli.main import main
from metrics.registry import resolve
from tests.conftest import SHARED, shared_or_skip

TOL = 1e-6


def _reference_files() -> list[str]:
    ref = SHARED / "reference"
    if not ref.is_dir():
        return ["<missing>"]
    names = []
    for f in sorted(ref.glob("*.json")):
        if f.name.endswith(".FAILED.json"):
            continue
        metric = json.loads(f.read_text())["metric"]
        try:
            resolve(metric)  # ids and aliases (cleval_det_polyfix is cleval_det on polygons)
        except KeyError:
            continue
        names.append(f.name)
    return names


def _run(ref: dict[str, Any], out: Path) -> dict[str, Any]:
    """``detlens eval`` on a reference file's inputs only (+ the text-line GT if it has one)."""
    inputs = ref["inputs"]
    argv = [
        "eval",
        "--gt",
        str(SHARED.parent / inputs["gt"]),
        "--det",
        str(SHARED.parent / inputs["det"]),
        "--metric",
        ref["metric"],
        "--json",
        str(out),
        "--quiet",
    ]
    if "gt_textline" in inputs:
        argv += ["--gt-lines", str(SHARED.parent / inputs["gt_textline"])]
    assert main(argv) == 0
    data: dict[str, Any] = json.loads(out.read_text())
    return data


@pytest.mark.conformance
@pytest.mark.parametrize("name", _reference_files())
def test_reference_reproduced_per_image(name: str, tmp_path: Path) -> None:
    path = shared_or_skip("reference", name)
    ref = json.loads(path.read_text())
    out = _run(ref, tmp_path / "out.json")
    assert out["metric"] == resolve(ref["metric"]).id
    for key in ("recall", "precision", "hmean"):
        assert out["global"][key] == pytest.approx(ref["global"][key], abs=TOL), key
    assert set(out["per_image"]) == set(ref["per_image"])
    bad = []
    for sid, want in ref["per_image"].items():
        if want.get("stale"):
            continue
        got = out["per_image"][sid]
        bad += [
            (sid, k, got[k], want[k])
            for k in ("recall", "precision", "hmean")
            if abs(got[k] - want[k]) > TOL
        ]
    assert not bad, f"{len(bad)} per-image values differ, first: {bad[:3]}"


@pytest.mark.conformance
@pytest.mark.parametrize(
    "name", ["ic15__pixellink__ic15_iou.json", "ctw1500__det__curved_iou.json"]
)
def test_reference_pairs_reproduced(name: str, tmp_path: Path) -> None:
    ref = json.loads(shared_or_skip("reference", name).read_text())
    out = _run(ref, tmp_path / "o.json")
    for sid, want in ref["per_image"].items():
        got = out["per_image"][sid]
        pairs = sorted([p["gt"][0], p["det"][0]] for p in got["pairs"])
        assert pairs == sorted(want["pairs"]), sid
        assert got["gt_dont_care"] == sorted(want["gt_dont_care"]), sid
        assert got["det_dont_care"] == sorted(want["det_dont_care"]), sid
