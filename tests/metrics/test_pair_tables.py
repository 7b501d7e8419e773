"""Every metric that decides on pairs gives the viewer's pair matrix the values it compared,
with the limit (issue 28): a matched pair's values pass the limit, a pair the metric refused
names the rule it failed, and the table's values are the ones the match records carry."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from metrics.catalogue.registry import METRICS
from metrics.core.evidence import PairTable
from metrics.core.model import Sample
from metrics.core.results import SampleResult, Verdict
from tests.support import quad, run_one, sample

# GT 0 "HELLO" with a detection of IoU 0.8 (the same height, 20 px short); GT 1 "WORLD"
# with a detection four times its height (IoU and area precision 0.25, under every
# metric's limit: CLEval's is 0.3); GT 2 alone.
_GT = [
    quad("0,0,100,0,100,20,0,20", "HELLO", 1),
    quad("200,0,300,0,300,20,200,20", "WORLD", 2),
    quad("400,0,500,0,500,20,400,20", "AGAIN", 3),
]
_DET = [
    quad("0,0,80,0,80,20,0,20", "HELLO", 1, conf=0.95),
    quad("200,0,300,0,300,80,200,80", "WORLD", 2, conf=0.95),
]
PAIRED = sorted(
    mid for mid, spec in METRICS.items() if spec.pair_table is not None or "hiertext" in mid
)


def _sample(mid: str) -> Sample:
    lines = None
    if mid.startswith("wordline"):  # one text line per word, its own box
        lines = [
            quad(",".join(str(int(v)) for v in g.points.ravel()), "l", n + 1)
            for n, g in enumerate(_GT)
        ]
    return sample(_GT, _DET, lines)


def _table(mid: str, s: Sample, r: SampleResult) -> PairTable:
    """The table as the viewer reads it: the result's evidence, else the spec's function."""
    spec = METRICS[mid]
    params: Any = spec.params_type()
    table = r.evidence.pair_table() if r.evidence is not None else None
    if table is None:
        assert spec.pair_table is not None
        table = spec.pair_table(s, params)
    return table


ONE_LEVEL = [m for m in PAIRED if m not in ("hiertext_line", "hiertext_paragraph")]


@pytest.mark.parametrize("mid", ONE_LEVEL)
def test_matched_pairs_pass_and_refused_pairs_name_the_rule(mid: str) -> None:
    s = _sample(mid)
    r = run_one(mid, s)
    table = _table(mid, s, r)
    assert table.gt == (0, 1, 2) and table.det == (0, 1)
    assert any(lim is not None for lim in table.limits)
    matched = {(g, d) for m in r.matches for g in m.gt for d in m.det}
    assert matched == {(0, 0)}, r.matches
    assert table.refusal(0, 0) is None
    assert r.gt[1].verdict is Verdict.MISSED and r.det[1].verdict is Verdict.FALSE_POSITIVE
    why = table.refusal(1, 1)
    assert why is not None and "0.25" in why, why
    k = next(k for k, lim in enumerate(table.limits) if lim is not None)
    assert table.measures[k] in why and str(table.limits[k].bound)[:3] in why  # type: ignore[union-attr]
    assert table.value(k, 2, 0) == 0.0 and table.value(k, 2, 1) == 0.0


@pytest.mark.parametrize("mid", [m for m in ONE_LEVEL if not m.startswith("cleval")])
def test_the_table_holds_the_iou_the_match_recorded(mid: str) -> None:
    s = _sample(mid)
    r = run_one(mid, s)
    table = _table(mid, s, r)
    (m,) = r.matches
    recorded = {k.lower(): v for k, v in m.values.items()}
    if "iou" in recorded:
        assert table.measure("IoU")[0, 0] == pytest.approx(recorded["iou"], abs=1e-6)
    assert table.measure("IoU")[0, 0] == pytest.approx(0.8, abs=1e-6)
    assert table.measure("IoU")[1, 1] == pytest.approx(0.25, abs=1e-4)


@pytest.mark.parametrize("mid", [m for m in PAIRED if m.startswith("cleval")])
def test_cleval_compares_area_precision_and_characters(mid: str) -> None:
    s = _sample(mid)
    table = _table(mid, s, run_one(mid, s))
    assert table.measures == ("area precision", "character recall")
    assert table.measure("area precision")[0, 0] == pytest.approx(1.0)
    assert table.measure("area precision")[1, 1] == pytest.approx(0.25)
    assert table.measure("character recall")[0, 0] == pytest.approx(0.8)  # 4 of HELLO's 5
    limit = METRICS[mid].params_type().area_precision  # 0.3 (0.1.1), 0.5 (legacy)
    assert table.refusal(1, 1) == f"area precision 0.25 < {limit:g}"


@pytest.mark.parametrize("mid", ["wordline_iou", "wordline_tiou"])
def test_a_line_match_passes_the_line_stage(mid: str) -> None:
    s = _sample(mid)
    r = run_one(mid, s)
    table = _table(mid, s, r)
    (m,) = r.matches
    assert m.label == "text_line"
    assert table.measure("line IoU")[0, 0] == pytest.approx(0.8)
    assert table.measure("word covered")[0, 0] == pytest.approx(0.8)
    assert table.measure("line IoU")[1, 1] == pytest.approx(0.25)


# The metrics whose pair table is part of their evidence: the limit each names, from the
# default params, and a params change that lets GT 1 / det 1 (area recall 1, area precision
# or tau or IoU about 0.25) through, which the table's limits must follow.
EVIDENCE_TABLES = {
    "deteval": ("area precision 0.26 < 0.4", {"area_precision": 0.2}),
    "tedeval": ("area precision 0.25 < 0.4", {"area_precision": 0.2}),
    "totaltext_deteval": ("tau 0.25 ≤ 0.6", {"tp": 0.2}),
    "totaltext_voc": ("IoU 0.25 < 0.5", {"iou_threshold": 0.2}),
}


@pytest.mark.parametrize("mid", sorted(EVIDENCE_TABLES))
def test_evidence_tables_name_the_refused_rule(mid: str) -> None:
    s = _sample(mid)
    r = run_one(mid, s)
    table = _table(mid, s, r)
    assert all(lim is not None for lim in table.limits)
    assert len(table.limits) == len(table.measures)
    assert {(g, d) for m in r.matches for g in m.gt for d in m.det} == {(0, 0)}
    assert table.refusal(0, 0) is None
    assert table.refusal(1, 1) == EVIDENCE_TABLES[mid][0]
    for k, lim in enumerate(table.limits):  # the formula names the limit the table holds
        assert lim is not None and str(lim) in table.formulas[k]


@pytest.mark.parametrize("mid", sorted(EVIDENCE_TABLES))
def test_evidence_table_limits_are_read_from_the_params(mid: str) -> None:
    s = _sample(mid)
    params = dataclasses.replace(METRICS[mid].params_type(), **EVIDENCE_TABLES[mid][1])
    r = run_one(mid, s, params)
    table = _table(mid, s, r)
    bound = next(iter(EVIDENCE_TABLES[mid][1].values()))
    assert any(lim is not None and lim.bound == bound for lim in table.limits), table.limits
    matched = {(g, d) for m in r.matches for g in m.gt for d in m.det}
    assert (1, 1) in matched and table.refusal(1, 1) is None, (matched, table.limits)
