"""Summary-only runs (``runner.run(results=False)``, ``metrics.run.light``) keep no
per-instance result, and large detection sets keep no scans between finding the schema and
reading (issue 30: ``--metric all`` on 1 M + 1 M boxes peaked at 7.6 GB). The peak itself
is measured by ``benchmarks/bench_memory.py``; these tests assert the mechanism."""

from __future__ import annotations

import pytest

import metrics.run.guard as guard
from metrics.catalogue.registry import applicable
from metrics.core.model import Dataset, Instance
from metrics.core.results import SampleResult
from metrics.io.demo import demo_paths
from metrics.io.formats import ICDAR
from metrics.io.formats.detect import detect
from metrics.io.icdar.plan import LoadOptions, find_schema, plan_icdar, schema_of
from metrics.io.reader import load_dataset, read_planned
from metrics.run.runner import plan_all, run


def _plain(ds: Dataset) -> list[tuple[object, ...]]:
    def inst(i: Instance) -> tuple[object, ...]:
        return (i.points.tolist(), i.box_type, i.text, i.confidence, i.dont_care, i.line)

    return [(s.id, [inst(i) for i in s.gt], [inst(i) for i in s.det]) for s in ds.samples]


def _demo() -> Dataset:
    p = demo_paths()
    gt, det = p.gt, p.det_a
    return load_dataset(gt, det)


@pytest.mark.parametrize("workers", [1, 2])
def test_summary_only_runs_keep_no_per_instance_results(
    workers: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    ds = _demo()
    plan = plan_all(ds, applicable(ds))
    kw = {"lenient": plan.lenient, "validated": plan.validated, "workers": workers}
    full = run(ds, plan.specs, plan.overrides, **kw)  # type: ignore[arg-type]
    held: list[SampleResult] = []
    evaluate = guard.evaluate

    def kept(*a: object, **k: object) -> tuple[list[SampleResult], list[object]]:
        results, problems = evaluate(*a, **k)  # type: ignore[arg-type]
        held.extend(results)
        return results, problems

    monkeypatch.setattr(guard, "evaluate", kept)
    light = run(ds, plan.specs, plan.overrides, results=False, **kw)  # type: ignore[arg-type]
    assert [e.metric for e in light] == [e.metric for e in full]
    for a, b in zip(full, light, strict=True):
        assert b.results == {}, b.metric
        assert a.summary == b.summary, a.metric
        assert a.extras == b.extras, a.metric
        assert a.excluded == b.excluded and a.problems == b.problems
    if workers == 1:  # what the metrics returned went unheld: only the tallies live on
        assert held and any(r.det for r in held)


def test_summary_only_results_are_cut_down_as_each_block_ends() -> None:
    from metrics.catalogue.registry import METRICS, make_params
    from metrics.run.light import light_kind
    from metrics.run.runner import evaluate_chunk

    ds = _demo()
    ids = ["ic15_iou", "tedeval", "cleval_det"]
    params = [make_params(METRICS[i]) for i in ids]
    kinds = [light_kind(METRICS[i]) for i in ids]
    assert kinds == ["lists", "none", "evidence"]
    # img_8's polygon fails TedEval (validation would exclude it): None stays None
    rows, failed = evaluate_chunk(
        list(ds.samples), ids, params, {i: set() for i in ids}, kinds=kinds
    )
    assert [(m, p.sample_id) for m, p in failed] == [("tedeval", "img_8")]
    for row in rows:
        for r, kind in zip(row, kinds, strict=True):
            if r is None:
                continue
            assert (r.gt, r.det, r.matches) == ((), (), ())
            assert (r.evidence is None) == (kind != "lists")


def test_a_large_detection_set_is_read_without_its_scans_kept() -> None:
    p = demo_paths()
    gt, det = p.gt, p.det_a
    whole = load_dataset(gt, det)
    g, d = detect(gt, "gt"), detect(det, "det")
    assert g.format is ICDAR and d.format is ICDAR
    plan = plan_icdar(gt, det, g, d, None, None, LoadOptions())
    bounded = schema_of(plan.det_members, plan.opts, keep=0)
    assert bounded.texts == {}
    assert bounded.schema == find_schema(plan.det_members, plan.opts).schema
    again = read_planned(plan, bounded, run=1)
    assert _plain(again) == _plain(whole)
    assert again.problems == whole.problems


def test_a_cut_down_run_asks_each_result_for_what_its_kinds_keep() -> None:
    from metrics.run.light import light_detail
    from metrics.shapes.mode import Detail

    assert light_detail(["none", "none"], Detail.SUMMARY) is Detail.TALLIES
    assert light_detail(["evidence", "none"], Detail.SUMMARY) is Detail.VALUES
    assert light_detail(["evidence", "lists"], Detail.SUMMARY) is Detail.EXTRAS
    assert light_detail(["lists"], Detail.SUMMARY) is Detail.EXTRAS
    assert light_detail(["full", "none"], Detail.SUMMARY) is Detail.SUMMARY
    assert light_detail(["evidence"], Detail.FULL) is Detail.FULL
