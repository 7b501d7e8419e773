"""``metrics.run.sharded``: worker processes that read their own slices give exactly what
``load_dataset`` + ``runner.run`` give (summaries, extras, problems in order, excluded
samples, refusals), with one process and with two."""

from __future__ import annotations

import contextlib
import io
import itertools
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.catalogue.registry import METRICS, resolve
from metrics.cli.main import main
from metrics.core.model import Facts, InputError, facts_of
from metrics.io.demo import demo_paths
from metrics.io.reader import load_dataset
from metrics.run import sharded
from metrics.run.runner import Policy, run
from metrics.shapes.mode import Detail, Mode
from tests.support import shared_or_skip, write_dir

GOOD = "0,0,10,0,10,10,0,10,word\n20,0,30,0,30,10,20,10,###\n"
DET = "1,0,10,0,10,10,1,10\n40,40,50,40,50,50,40,50\n"


def _files(n: int) -> tuple[dict[str, str | bytes], dict[str, str | bytes]]:
    gt: dict[str, str | bytes] = {f"gt_img_{k}.txt": GOOD for k in range(1, n + 1)}
    det: dict[str, str | bytes] = {f"res_img_{k}.txt": DET for k in range(1, n + 1)}
    return gt, det


def _compare(gt: Path, det: Path, metrics: list[str], policy: Policy, workers: int) -> None:
    """Sharded outcome == loaded dataset + runner, or the same refusal."""
    specs = [resolve(m) for m in metrics]
    ds = load_dataset(gt, det)
    try:
        expected = run(ds, specs, {}, policy=policy)
        refused = None
    except InputError as exc:
        expected, refused = [], exc
    got = sharded.evaluate(gt, det, specs, {}, policy=policy, workers=workers)
    assert got is not None
    assert got.facts == ds.facts
    assert got.problems == ds.problems
    if refused is not None:
        assert got.refused is not None
        assert (str(got.refused), got.refused.problems) == (str(refused), refused.problems)
        return
    assert got.refused is None
    for a, b in zip(expected, got.evaluations, strict=True):
        assert (a.metric, a.summary, a.extras, a.problems, a.excluded) == (
            b.metric,
            b.summary,
            b.extras,
            b.problems,
            b.excluded,
        )


# 0: one process, the scans not kept (here and by ``load_dataset``, issue 30's memory)
@pytest.mark.parametrize("workers", [1, 2, 0])
@pytest.mark.parametrize("policy", ["strict", "skip_sample"])
def test_bad_inputs_give_the_same_problems_and_refusals(
    tmp_path: Path, workers: int, policy: Policy, monkeypatch: pytest.MonkeyPatch
) -> None:
    if workers == 0:
        monkeypatch.setattr(sharded, "KEEP_SCANS", 0)
        monkeypatch.setattr("metrics.io.icdar.plan.KEEP_SCANS", 0)
        workers = 1
    gt, det = _files(40)
    gt["gt_img_3.txt"] = "1,2,3,abc\n" + GOOD  # a bad GT line
    gt["gt_img_7.txt"] = "0,0,10,0,0,10,10,10,bowtie\n"  # self-intersecting: a warning
    det["res_img_5.txt"] = b"\xff\xfe1,1,5,1,5,5,1,5\n"  # not UTF-8
    det["res_img_9.txt"] = DET + "1,1,5,1,5,5,1,5,0.5\n"  # a confidence on one line
    det["res_unmatched_x.txt"] = DET  # matches no GT file
    g, d = write_dir(tmp_path / "gt", gt), write_dir(tmp_path / "det", det)
    _compare(g, d, ["ic15_iou", "tiou", "cleval_det"], policy, workers)


