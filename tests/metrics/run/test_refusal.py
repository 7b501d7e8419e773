"""``runner.run`` under the strict policy: a metric the set cannot be read by is one fact
(``InputError.whole``), errors on some images are a count with the ``skip_sample`` advice,
given only where ``skip_sample`` would leave a score (input errors and images that fail while
being evaluated alike)."""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import Any

import pytest

from metrics.catalogue.registry import METRICS
from metrics.core.model import InputError, Problem, Sample, Severity
from metrics.io.reader import load_dataset
from metrics.run.refusal import counted, misfits
from metrics.run.runner import run
from tests.support import partial_set


def test_every_image_refused_is_one_fact_about_the_set(tmp_path: Path) -> None:
    ds = load_dataset(*partial_set(tmp_path, 3, ccw=range(3)))
    with pytest.raises(InputError) as info:
        run(ds, [METRICS["ic15_iou"]], policy="strict")
    assert info.value.whole and len(info.value.problems) == 6
    assert str(info.value).startswith("ic15_iou does not read these inputs: ")
    assert "skip_sample" not in str(info.value)


def test_one_image_refused_keeps_the_skip_sample_advice(tmp_path: Path) -> None:
    ds = load_dataset(*partial_set(tmp_path, 3, ccw={1}))
    with pytest.raises(InputError) as info:
        run(ds, [METRICS["ic15_iou"]], policy="strict")
    assert not info.value.whole
    assert "2 input error(s) on 1 of 3 images" in str(info.value)
    assert "use skip_sample to evaluate the rest" in str(info.value)


def test_half_the_images_still_make_a_score() -> None:
    def err(sid: str | None) -> Problem:
        return Problem(Severity.ERROR, "f.txt", 1, "bad", sid)

    assert misfits({"m": [err("a"), err("b")]}, 4) == []  # 2 of 4 left: a score
    assert [m.metric for m in misfits({"m": [err("a"), err("b"), err("c")]}, 4)] == ["m"]
    (whole,) = misfits({"m": [err(None), err(None)]}, 4)  # errors about the whole set
    assert whole.bad is None and "(2 lines on the whole set, first f.txt:1)" in whole.line()
    (one,) = misfits({"m": [err(None)]}, 4)  # one fact: its place, not "1 line on ..."
    assert "m does not read these inputs: bad (at f.txt:1); nothing was evaluated" in one.line()
    (alone,) = misfits({"m": [err("a")]}, 1)
    assert "bad (1 of 1 image, at f.txt:1);" in alone.line()


def failing_on(monkeypatch: pytest.MonkeyPatch, metric: str, bad: Collection[str]) -> None:
    """``metric`` raising (as GEOS may) on every block holding an image of ``bad``."""
    spec = METRICS[metric]

    def evaluate(samples: Sequence[Sample], params: Any, mode: Any = None) -> Any:
        if any(s.id in bad for s in samples):
            raise RuntimeError("side location conflict")
        return list(spec.evaluate(samples, params, mode))

    monkeypatch.setitem(METRICS._loaded, metric, dataclasses.replace(spec, evaluate=evaluate))  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("bad", "says"),
    [
        ({"img_1"}, "use skip_sample to evaluate the rest"),
        ({"img_0", "img_1", "img_2"}, "skip_sample would leave ic15_iou 1 of 4 images, too few"),
    ],
    ids=["one-of-four", "three-of-four"],
)
def test_images_failing_in_evaluation_advise_skip_sample_only_when_it_leaves_a_score(
    bad: set[str], says: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ds = load_dataset(*partial_set(tmp_path, 4))
    failing_on(monkeypatch, "ic15_iou", bad)
    with pytest.raises(InputError) as info:
        run(ds, [METRICS["ic15_iou"]], policy="strict")
    assert str(info.value).startswith(f"{len(bad)} image(s) could not be evaluated")
    assert says in str(info.value)
    assert str(info.value).count("skip_sample") == 1


def test_problems_are_counted_by_what_they_point_at() -> None:
    def at(source: str, line: int | None) -> Problem:
        return Problem(Severity.ERROR, source, line, "bad", "img_1")

    assert counted([at("gt.zip:gt_img_1.txt", 1)]) == "1 line"
    assert counted([at("gt.json", 1), at("det.JSON", 2)]) == "2 boxes"
    assert counted([at("a.txt", 3), at("b.txt", 4), at("gt.json", 1)]) == "2 lines and 1 box"
    assert counted([at("gt.json", 1), at("gt.json", None)]) == "2 errors"
