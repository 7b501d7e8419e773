"""Round trip of every visible reference dataset through the canonical forms ``detlens convert``
writes (detlens JSON and ICDAR zip): read back, the samples are the same and every metric
gives the same per-image numbers.

What is compared, and why it covers every metric:
- ``test_same_instances`` (every dataset x both forms): each instance's points (exactly),
  box type, transcription, don't-care flag, confidence and integer flag, and whether a sample
  has a detection file: every metric reads nothing else of the input, so equal instances
  give equal numbers for every metric.
- ``test_same_numbers``: that claim checked by evaluation, once per registered metric of the
  references (each on the first reference of that metric), alternating JSON / ICDAR so both
  forms and every family (IoU, DetEval, TedEval, CLEval, TIoU/SIoU, curved, Total-Text,
  CTW1500, MMOCR, PaddleOCR, word-line) are evaluated; per image within 1e-9.
  HierText's line and paragraph metrics need the hierarchy, which neither canonical form
  holds (``convert`` says so); their datasets are round-tripped as words by the first test.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import pytest

from metrics.catalogue.registry import resolve
from metrics.cli.convert import Losses, icdar_zip
from metrics.core.model import Dataset, Instance
from metrics.io.formats.canonical import document
from metrics.io.reader import load_dataset
from metrics.run.runner import run
from tests.metrics.conformance import REFERENCES, reference
from tests.support import shared_input, shared_or_skip

pytestmark = pytest.mark.conformance
FORMS = ("json", "icdar")


def _inputs(name: str) -> tuple[str, str, str | None]:
    inputs = json.loads(shared_or_skip("reference", name).read_text())["inputs"]
    return inputs["gt"], inputs["det"], inputs.get("gt_textline")


def _datasets() -> list[Any]:
    seen: dict[tuple[str, str, str | None], str] = {}
    for name, _ in REFERENCES:
        seen.setdefault(_inputs(name), name)
    if not seen:
        return [pytest.param("<missing>", id="shared-missing")]
    return [pytest.param(n, id=_data_id(k)) for k, n in seen.items()]


def _data_id(inputs: tuple[str, str, str | None]) -> str:
    gt, det, lines = (None if v is None else Path(v) for v in inputs)
    assert gt is not None and det is not None
    return f"{gt.parent.name}-{gt.name}-{det.parent.name}-{det.stem}" + ("-lines" if lines else "")


def _one_per_metric() -> list[Any]:
    chosen: dict[str, str] = {}
    for name, mid in REFERENCES:
        if not mid.startswith("hiertext"):
            chosen.setdefault(mid, name)
    if not chosen:
        return [pytest.param("<missing>", "json", id="shared-missing")]
    return [
        pytest.param(name, FORMS[k % 2], id=f"{mid}-{FORMS[k % 2]}")
        for k, (mid, name) in enumerate(sorted(chosen.items()))
    ]


def _write(ds: Dataset, form: str, path: Path, *, det: bool) -> Path:
    if form == "json":
        out = path.with_suffix(".json")
        out.write_text(document(ds, gt=True, det=det), encoding="utf-8")
    else:
        out = path.with_suffix(".zip")
        losses = Losses()
        out.write_bytes(icdar_zip(ds, gt=True, det=det, losses=losses))
        assert not losses.rounded
    return out


@functools.cache
def _pair(name: str, form: str, folder: str) -> tuple[Dataset, Dataset]:
    """The original dataset and its round trip through ``form``."""
    gt, det, lines = (None if v is None else shared_input(v) for v in _inputs(name))
    assert gt is not None and det is not None
    original = load_dataset(gt, det, gt_lines=lines)
    base = Path(folder) / f"{name.removesuffix('.json')}-{form}"
    both = _write(original, form, base, det=True)
    back_lines = None
    if lines is not None:
        line_ds = load_dataset(lines)
        back_lines = _write(line_ds, form, Path(f"{base}-lines"), det=False)
    back = load_dataset(both, both, gt_lines=back_lines)
    return original, back


def _fields(i: Instance, form: str = "json", det: bool = False) -> tuple[Any, ...]:
    """What metrics read of an instance. ICDAR txt marks don't-care by the text ``###``, and
    tells an empty transcription from none only in a set whose other detections carry
    text (``convert`` reports both)."""
    text = "###" if form == "icdar" and i.dont_care else i.text
    text = None if form == "icdar" and det and text == "" else text
    return (i.points.tolist(), i.box_type, text, i.dont_care, i.confidence, i.integer)


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("name", _datasets())
def test_same_instances(name: str, form: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    reference(name)
    original, back = _pair(name, form, str(tmp_path_factory.getbasetemp()))
    assert [s.id for s in back] == [s.id for s in original]
    for a, b in zip(original, back, strict=True):
        assert [_fields(g) for g in b.gt] == [_fields(g, form) for g in a.gt], a.id
        assert [_fields(d, form, det=True) for d in b.det] == [
            _fields(d, form, det=True) for d in a.det
        ], a.id
        assert (b.det_source is None) == (a.det_source is None), a.id
        lines = [_fields(t, form) for t in a.gt_lines or ()]
        assert [_fields(t) for t in b.gt_lines or ()] == lines


@pytest.mark.parametrize(("name", "form"), _one_per_metric())
def test_same_numbers(name: str, form: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    ref = reference(name)
    spec = resolve(ref["metric"])
    original, back = _pair(name, form, str(tmp_path_factory.getbasetemp()))
    want, got = run(original, [spec])[0], run(back, [spec])[0]
    assert set(got.results) == set(want.results)
    for sid, r in want.results.items():
        g = got.results[sid]
        for key in ("recall", "precision", "hmean"):
            assert getattr(g, key) == pytest.approx(getattr(r, key), abs=1e-9), (sid, key)
        assert g.tally.values == pytest.approx(r.tally.values, abs=1e-9), sid
    # the dataset's own figures too (CTW1500's AP orders the detections by file name)
    assert dict(got.extras) == pytest.approx(dict(want.extras), abs=1e-9)
    assert (got.recall, got.precision, got.hmean) == pytest.approx(
        (want.recall, want.precision, want.hmean), abs=1e-9
    )
