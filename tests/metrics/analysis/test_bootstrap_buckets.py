"""Paired bootstrap on constructed cases and against a plain loop; buckets on a hand case;
the per-instance export."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest

from metrics.analysis.bootstrap import paired, weights
from metrics.analysis.buckets import available, buckets
from metrics.analysis.instances import COLUMNS, write_instances
from metrics.catalogue.registry import resolve
from metrics.core.model import Dataset
from metrics.core.results import aggregate
from metrics.io.demo import demo_paths
from metrics.io.reader import load_dataset
from metrics.run.runner import run
from tests.support import dets, gts, rect, sample


def _demo_pair() -> tuple[Dataset, object, object]:
    d = demo_paths()
    ds_a, ds_b = load_dataset(d.gt, d.det_a), load_dataset(d.gt, d.det_b)
    spec = resolve("tiou")
    return ds_a, run(ds_a, [spec])[0], run(ds_b, [spec])[0]


def test_bootstrap_matches_a_plain_resampling_loop() -> None:
    _, a, b = _demo_pair()
    bs = paired(a, b, resamples=200, seed=3)
    ids = list(a.results)
    w = weights(len(ids), 200, np.random.default_rng(3))
    deltas = []
    for row in w:
        drawn = [s for s, k in zip(ids, row, strict=True) for _ in range(int(k))]
        ha = aggregate(a.results[s] for s in drawn).hmean
        hb = aggregate(b.results[s] for s in drawn).hmean
        deltas.append(hb - ha)
    low, high = np.percentile(deltas, [2.5, 97.5])
    assert (bs.low, bs.high) == pytest.approx((low, high), abs=1e-12)
    assert bs.share_not_better == pytest.approx(np.mean(np.asarray(deltas) <= 0))
    assert bs.delta == pytest.approx(b.hmean - a.hmean, abs=1e-12)
    assert bs.better + bs.worse + bs.equal == len(ids)


def test_bootstrap_of_identical_evaluations_is_zero() -> None:
    _, a, _ = _demo_pair()
    bs = paired(a, a, resamples=500)
    assert (bs.delta, bs.low, bs.high, bs.share_not_better) == (0.0, 0.0, 0.0, 1.0)
    assert bs.equal == len(a.results) and bs.better == bs.worse == 0


def test_bootstrap_when_b_is_better_on_every_image() -> None:
    # two images, 2 GT each; A finds one GT per image, B both: every resample has B > A
    g = gts((rect(0, 0, 100, 20), "A"), (rect(0, 40, 100, 60), "B"))
    both = dets(rect(0, 0, 100, 20), rect(0, 40, 100, 60))
    one = dets(rect(0, 0, 100, 20))
    spec = resolve("ic15_iou")
    a = run(Dataset((sample(g, one, sid="x"), sample(g, one, sid="y"))), [spec])[0]
    b = run(Dataset((sample(g, both, sid="x"), sample(g, both, sid="y"))), [spec])[0]
    bs = paired(a, b, resamples=1000)
    assert bs.delta == pytest.approx(1 / 3)  # H 2/3 -> 1
    assert bs.low == pytest.approx(1 / 3) and bs.high == pytest.approx(1 / 3)
    assert bs.share_not_better == 0.0 and (bs.better, bs.worse, bs.equal) == (2, 0, 0)


def test_buckets_by_height_and_text_length() -> None:
    # heights 10, 20, 30, 40 (widths 100); the detections find the two tallest
    g = gts(
        (rect(0, 0, 100, 10), "A"),
        (rect(0, 100, 100, 120), "BBBB"),
        (rect(0, 200, 100, 230), "CCCCCCCC"),
        (rect(0, 300, 100, 340), "DDDDDDDDDDDD"),
    )
    d = dets(rect(0, 200, 100, 230), rect(0, 300, 100, 340))
    ds = Dataset((sample(g, d),))
    ev = run(ds, [resolve("ic15_iou")])[0]
    by_h = buckets(ds, ev, "height")  # quartile edges 17.5, 25, 32.5
    assert [(b.label, b.n_gt, b.recall) for b in by_h] == [
        ("< 17.5 px", 1, 0.0),
        ("17.5–25 px", 1, 0.0),
        ("25–32.5 px", 1, 1.0),
        ("≥ 32.5 px", 1, 1.0),
    ]
    assert [(b.n_det, b.precision) for b in by_h] == [(0, 0.0), (0, 0.0), (1, 1.0), (1, 1.0)]
    by_len = buckets(ds, ev, "text_length")
    assert [(b.label, b.recall) for b in by_len] == [
        ("1", 0.0),
        ("4–6", 0.0),
        ("7–10", 1.0),
        ("≥ 11", 1.0),
    ]
    assert by_len[2].gts == (("img_1", 2),)
    vertical = buckets(ds, ev, "vertical")
    assert [b.label for b in vertical] == ["not vertical"]
    assert "text_length" in available(ds)


def test_instances_export_csv_and_jsonl(tmp_path: Path) -> None:
    d = demo_paths()
    ds = load_dataset(d.gt, d.det_b)
    evs = run(ds, [resolve("tiou"), resolve("tedeval")], policy="skip_sample")
    n_rows = sum(len(ds[s].gt) + len(ds[s].det) for ev in evs for s in ev.results)
    assert write_instances(tmp_path / "i.csv", ds, evs) == n_rows
    rows = list(csv.DictReader((tmp_path / "i.csv").open(encoding="utf-8")))
    assert len(rows) == n_rows and list(rows[0])[: len(COLUMNS)] == list(COLUMNS)
    missed = [r for r in rows if r["metric"] == "tiou" and r["verdict"] == "missed"]
    assert missed and all(r["side"] == "gt" and int(r["line"]) >= 1 for r in missed)
    matched = next(r for r in rows if r["metric"] == "tiou" and r["match"] == "OO")
    assert matched["partners"] and float(matched["credit"]) > 0
    assert write_instances(tmp_path / "i.jsonl", ds, evs) == n_rows
    first = json.loads((tmp_path / "i.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert first["index"] == 1 and isinstance(first["partners"], list)
    with pytest.raises(ValueError, match=r"\.csv or \.jsonl"):
        write_instances(tmp_path / "i.txt", ds, evs)


def test_buckets_by_an_attribute_the_reader_kept(tmp_path: Path) -> None:
    """ICDAR MLT lines carry the script as the 9th field: the reader keeps it on the
    instance (``Instance.attrs``) and the buckets group by it."""
    gt, det = tmp_path / "gt", tmp_path / "det"
    gt.mkdir()
    det.mkdir()
    (gt / "gt_img_1.txt").write_text(
        f"{rect(0, 0, 100, 20)},Latin,HELLO\n{rect(0, 100, 100, 120)},Arabic,مرحبا\n"
        f"{rect(0, 200, 100, 220)},Latin,WORLD\n",
        encoding="utf-8",
    )
    (det / "res_img_1.txt").write_text(f"{rect(0, 0, 100, 20)}\n")
    ds = load_dataset(gt, det)
    assert [g.attrs for g in ds.samples[0].gt] == [
        {"script": s} for s in ("Latin", "Arabic", "Latin")
    ]
    ev = run(ds, [resolve("ic15_iou")])[0]
    assert "script" in available(ds)
    by_script = {b.label: (b.n_gt, b.recall) for b in buckets(ds, ev, "script")}
    assert by_script == {"Arabic": (1, 0.0), "Latin": (2, 0.5)}
