"""The mutation check of the fuzz tests (issue 30, point 9; ``tests/README.md``): each
mutant a review used to show that the old fuzz tests could not fail is put in, and the
property of the new ones must then fail on a fixed case, while it holds without the mutant.

Mutants: ``eval`` always exiting 2; a metric raising on every image; the runner's guard
dropping the images a metric fails on silently (with that metric raising on one image);
a reader raising on a number. Each is caught by ``test_fuzz_cli.check_case`` (the
differential CLI property) or by ``test_reader_fuzz.read_and_evaluate``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

import metrics.run.guard as guard
from metrics.catalogue.registry import METRICS
from metrics.core.model import Sample
from tests.metrics.io import test_reader_fuzz as reader_fuzz
from tests.metrics.test_fuzz_cli import Case, check_case


def valid_case() -> Case:
    case = Case(images=["img_1", "img_2"])
    for sid in case.images:
        case.files[f"gt/gt_{sid}.txt"] = b"10,10,50,10,50,30,10,30,AB\n60,10,90,10,90,30,60,30,CD\n"
        case.files[f"det/res_{sid}.txt"] = b"11,10,50,10,50,30,11,30\n"
    return case


def invalid_case() -> Case:
    case = valid_case()
    case.files["det/res_img_2.txt"] += b"1,2,3\n"
    case.mistake, case.bad_file = "too_few", "det/res_img_2.txt"
    return case


def _patch_metric(monkeypatch: pytest.MonkeyPatch, metric: str, evaluate: Any) -> None:
    spec = METRICS[metric]  # loads its family first
    monkeypatch.setitem(METRICS._loaded, metric, dataclasses.replace(spec, evaluate=evaluate))  # type: ignore[attr-defined]


def _raising_on(sample_id: str | None) -> Any:
    real = METRICS["tiou"].evaluate

    def evaluate(samples: Sequence[Sample], params: Any, mode: Any = None, /) -> Any:
        if sample_id is None or any(s.id == sample_id for s in samples):
            raise RuntimeError("mutant: tiou fails")
        return real(samples, params, mode)

    return evaluate


def _silent_guard(spec: Any, samples: Sequence[Sample], prm: Any, mode: Any) -> Any:
    """The mutant guard: what fails is dropped, and nothing says so."""
    rows: list[Any] = []
    for s in samples:
        try:
            rows.extend(spec.evaluate([s], prm, mode.fresh()))
        except Exception:
            rows.append(None)
    return rows, []


def test_the_properties_hold_without_a_mutant(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    check_case(valid_case(), tmp_path / "valid", capsys)
    check_case(invalid_case(), tmp_path / "invalid", capsys)
    assert reader_fuzz.read_and_evaluate(tmp_path / "r", reader_fuzz.BY_NAME["icdar"], ["10"] * 5)


def test_eval_always_exiting_2_is_caught(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    import metrics.cli.eval_cmd as eval_cmd

    def always_2(_: Any) -> int:
        print(f"detlens: error: {tmp_path}/det/res_img_2.txt: refused", file=sys.stderr)
        return 2

    monkeypatch.setattr(eval_cmd, "cmd_eval", always_2)
    check_case(invalid_case(), tmp_path / "invalid", capsys)  # the mutant passes here...
    with pytest.raises(AssertionError, match="a valid set gave exit 2"):
        check_case(valid_case(), tmp_path / "valid", capsys)  # ...and is caught here


def test_a_metric_raising_is_caught(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _patch_metric(monkeypatch, "tiou", _raising_on(None))
    with pytest.raises(AssertionError, match="a valid set gave exit 2"):
        check_case(valid_case(), tmp_path, capsys)


def test_a_guard_dropping_images_silently_is_caught(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _patch_metric(monkeypatch, "tiou", _raising_on("img_2"))
    monkeypatch.setattr(guard, "evaluate", _silent_guard)
    with pytest.raises(AssertionError, match=r"tiou: images dropped silently: \['img_2'\]"):
        check_case(valid_case(), tmp_path, capsys)


def test_a_reader_raising_on_a_number_is_caught(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def load_dataset(*_: Any, **__: Any) -> Any:
        float(10**400)  # OverflowError, as the JSON readers raised on such an integer

    monkeypatch.setattr(reader_fuzz, "load_dataset", load_dataset)
    with pytest.raises(OverflowError):
        reader_fuzz.read_and_evaluate(tmp_path, reader_fuzz.BY_NAME["icdar"], ["10"] * 5)


def test_the_api_fuzz_catches_a_silent_guard(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``test_fuzz.py``'s check of every metric's evaluation, with the same two mutants."""
    from metrics.io.reader import load_dataset
    from metrics.run.runner import run
    from tests.metrics.test_fuzz import _check
    from tests.metrics.test_fuzz_cli import write

    write(valid_case(), tmp_path)
    ds = load_dataset(tmp_path / "gt", tmp_path / "det")
    (ev,) = run(ds, [METRICS["tiou"]], policy="skip_sample")
    _check(ev, ds)  # holds without a mutant
    _patch_metric(monkeypatch, "tiou", _raising_on("img_2"))
    (ev,) = run(ds, [METRICS["tiou"]], policy="skip_sample")
    with pytest.raises(AssertionError, match="cannot evaluate this image"):
        _check(ev, ds)  # the metric raising: located by the guard, caught
    monkeypatch.setattr(guard, "evaluate", _silent_guard)
    (ev,) = run(ds, [METRICS["tiou"]], policy="skip_sample")
    with pytest.raises(AssertionError, match=r"tiou dropped \['img_2'\] silently"):
        _check(ev, ds)  # and the guard dropping it silently: caught too
