"""The confidence sweep equals evaluating the filtered detections, for every metric family
(several thresholds each), whichever way the sweep is computed."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from metrics.analysis import threshold as thr
from metrics.analysis.sweep import sweep
from metrics.catalogue.registry import applicable, make_params, resolve
from metrics.core.model import BoxType, Dataset, Instance, ltrb_points
from metrics.io.demo import demo_paths
from metrics.io.reader import load_dataset
from metrics.run.runner import plan_all, run
from tests.support import dets, gts, sample, shared_or_skip


def _demo() -> Dataset:
    d = demo_paths()
    return load_dataset(d.gt, d.det_b)


def _ltrb(i: Instance) -> Instance:
    x0, y0, x1, y1 = (round(v) for v in i.ltrb)
    return dataclasses.replace(i, points=ltrb_points(x0, y0, x1, y1), box_type=BoxType.LTRB)


def _as_ltrb(ds: Dataset) -> Dataset:
    samples = tuple(
        dataclasses.replace(
            s, gt=tuple(map(_ltrb, s.gt)), det=tuple(map(_ltrb, s.det)), hierarchy=None
        )
        for s in ds
    )
    return dataclasses.replace(ds, samples=samples)


def _check(ds: Dataset, metric: str, points: int = 12) -> str:
    spec = resolve(metric)
    own = plan_all(ds, [spec]).overrides  # the curved family's auto_orient where needed
    prm = make_params(spec, own.get(metric))
    base = run(ds, [spec], own, policy="skip_sample")[0]
    assert base.results, metric
    t = thr.grid(thr.confidences(ds), points)
    sw = sweep(ds, spec, prm, base, t)
    sc = sw.scores()
    for k in sorted({0, 1, len(t) // 3, len(t) // 2, len(t) - 2, len(t) - 1}):
        ev = run(thr.filter_dataset(ds, float(t[k])), [spec], own, policy="skip_sample")[0]
        assert (ev.recall, ev.precision, ev.hmean) == pytest.approx(tuple(sc[k]), abs=1e-12), (
            metric,
            float(t[k]),
        )
        per = sw.image_scores(k)
        for i, sid in enumerate(sw.ids):
            if sid in ev.results:
                tally = ev.results[sid].tally
                assert tally.scores() == pytest.approx(tuple(per[i]), abs=1e-12)
    return sw.method


@pytest.mark.parametrize("metric", [s.id for s in applicable(_demo())])
def test_sweep_equals_filtered_evaluation_on_the_demo(metric: str) -> None:
    method = _check(_demo(), metric)
    prefix = metric in ("ic15_iou", "siou", "tiou")
    assert method == ("prefix" if prefix else "re-evaluated")


def test_deteval_sweep_equals_filtered_evaluation() -> None:
    assert _check(_as_ltrb(_demo()), "deteval") == "re-evaluated"


@pytest.mark.parametrize(
    ("data", "metrics"),
    [
        ("totaltext", ["curved_iou", "curved_tiou", "totaltext_deteval", "totaltext_voc"]),
        ("ctw1500", ["ctw1500_eval"]),
    ],
)
def test_sweep_equals_filtered_evaluation_on_polygons(data: str, metrics: list[str]) -> None:
    gt = shared_or_skip("data", data, "gt.zip")
    det = next(shared_or_skip("data", "scored", data).glob("*.zip"))
    ds = load_dataset(gt, det)
    ds = dataclasses.replace(ds, samples=ds.samples[:60])
    for m in metrics:
        _check(ds, m, points=8)


def test_prefix_is_not_used_in_file_order() -> None:
    ds = _demo()
    spec = resolve("ic15_iou")
    prm = make_params(spec, {"confidences": "false"})
    base = run(ds, [spec], {spec.id: {"confidences": "false"}})[0]
    t = thr.grid(thr.confidences(ds), 10)
    sw = sweep(ds, spec, prm, base, t)
    assert sw.method == "re-evaluated"
    ev = run(thr.filter_dataset(ds, float(t[5])), [spec], {spec.id: {"confidences": "false"}})[0]
    assert sw.scores()[5, 2] == pytest.approx(ev.hmean, abs=1e-12)


def test_hand_sweep_of_two_detections() -> None:
    # GT A and B; det on A scored 0.9, det on B scored 0.4, a false positive scored 0.6.
    g = gts(("0,0,10,0,10,10,0,10", "A"), ("20,0,30,0,30,10,20,10", "B"))
    d = dets("0,0,10,0,10,10,0,10", "20,0,30,0,30,10,20,10", "50,0,60,0,60,10,50,10")
    d = [dataclasses.replace(x, confidence=c) for x, c in zip(d, (0.9, 0.4, 0.6), strict=True)]
    ds = Dataset((sample(g, d),))
    spec = resolve("ic15_iou")
    base = run(ds, [spec])[0]
    sw = sweep(ds, spec, make_params(spec), base, np.array([0.0, 0.5, 0.7, 0.95]))
    r, p, _ = sw.scores().T
    assert list(r) == pytest.approx([1.0, 0.5, 0.5, 0.0])
    assert list(p) == pytest.approx([2 / 3, 0.5, 1.0, 0.0])
    assert list(sw.kept) == [3, 2, 1, 0]
    assert sw.best_threshold == 0.0  # H 0.8 at 0.0 beats 2/3 at 0.7


def test_filter_keeps_detections_without_confidence() -> None:
    d = dets("0,0,1,0,1,1,0,1", "0,0,2,0,2,2,0,2", "0,0,3,0,3,3,0,3")
    d = [dataclasses.replace(x, confidence=c) for x, c in zip(d, (0.2, None, 0.6), strict=True)]
    s = thr.filter_sample(sample([], d), 0.6)
    assert [x.line for x in s.det] == [2, 3]


def test_grid_takes_every_distinct_value_or_spreads_points() -> None:
    assert list(thr.grid(np.array([0.5, 0.2, 0.5]), 100)) == [0.2, 0.5]
    g = thr.grid(np.linspace(0, 1, 1001), 100)
    assert len(g) == 100 and g[0] == 0.0 and g[-1] == 1.0


def test_split_sets_takes_the_thresholds_out() -> None:
    rest, found = thr.split_sets(["tolerance=0", "score_threshold=0.6", "tiou.score_threshold=.3"])
    assert rest == ["tolerance=0"] and found == {"": 0.6, "tiou": 0.3}
    with pytest.raises(ValueError, match="expected a number"):
        thr.split_sets(["score_threshold=high"])
