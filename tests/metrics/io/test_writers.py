"""JSON and CSV writers (``metrics.io.writers``): the JSON round-trips (what is read back
is what was written, evidence included) and the CSV's global row repeats the scores."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from metrics.catalogue.registry import METRICS
from metrics.io.demo import demo_paths
from metrics.io.reader import load_dataset
from metrics.io.writers import evaluation_dict, write_csv, write_json
from metrics.run.runner import run


@pytest.fixture(scope="module")
def evals():
    demo = demo_paths()
    ds = load_dataset(demo.gt, demo.det_b)
    specs = [METRICS[m] for m in ("ic15_iou", "tiou", "cleval_e2e")]
    return run(ds, specs)


@pytest.mark.parametrize("evidence", [False, True])
def test_json_round_trip(evals, evidence: bool, tmp_path: Path) -> None:
    out = tmp_path / "o.json"
    write_json(out, evals, evidence=evidence)
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data == [json.loads(json.dumps(evaluation_dict(e, evidence))) for e in evals]
    again = tmp_path / "again.json"
    again.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    assert again.read_bytes() == out.read_bytes()  # nothing lost or reformatted on the way
    for written, ev in zip(data, evals, strict=True):
        assert written["metric"] == ev.metric
        assert (written["global"]["recall"], written["global"]["hmean"]) == (ev.recall, ev.hmean)
        for sid, r in ev.results.items():
            assert written["per_image"][sid]["precision"] == r.precision
            assert ("evidence" in written["per_image"][sid]) is evidence


def test_one_metric_is_one_object(evals, tmp_path: Path) -> None:
    out = tmp_path / "o.json"
    write_json(out, evals[:1])
    assert json.loads(out.read_text())["metric"] == "ic15_iou"


def test_csv_has_a_row_per_sample_and_a_global_row(evals, tmp_path: Path) -> None:
    out = tmp_path / "o.csv"
    write_csv(out, evals)
    rows = list(csv.DictReader(out.open()))
    assert len(rows) == sum(len(e.results) + 1 for e in evals)
    glob = {r["metric"]: r for r in rows if r["sample"] == "*"}
    for ev in evals:
        assert float(glob[ev.metric]["hmean"]) == ev.hmean
