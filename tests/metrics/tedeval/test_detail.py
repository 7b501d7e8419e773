"""TedEval asked for less than whole results (``metrics.shapes.mode.Detail``): the same
scores, tallies and extra values; no GT list or records below FULL, no detection list or
evidence below SUMMARY, and such results say they are not complete."""

from __future__ import annotations

from metrics.catalogue.registry import METRICS, make_params
from metrics.io.reader import load_dataset
from metrics.io.writers import jsonable
from metrics.shapes.mode import Detail, Mode
from tests.support import shared_or_skip


def test_tedeval_results_cut_down_keep_the_whole_results_numbers() -> None:
    gt = shared_or_skip("data/ic15/gt.zip")
    det = shared_or_skip("data/ic15/det_pixellink.zip")
    samples = list(load_dataset(gt, det).samples)[:120]
    spec = METRICS["tedeval"]
    prm = make_params(spec)
    whole = spec.evaluate(samples, prm, Mode())
    assert any(r.gt and r.det and r.matches for r in whole) and all(r.complete for r in whole)
    for detail in (Detail.SUMMARY, Detail.VALUES, Detail.TALLIES):
        cut = spec.evaluate(samples, prm, Mode(detail))
        for a, b in zip(whole, cut, strict=True):
            assert (a.recall, a.precision, a.hmean) == (b.recall, b.precision, b.hmean)
            assert a.tally == b.tally and dict(a.extra) == dict(b.extra)
            assert (b.gt, b.matches, b.complete) == ((), (), False)
            if detail is Detail.SUMMARY:
                assert a.det == b.det and jsonable(a.evidence) == jsonable(b.evidence)
            else:
                assert (b.det, b.evidence) == ((), None)
