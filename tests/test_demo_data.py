"""The bundled demo data is what scripts/make_demo_data.py generates, byte for byte."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from metrics import evaluate
from metrics.io.demo import demo_paths

ROOT = Path(__file__).resolve().parents[1]


def test_generator_reproduces_the_bundled_text_files(tmp_path: Path) -> None:
    pytest.importorskip("PIL")
    subprocess.run(
        [sys.executable, str(ROOT / "scripts/make_demo_data.py"), "--out", str(tmp_path)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    bundled = ROOT / "resources/demo"
    names = sorted(p.relative_to(bundled) for p in bundled.rglob("*.txt"))
    assert len(names) == 36
    for name in names:
        assert (tmp_path / name).read_bytes() == (bundled / name).read_bytes(), name
    size = sum(p.stat().st_size for p in bundled.rglob("*") if p.is_file())
    assert size < 2_000_000


def test_demo_covers_the_cases_it_promises() -> None:
    demo = demo_paths()
    ev = evaluate(demo.gt, demo.det_b, metric="tiou")
    kinds = {r.verdict.value for res in ev.results.values() for r in (*res.gt, *res.det)}
    assert kinds >= {"matched", "partial", "missed", "false_positive", "dont_care"}
    outliers = [m for res in ev.results.values() for m in res.matches if m.values["ot"] > 0]
    assert outliers, "a detection that swallows a neighbour (TIoU outlier)"
    iou = evaluate(demo.gt, demo.det_b, metric="iou")
    near = [
        r.near_miss.value for res in iou.results.values() for r in res.gt if r.near_miss is not None
    ]
    assert any(0.45 < v <= 0.5 for v in near), "a near miss just under IoU 0.5"