def test_one_process_scans_each_small_detection_file_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In one process, a small set's detection files are scanned once: finding the schema
    keeps the scans for reading (a large set, or workers, scan again per slice)."""
    from metrics.io.icdar import filelines
    from metrics.io.icdar import files as icdar_files
    from metrics.io.icdar import plan as icdar_plan

    gt, det = _files(12)
    g, d = write_dir(tmp_path / "gt", gt), write_dir(tmp_path / "det", det)
    scanned: list[bytes] = []
    real = filelines.scan_plain

    def counted(data: bytes) -> Any:
        scanned.append(data)
        return real(data)

    for module in (filelines, icdar_files, icdar_plan):
        if hasattr(module, "scan_plain"):
            monkeypatch.setattr(module, "scan_plain", counted)
    many = icdar_files.scan_many  # files scanned together (``metrics.io.icdar.bulk``)

    def counted_many(decoded: list[Any]) -> Any:
        scanned.extend(decoded)
        return many(decoded)

    monkeypatch.setattr(icdar_files, "scan_many", counted_many)
    counts = []
    for keep in (sharded.KEEP_SCANS, 0):
        monkeypatch.setattr(sharded, "KEEP_SCANS", keep)
        scanned.clear()
        got = sharded.evaluate(g, d, [resolve("tiou")], {}, workers=1)
        assert got is not None and got.evaluations[0].summary is not None
        counts.append(len(scanned))
    assert counts == [24, 36]  # 12 GT + 12 detection files; then the detections twice


@pytest.mark.parametrize("workers", [1, 2])
def test_demo_data_every_shardable_metric(workers: int) -> None:
    demo = demo_paths()
    metrics = [m for m, s in METRICS.items() if sharded.shardable(s) and not s.needs_gt_lines]
    for policy in ("strict", "skip_sample"):
        _compare(demo.gt, demo.det_b, metrics, policy, workers)  # type: ignore[arg-type]


def test_not_shardable_or_not_icdar_is_left_to_the_dataset_path(tmp_path: Path) -> None:
    demo = demo_paths()
    assert sharded.evaluate(demo.gt, demo.det_b, [resolve("mmocr")], {}) is None
    assert not sharded.shardable(resolve("hiertext_word"))
    js = write_dir(tmp_path / "j", {"a.json": '{"annotations": []}'})
    with contextlib.suppress(InputError):  # not ICDAR: None, or refused as unreadable
        assert sharded.evaluate(js, js, [resolve("tiou")], {}) is None


@settings(max_examples=25, deadline=None)
@given(cuts=st.lists(st.integers(0, 12), max_size=5))
def test_facts_add_up_over_any_split(cuts: list[int]) -> None:
    ds = load_dataset(demo_paths().gt, demo_paths().det_b)
    samples = list(ds.samples)
    edges = sorted({0, len(samples), *cuts})
    parts = [facts_of(samples[a:b], False) for a, b in itertools.pairwise(edges)]
    assert sum(parts, Facts()) == ds.facts


def _cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


def test_command_line_prints_the_same_with_one_or_two_workers(tmp_path: Path) -> None:
    demo = demo_paths()
    base = ["eval", "--gt", str(demo.gt), "--det", str(demo.det_b), "--metric", "tiou,cleval_det"]
    one, two = _cli(*base, "--workers", "1"), _cli(*base, "--workers", "2")
    assert one == two
    assert one[0] == 0 and "12 images" in one[1] and "cleval_det" in one[1]
    gt, det = _files(6)
    gt["gt_img_2.txt"] = "1,2,3,abc\n"
    g, d = write_dir(tmp_path / "gt", gt), write_dir(tmp_path / "det", det)
    for extra in ([], ["--policy", "skip_sample"]):
        args = ["eval", "--gt", str(g), "--det", str(d), "--metric", "tiou", *extra]
        assert _cli(*args, "--workers", "1") == _cli(*args, "--workers", "2")
    code, _, err = _cli("eval", "--gt", str(g), "--det", str(d), "--metric", "tiou")
    assert code == 2 and "gt_img_2.txt:1" in err


SHARED_SETS = [
    ("ic15/gt.zip", "ic15/det_pixellink.zip", ["ic15_iou", "tiou", "tedeval", "cleval_det"]),
    ("totaltext/gt.zip", "totaltext/det_baseline.zip", ["curved_tiou", "totaltext_deteval"]),
    ("ctw1500/gt.zip", "ctw1500/det.zip", ["ctw1500_eval", "curved_iou"]),
    ("ic13/gt.zip", "synthetic/ic13/split2.zip", ["deteval", "siou"]),
]


@pytest.mark.slow
@pytest.mark.parametrize(("gt", "det", "metrics"), SHARED_SETS)
def test_shared_data_two_workers(gt: str, det: str, metrics: list[str]) -> None:
    g, d = shared_or_skip("data", *gt.split("/")), shared_or_skip("data", *det.split("/"))
    for policy in ("strict", "skip_sample"):
        _compare(g, d, metrics, policy, 2)  # type: ignore[arg-type]


@pytest.mark.slow
def test_every_shardable_validation_splits_over_samples() -> None:
    """``MetricSpec.shardable``: validating slices gives, concatenated, what validating
    the whole set gives (checked on every shared set the metric reads)."""
    sets = [(g, d) for g, d, _ in SHARED_SETS] + [("dense/W50/gt.zip", "dense/W50/det.zip")]
    for gt, det in sets:
        g, d = shared_or_skip("data", *gt.split("/")), shared_or_skip("data", *det.split("/"))
        samples = list(load_dataset(g, d).samples)
        for spec in METRICS.values():
            if not sharded.shardable(spec) or spec.needs_gt_lines:
                continue
            prm = spec.params_type()
            whole = spec.validate(samples, prm)
            parts = [
                p for k in range(0, len(samples), 7) for p in spec.validate(samples[k : k + 7], prm)
            ]
            assert list(dict.fromkeys(parts)) == whole, (spec.id, gt)


@pytest.mark.parametrize("workers", [1, 2])
def test_results_when_asked_write_the_same_json_and_csv(tmp_path: Path, workers: int) -> None:
    from metrics.io.writers import write_csv, write_json

    demo = demo_paths()
    specs = [resolve(m) for m in ("ic15_iou", "tiou", "cleval_det", "paddleocr_det_iou")]
    expected = run(load_dataset(demo.gt, demo.det_b), specs, {}, policy="skip_sample")
    got = sharded.evaluate(
        demo.gt, demo.det_b, specs, {}, policy="skip_sample", workers=workers, results=True
    )
    assert got is not None and got.refused is None
    for name, evals in (("a", expected), ("b", got.evaluations)):
        write_json(tmp_path / f"{name}.json", evals, evidence=True)
        write_csv(tmp_path / f"{name}.csv", evals)
    for suffix in ("json", "csv"):
        assert (tmp_path / f"a.{suffix}").read_bytes() == (tmp_path / f"b.{suffix}").read_bytes()
    assert list(got.evaluations[0].results) == list(expected[0].results)


def test_workers_that_receive_the_job_pickled(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the workers cannot fork (spawn platforms, threaded callers) the plan and the
    slice function travel pickled: same outcome."""
    import metrics.run.pool as pool

    monkeypatch.setattr(pool, "fork_context", lambda: None)
    demo = demo_paths()
    _compare(demo.gt, demo.det_b, ["tiou", "cleval_det"], "skip_sample", 2)


