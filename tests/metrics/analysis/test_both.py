"""Every analysis for both sides of a comparison (``metrics.analysis.both``), the classes a
metric cannot have (``metrics.analysis.classes``) and the analyses kept in JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from metrics.analysis import serialize
from metrics.analysis.attribution import attribute
from metrics.analysis.both import MIN_GT, bucket_pairs, by_delta, class_pairs
from metrics.analysis.classes import MERGE, PARTIAL_CREDIT, SPLIT, impossible
from metrics.catalogue.registry import METRICS, applicable, make_params, resolve
from metrics.cli.main import main
from metrics.core.model import Dataset
from metrics.core.results import MatchKind
from metrics.io.demo import demo_paths
from metrics.io.reader import load_dataset
from metrics.run.runner import run
from tests.support import box, boxes, dets, gts, rect, sample


def _split_sample(sid: str = "img_1") -> Dataset:
    """One word cut in two: a split under DetEval, a miss plus false positives under IoU."""
    g = [box(0, 0, 200, 20, "WORD")]
    return Dataset((sample(g, list(boxes((0, 0, 100, 20), (100, 0, 200, 20))), sid=sid),))


def test_a_one_to_one_metric_has_no_split_class() -> None:
    ds = _split_sample()
    for mid, can in (("tiou", False), ("deteval", True)):
        spec = resolve(mid)
        ev = run(ds, [spec])[0]
        a = attribute(ds, spec, make_params(spec, None), ev)
        split = next(c for c in a.classes if c.name == "split")
        if can:
            assert not split.impossible and split.errors == 1 and split.gain > 0
        else:
            assert split.impossible.startswith("tiou has no split class: a split is booked")
            assert (split.errors, split.gain, split.hmean) == (0, 0.0, ev.hmean)
            assert "miss plus false positives" in split.impossible


def test_the_declared_classes_are_those_the_metrics_produce() -> None:
    """No metric outside SPLIT/MERGE makes split/merge records; none outside PARTIAL_CREDIT
    gives a one-to-one match less than full credit (demo data and a split case)."""
    d = demo_paths()
    for ds in (load_dataset(d.gt, d.det_b), _split_sample()):
        for spec in applicable(ds):
            ev = run(ds, [spec], policy="skip_sample")[0]
            for r in ev.results.values():
                kinds = {m.kind for m in r.matches}
                if spec.id not in SPLIT:
                    assert MatchKind.SPLIT not in kinds, spec.id
                if spec.id not in MERGE:
                    assert MatchKind.MERGE not in kinds, spec.id
                if spec.id in PARTIAL_CREDIT:
                    continue
                credit = {g.index: g.credit for g in r.gt}
                for m in r.matches:
                    if m.kind is MatchKind.ONE_TO_ONE and spec.view is None:
                        assert all(credit.get(i, 1.0) == 1.0 for i in m.gt), spec.id
    assert all(impossible(m, "missed") == "" for m in METRICS)


def test_cleval_counts_missed_characters() -> None:
    g = gts((rect(0, 0, 100, 20), "HELLO"), (rect(0, 40, 100, 60), "WORLD"))
    ds = Dataset((sample(g, dets(rect(0, 0, 100, 20))),))
    spec = resolve("cleval_det")
    ev = run(ds, [spec])[0]
    a = attribute(ds, spec, make_params(spec, None), ev)
    missed = next(c for c in a.classes if c.name == "missed")
    assert (missed.errors, missed.count, missed.unit) == (1, 5.0, "characters")
    tiou = resolve("tiou")
    ev_t = run(ds, [tiou])[0]
    missed_t = next(
        c for c in attribute(ds, tiou, make_params(tiou, None), ev_t).classes if c.name == "missed"
    )
    assert (missed_t.count, missed_t.unit) == (1.0, "GT boxes")


def _many(n: int, found_by_b: bool) -> Dataset:
    """``n`` images of two words each; A finds the first word, B both (or the first)."""
    g = gts((rect(0, 0, 100, 20), "AAAA"), (rect(0, 40, 100, 60), "BBBB"))
    d = dets(rect(0, 0, 100, 20), rect(0, 40, 100, 60)) if found_by_b else dets(rect(0, 0, 100, 20))
    return Dataset(tuple(sample(g, d, sid=f"img_{k}") for k in range(n)))


def test_bucket_pairs_give_b_minus_a_and_an_interval_only_where_not_tiny() -> None:
    spec = resolve("ic15_iou")
    a_ds, b_ds = _many(MIN_GT, False), _many(MIN_GT, True)
    a, b = run(a_ds, [spec])[0], run(b_ds, [spec])[0]
    pairs = bucket_pairs((a_ds, b_ds), (a, b), "text_length", (spec, spec))
    (p,) = pairs
    assert (p.a.recall, p.b.recall, p.delta) == (0.5, 1.0, 0.5)
    assert p.low == pytest.approx(0.5) and p.high == pytest.approx(0.5)
    small_a, small_b = run(_many(3, False), [spec])[0], run(_many(3, True), [spec])[0]
    few = bucket_pairs((_many(3, False), _many(3, True)), (small_a, small_b), "text_length")
    assert few[0].delta == 0.5 and few[0].low is None and few[0].high is None
    same = bucket_pairs((a_ds, a_ds), (a, a), "text_length", interval=False)
    assert same[0].delta == 0.0 and same[0].low is None


def test_class_pairs_and_images_by_delta() -> None:
    spec = resolve("ic15_iou")
    a_ds, b_ds = _many(4, False), _many(4, True)
    a, b = run(a_ds, [spec])[0], run(b_ds, [spec])[0]
    prm = make_params(spec, None)
    pairs = class_pairs(attribute(a_ds, spec, prm, a), attribute(b_ds, spec, prm, b))
    missed = next(p for p in pairs if p.name == "missed")
    assert missed.a.errors == 4 and missed.b.errors == 0 and missed.delta < 0
    assert next(p for p in pairs if p.name == "split").a.impossible
    rows = by_delta(b, a)  # A as B: every image loses
    assert [r[0] for r in rows] == ["img_0", "img_1", "img_2", "img_3"]
    assert all(hb < ha for _, ha, hb in rows)
    doc = serialize.class_pairs_dict(pairs)
    assert {"name", "a", "b", "delta_gain", "impossible"} <= set(doc[0])
    json.dumps(doc, allow_nan=False)


def test_eval_json_keeps_the_analyses_whatever_quiet_says(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "e.json"
    args = ["eval", "--metric", "tiou,cleval_det", "--sweep", "--sweep-points", "20"]
    assert main([*args, "--attribution", "-q", "--json", str(out)]) == 0
    assert capsys.readouterr().out == ""
    docs = json.loads(out.read_text())
    for doc in docs:
        analysis = doc["analysis"]
        assert len(analysis["sweep"]["points"]) == 20
        assert analysis["sweep"]["best_chosen_on"] == "the evaluated set itself"
        names = [c["name"] for c in analysis["attribution"]["classes"]]
        assert names[0] == "missed" and names[-1] == "all"
    tiou = {c["name"]: c for c in docs[0]["analysis"]["attribution"]["classes"]}
    assert tiou["split"]["impossible"] and not tiou["missed"]["impossible"]
    assert not {c["name"]: c for c in docs[1]["analysis"]["attribution"]["classes"]}["split"][
        "impossible"
    ]


def test_a_sweep_table_of_a_subset_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "--metric", "tiou", "--sweep", "--sweep-points", "20"]) == 0
    out = capsys.readouterr().out
    assert "of the 20 thresholds shown (every 2nd, the last and the best; all of them in" in out


def test_cleval_notes_say_their_units(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "--metric", "cleval_det"]) == 0
    out = capsys.readouterr().out
    assert " chars" in out and " dets" in out and "miss " in out
    line = next(x for x in out.splitlines() if x.startswith("cleval_det"))
    assert "fp_chars" in line and line.split("miss ")[1].split(",")[0].endswith("chars")


def test_compare_of_two_metrics_asks_no_bootstrap(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    d = demo_paths()
    out = tmp_path / "c.json"
    args = ["compare", "--gt", str(d.gt), "--det", str(d.det_b), "--metric", "iou"]
    assert main([*args, "--metric", "tiou", "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert "Is B really better?" not in text and "no bootstrap" in text
    assert "bootstrap" not in json.loads(out.read_text())
