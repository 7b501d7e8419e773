"""``detlens compare`` and metrics.analysis.compare: per-image differences of two evaluations."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from metrics import evaluate
from metrics.analysis.compare import compare
from metrics.cli.main import main
from metrics.io.demo import demo_paths


def test_compare_two_detectors_finds_what_each_one_found() -> None:
    d = demo_paths()
    a = evaluate(d.gt, d.det_a, metric="iou")
    b = evaluate(d.gt, d.det_b, metric="iou")
    c = compare(a, b, "A", "B")
    assert c.global_delta()["hmean"] == pytest.approx(b.hmean - a.hmean)
    deltas = [abs(s.delta() or 0.0) for s in c.samples]
    assert deltas == sorted(deltas, reverse=True)
    img7 = next(s for s in c.samples if s.sample_id == "img_7")
    # B merges OPEN/DAILY and misses Books: those GTs are found by A only
    assert {1, 2, 3} <= set(img7.found_by_a_only) and not img7.found_by_b_only
    found_a = {g.index for g in a.results["img_7"].gt if g.verdict.value == "matched"}
    assert set(img7.found_by_a_only) <= found_a


def test_compare_cli_json_and_metric_disagreement(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "c.json"
    assert main(["compare", "--json", str(out), "--top", "3"]) == 0
    text = capsys.readouterr().out
    assert "A = det_a, B = det_b" in text and "B - A" in text
    data = json.loads(out.read_text())
    assert data["a"]["name"] == "det_a" and len(data["per_image"]) == 12
    d = demo_paths()
    assert (
        main(
            [
                "compare",
                "--gt",
                str(d.gt),
                "--det",
                str(d.det_b),
                "--metric",
                "iou",
                "--metric",
                "tiou",
                "--json",
                str(out),
            ]
        )
        == 0
    )
    data = json.loads(out.read_text())
    assert (data["a"]["metric"], data["b"]["metric"]) == ("ic15_iou", "tiou")
    assert data["delta"]["hmean"] < 0


def test_compare_needs_two_of_something(capsys: pytest.CaptureFixture[str]) -> None:
    d = demo_paths()
    assert main(["compare", "--gt", str(d.gt), "--det", str(d.det_a)]) == 2
    assert "two --det" in capsys.readouterr().err
