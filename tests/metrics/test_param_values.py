"""Issue 12: every parameter of every metric against a list of bad values.

A value is either refused when it is set (one line naming the parameter, before anything is
evaluated) or, when accepted, the metric gives finite scores in [0, 1] on a small dataset
with matches, splits, don't-cares and false positives. The CLI refuses with exit 2.
"""

from __future__ import annotations

import dataclasses
import math
import typing
from pathlib import Path

import pytest

from metrics.catalogue.registry import METRICS, make_params
from metrics.cli.main import main
from metrics.core.model import Dataset, Group, Hierarchy, InputError, Level, Sample
from metrics.io.icdar.lines import DetSchema, parse_det_line, parse_gt_line
from metrics.run.runner import run

BAD = ["nan", "inf", "-inf", "-1", "-0.5", "1.5", "2", "1e300", "abc", ""]

GT = [
    "0,0,100,0,100,20,0,20,ABCDE",
    "200,0,300,0,300,20,200,20,FGH",
    "0,100,50,100,50,120,0,120,###",
    "400,400,500,400,500,430,400,430,XY",
]
DET = [
    "0,0,100,0,100,20,0,20,0.9",
    "200,0,240,0,240,20,200,20,0.8",
    "250,0,300,0,300,20,250,20,0.7",
    "0,100,50,100,50,120,0,120,0.6",
    "600,600,650,600,650,620,600,620,0.2",
]


def _dataset() -> Dataset:
    g = tuple(parse_gt_line(t, k + 1) for k, t in enumerate(GT))
    d = tuple(parse_det_line(t, k + 1, DetSchema(confidence=True)) for k, t in enumerate(DET))
    d = tuple(dataclasses.replace(x, text="ABCDE") for x in d)
    words = Level(
        tuple(Group((i,)) for i in range(len(g))), tuple(Group((j,)) for j in range(len(d)))
    )
    hier = Hierarchy(
        1000,
        1000,
        {"line": words, "paragraph": words},
        tuple(f"gt[{i}]" for i in range(len(g))),
        tuple(f"det[{j}]" for j in range(len(d))),
    )
    s = Sample("img_1", g, d, "gt_img_1.txt", "res_img_1.txt", g, "lines:gt_img_1.txt", None, hier)
    return Dataset((s,), gt_lines_path="lines")


PAIRS = [
    (mid, f.name)
    for mid, spec in METRICS.items()
    for f in dataclasses.fields(spec.params_type)
    if typing.get_type_hints(spec.params_type)[f.name] is not bool
]


def _unit(v: float) -> bool:
    return math.isfinite(v) and 0.0 <= v <= 1.0


@pytest.mark.parametrize(("mid", "name"), PAIRS, ids=[f"{m}.{n}" for m, n in PAIRS])
def test_bad_values_are_refused_or_give_scores_in_unit_range(mid: str, name: str) -> None:
    ds = _dataset()
    spec = METRICS[mid]
    for value in BAD:
        try:
            params = make_params(spec, {name: value})
        except (TypeError, ValueError):
            continue
        assert params is not None
        try:
            (ev,) = run(ds, [spec], {mid: {name: value}}, policy="skip_sample")
        except InputError:
            continue
        for r in ev.results.values():
            assert all(_unit(v) for v in (r.recall, r.precision, r.hmean)), (name, value, r)
        assert ev.summary is None or all(_unit(v) for v in (ev.recall, ev.precision, ev.hmean)), (
            name,
            value,
        )


@pytest.mark.parametrize("item", ["iou_threshold=nan", "tiou.tolerance=-1", "deteval.w_om=2"])
def test_cli_refuses_a_bad_value_in_one_line(
    item: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out.json"
    assert main(["eval", "--metric", "iou,tiou,deteval", "--set", item, "--json", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("detlens: error: --set ")
    assert not out.exists()