@pytest.mark.parametrize(
    "metric",
    ["ic15_iou", "siou", "tiou", "curved_tiou", "cleval_det", "cleval_legacy_e2e", "ctw1500_eval"],
)
def test_a_summary_drops_the_gt_list_and_records_and_nothing_else(metric: str) -> None:
    from metrics.io.writers import jsonable

    ds = load_dataset(demo_paths().gt, demo_paths().det_b)
    spec = resolve(metric)
    prm = spec.params_type()
    whole = spec.evaluate(list(ds.samples), prm)
    light = spec.evaluate(list(ds.samples), prm, Mode(Detail.SUMMARY))
    assert any(r is not None and r.gt for r in whole)
    for a, b in zip(whole, light, strict=True):
        assert a is not None and b is not None
        assert b.gt == () and b.matches == ()
        assert a.complete and not b.complete  # the result says its lists were not built
        assert (a.recall, a.precision, a.hmean, a.tally, a.det, a.extra, a.warnings) == (
            b.recall,
            b.precision,
            b.hmean,
            b.tally,
            b.det,
            b.extra,
            b.warnings,
        )
        assert jsonable(a.evidence) == jsonable(b.evidence)


def test_a_json_set_declined_is_parsed_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Named metrics on a JSON set: the sharded path detects the formats and declines, and
    ``load_dataset`` reads the set; what detection parsed is reused, so the files are
    parsed no more often than by ``load_dataset`` alone."""
    import json

    from tests.support import ht_files, ht_words_image

    gt, det = ht_files(
        tmp_path, [ht_words_image([(0, 0, 40, 20)])], [ht_words_image([(1, 0, 41, 21)])]
    )
    parsed: list[int] = []
    real = json.loads
    monkeypatch.setattr(json, "loads", lambda *a, **k: parsed.append(1) or real(*a, **k))
    load_dataset(gt, det)
    alone, parsed[:] = len(parsed), []
    code, _, err = _cli("eval", "--gt", str(gt), "--det", str(det), "--metric", "tiou", "-q")
    assert code == 0, err
    assert alone >= 2 and len(parsed) == alone


@pytest.mark.parametrize("confidences", ["false", "true"])
def test_extras_that_do_not_read_the_evidence_are_the_same_without_it(confidences: str) -> None:
    """``MetricSpec.extras_read_evidence`` False: ``global_extras`` over results stripped of
    their evidence (as the workers send them) equals it over the whole results."""
    import dataclasses

    ds = load_dataset(demo_paths().gt, demo_paths().det_b)
    specs = [s for s in METRICS.values() if s.global_extras and not s.extras_read_evidence]
    assert {"cleval_det", "cleval_legacy_e2e"} <= {s.id for s in specs}
    seen: set[str] = set()
    for spec in specs:
        assert spec.global_extras is not None
        over = {"confidences": confidences} if spec.confidences else {}
        (ev,) = run(ds, [spec], {spec.id: over}, policy="skip_sample")
        results = list(ev.results.values())
        assert any(r.evidence is not None for r in results), spec.id
        bare = [dataclasses.replace(r, evidence=None) for r in results]
        assert spec.global_extras(bare) == spec.global_extras(results) == ev.extras, spec.id
        seen.update(ev.extras)
    assert "ap" not in seen  # none of these reports an AP (TedEval's, always 0, is withheld)
    assert "split" in seen  # CLEval's counters


def test_slices_send_no_evidence_that_the_extras_do_not_read() -> None:
    """What a slice sends back for a metric whose extras read no evidence carries none."""
    demo = demo_paths()
    names = ("cleval_legacy_det", "cleval_det", "ic15_iou", "tiou", "tedeval")
    plan_specs = [resolve(m) for m in names]
    kinds = [sharded._light_kind(s) for s in plan_specs]
    assert kinds == ["evidence", "evidence", "lists", "none", "none"]  # TedEval: no extras
    ds = load_dataset(demo.gt, demo.det_b)
    (ev,) = run(ds, [plan_specs[0]], {}, policy="skip_sample")
    r = next(iter(ev.results.values()))
    light = sharded._light(r, "evidence")
    assert light is not None and light.evidence is None and light.tally == r.tally
    assert light.extra == r.extra and light.gt == light.det == light.matches == ()
    assert sharded._light(r, "none") is None


@pytest.mark.parametrize("metric", ["tiou", "curved_tiou"])
def test_a_summary_clips_no_evidence_regions(metric: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The cut and outlier regions (``difference``, drawn in the viewer, never counted) are
    not computed in a summary-only run; with them the tallies are the same."""
    from metrics.shapes import robust

    ds = load_dataset(demo_paths().gt, demo_paths().det_b)
    spec = resolve(metric)
    prm = spec.params_type(auto_orient=True) if metric.startswith("curved") else spec.params_type()
    calls: list[int] = []
    real = robust.difference

    def counted(a: object, b: object) -> object:
        calls.append(1)
        return real(a, b)

    monkeypatch.setattr(robust, "difference", counted)
    whole = spec.evaluate(list(ds.samples), prm)
    assert calls, "the full run draws the regions"
    calls.clear()
    light = spec.evaluate(list(ds.samples), prm, Mode(Detail.SUMMARY))
    assert not calls
    assert [r.tally for r in whole if r] == [r.tally for r in light if r]
    assert any(r.matches and r.matches[0].regions for r in whole if r)


