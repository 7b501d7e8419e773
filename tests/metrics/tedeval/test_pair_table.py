"""TedEval's evidence carries the area recall and precision of every overlapping pair, the
values its matching compared: the viewer's pair matrix reads them (issue 28)."""

from __future__ import annotations

import dataclasses

import pytest

from metrics.core.model import Sample
from metrics.tedeval import metric as tedeval_metric
from metrics.tedeval.evidence import TedEvalEvidence
from tests.support import WORD_G0 as G0
from tests.support import dets, gts, sample, tedeval_run


def _evidence(r: object) -> TedEvalEvidence:
    ev = getattr(r, "evidence", None)
    assert isinstance(ev, TedEvalEvidence)
    return ev


def test_pairs_hold_the_values_of_the_one_to_one_match() -> None:
    # det 0 covers 60 % of the word (E1), det 1 is far away, det 2 the last 40 %
    r = tedeval_run(
        gts(G0),
        dets("0,0,60,0,60,20,0,20", "300,300,320,300,320,320,300,320", "60,0,100,0,100,20,60,20"),
    )
    ev = _evidence(r)
    assert ev.area_recall.shape == (1, 3)
    assert ev.area_recall.gt.tolist() == [0, 0] and ev.area_recall.det.tolist() == [0, 2]
    assert ev.area_recall.values.tolist() == pytest.approx([0.6, 0.4])
    assert ev.area_precision.values.tolist() == pytest.approx([1.0, 1.0])
    table = ev.pair_table()
    assert table is not None and table.measures == ("area recall", "area precision")
    assert table.measure("area recall").tolist() == [pytest.approx([0.6, 0.0, 0.4])]


def test_the_one_to_one_match_decided_on_the_table_values() -> None:
    r = tedeval_run(gts(G0), dets("0,0,60,0,60,20,0,20"))  # E1: OO, R 0.6, P 1.0
    table = _evidence(r).pair_table()
    assert table is not None
    oo = r.matches[0].values
    assert table.measure("area recall")[0, 0] == oo["area_recall"]
    assert table.measure("area precision")[0, 0] == oo["area_precision"]


def test_a_batch_gives_each_image_its_own_pairs() -> None:
    one = sample(gts(G0), dets("0,0,60,0,60,20,0,20"))
    two = dataclasses.replace(
        sample(gts(G0, G0), dets("40,0,100,0,100,20,40,20", "0,0,20,0,20,20,0,20")), id="b"
    )
    params = tedeval_metric.TedEvalParams()
    batch = tedeval_metric.evaluate_batch([one, two], params)
    for s, r in zip((one, two), batch, strict=True):
        alone = _evidence(tedeval_metric.evaluate_sample(s, params))
        ev = _evidence(r)
        for got, want in (
            (ev.area_recall, alone.area_recall),
            (ev.area_precision, alone.area_precision),
        ):
            assert got.shape == want.shape == (len(s.gt), len(s.det))
            assert (got.dense() == want.dense()).all()
    assert _evidence(batch[1]).area_recall.shape == (2, 2)
    assert isinstance(one, Sample)
