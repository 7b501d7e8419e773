"""CLEval when nothing reads a result's lists or evidence (``Detail.VALUES``, the plain
command line: ``global_extras`` reads the tallies): the same scores, tallies and extra
values as the whole result, no per-instance result built."""

from __future__ import annotations

import pytest

import metrics.cleval.metric as cleval
from metrics.catalogue.registry import METRICS, make_params
from metrics.io.reader import load_dataset
from metrics.shapes.mode import Detail, Mode
from tests.support import shared_or_skip


@pytest.mark.parametrize(
    "metric", ["cleval_det", "cleval_legacy_det", "cleval_e2e", "cleval_legacy_e2e"]
)
def test_values_only_results_are_the_whole_results_numbers(
    metric: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    gt = shared_or_skip("data/ic13/gt.zip")
    det = shared_or_skip("data/synthetic/ic13/e2e_replace1.zip")
    samples = list(load_dataset(gt, det).samples)
    spec = METRICS[metric]
    prm = make_params(spec)
    whole = spec.evaluate(samples, prm, Mode())

    def unused(*args: object) -> None:
        raise AssertionError("no per-instance result is built for the values alone")

    monkeypatch.setattr(cleval, "View", unused)
    values = spec.evaluate(samples, prm, Mode(Detail.VALUES))
    assert any(r.det and r.evidence for r in whole)
    for a, b in zip(whole, values, strict=True):
        assert (a.recall, a.precision, a.hmean) == (b.recall, b.precision, b.hmean)
        assert a.tally == b.tally and type(a.tally) is type(b.tally)
        assert dict(a.extra) == dict(b.extra)
        assert (b.gt, b.det, b.matches, b.evidence, b.complete) == ((), (), (), None, False)
    assert spec.global_extras is not None
    assert spec.global_extras(values) == spec.global_extras(whole)