@pytest.mark.parametrize("workers", [1, 2])
def test_word_and_text_line_metrics_summary_only(tmp_path: Path, workers: int) -> None:
    """The word + text-line metrics keep their match regions in a summary-only run (their
    records are built either way): every image evaluated, the numbers of the loaded path."""
    words = "10,10,40,10,40,20,10,20,BLOCK\n44,10,80,10,80,20,44,20,441B\n0,50,9,50,9,60,0,60,###\n"
    words += "200,200,240,200,240,210,200,210,WORD\n"  # no line: matched word to word
    line = "10,10,80,10,80,20,10,20,aaa\n"
    dets = "10,10,80,10,80,20,10,20\n0,50,9,50,9,60,0,60\n100,100,120,100,120,110,100,110\n"
    dets += "201,200,240,200,240,210,201,210\n"
    n = 9
    gt = write_dir(tmp_path / "gt", {f"gt_img_{k}.txt": words for k in range(1, n + 1)})
    lines = write_dir(tmp_path / "lines", {f"gt_img_{k}.txt": line for k in range(1, n + 1)})
    det = write_dir(tmp_path / "det", {f"res_img_{k}.txt": dets for k in range(1, n + 1)})
    specs = [resolve("wordline_tiou"), resolve("wordline_iou")]
    expected = run(load_dataset(gt, det, gt_lines=lines), specs, {}, policy="strict")
    got = sharded.evaluate(gt, det, specs, {}, gt_lines=lines, policy="strict", workers=workers)
    assert got is not None and got.refused is None
    for a, b in zip(expected, got.evaluations, strict=True):
        assert not a.excluded and not b.excluded and not b.problems
        assert (a.summary, a.extras) == (b.summary, b.extras)
        assert b.summary is not None and b.summary.n_samples == n
    assert got.evaluations[0].recall > 0

    ds = load_dataset(gt, det, gt_lines=lines)
    for spec in specs:
        whole = spec.evaluate(list(ds.samples), spec.params_type())
        light = spec.evaluate(list(ds.samples), spec.params_type(), Mode(Detail.SUMMARY))
        assert any(r.gt and r.matches for r in whole)
        for a, b in zip(whole, light, strict=True):
            assert b.gt == () and b.matches == () and (a.tally, a.det) == (b.tally, b.det)


def test_word_and_text_line_iou_clips_no_outlier_when_only_tallies_are_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``Detail.TALLIES`` (no metric of the run reads more than the tallies):
    the word + text-line IoU counts its matches without clipping TIoU's outliers; its
    tallies are those of the whole run. TIoU, which reads them, still clips them; and with
    results read (``Detail.SUMMARY``) IoU's detection verdicts are the whole run's."""
    from metrics.icdar import wordline_batch

    words = "10,10,40,10,40,20,10,20,AB\n44,10,80,10,80,20,44,20,CD\n90,10,99,10,99,20,90,20,E\n"
    line = "10,10,80,10,80,20,10,20,aaa\n"
    dets = "12,8,85,8,85,22,12,22\n88,9,101,9,101,21,88,21\n"
    gt = write_dir(tmp_path / "gt", {f"gt_img_{k}.txt": words for k in range(1, 4)})
    lines = write_dir(tmp_path / "lines", {f"gt_img_{k}.txt": line for k in range(1, 4)})
    det = write_dir(tmp_path / "det", {f"res_img_{k}.txt": dets for k in range(1, 4)})
    samples = list(load_dataset(gt, det, gt_lines=lines).samples)
    calls: list[int] = []
    real = wordline_batch._line_outliers

    def counted(*args: Any) -> Any:
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(wordline_batch, "_line_outliers", counted)
    for metric, clips in (("wordline_iou", False), ("wordline_tiou", True)):
        spec = resolve(metric)
        whole = spec.evaluate(samples, spec.params_type())
        assert calls and any(r.tally.n_matched for r in whole)  # type: ignore[attr-defined]
        calls.clear()
        bare = spec.evaluate(samples, spec.params_type(), Mode(Detail.TALLIES))
        assert bool(calls) is clips, metric
        calls.clear()
        light = spec.evaluate(samples, spec.params_type(), Mode(Detail.SUMMARY))
        assert calls, metric
        for a, b, c in zip(whole, bare, light, strict=True):
            assert a.tally == b.tally == c.tally
            assert a.det == c.det


@pytest.mark.parametrize(
    ("data", "metrics"),
    [
        ("demo", ["siou", "tiou", "ic15_iou"]),
        ("ic15", ["siou", "tiou"]),
        ("totaltext", ["curved_iou", "curved_siou", "curved_tiou"]),
        ("ic13", ["deteval"]),
    ],
)
def test_the_icdar_batch_reading_only_tallies_sums_them_as_the_whole_run(
    data: str, metrics: list[str]
) -> None:
    """``Detail.TALLIES``: the ICDAR batch (and DetEval) returns each sample's
    scores, tally and extra values, bit for bit those of the whole run, with no instance
    lists; with results read (``Detail.SUMMARY``) the detections' verdicts and the evidence
    are the whole run's."""
    from metrics.io.writers import jsonable

    if data == "demo":
        d = demo_paths()
        gt, det = d.gt, d.det_b
    elif data == "ic15":
        gt, det = shared_or_skip("data/ic15/gt.zip"), shared_or_skip("data/ic15/det_pixellink.zip")
    elif data == "ic13":
        gt = shared_or_skip("data/ic13/gt.zip")
        det = shared_or_skip("data/synthetic/ic13/split2.zip")
    else:
        gt = shared_or_skip("data/totaltext/gt_tiou_curved.zip")
        det = shared_or_skip("data/totaltext/det_baseline.zip")
    samples = list(load_dataset(gt, det).samples)
    for metric in metrics:
        spec = resolve(metric)
        whole = spec.evaluate(samples, spec.params_type())
        bare = spec.evaluate(samples, spec.params_type(), Mode(Detail.TALLIES))
        light = spec.evaluate(samples, spec.params_type(), Mode(Detail.SUMMARY))
        assert any(r.det for r in whole) and not any(r.gt or r.det or r.matches for r in bare)
        for a, c in zip(whole, light, strict=True):
            assert (a.det, a.tally) == (c.det, c.tally)
            assert jsonable(a.evidence) == jsonable(c.evidence)
        for a, b in zip(whole, bare, strict=True):
            assert a.tally == b.tally and type(a.tally) is type(b.tally), (metric, a.sample_id)
            assert (a.recall, a.precision, a.hmean) == (b.recall, b.precision, b.hmean)
            assert {k: a.extra[k] for k in b.extra} == dict(b.extra)
