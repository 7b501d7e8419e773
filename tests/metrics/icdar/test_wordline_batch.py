"""The block evaluation of wordline_iou / wordline_tiou (``metrics.icdar.wordline_batch``)
gives, sample by sample, exactly the result of the per-sample reference
(``wordline.evaluate_one``): every verdict, credit, partner, match record, value and region."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.core.model import Sample
from metrics.icdar import overlaps, wordline, wordline_batch
from metrics.icdar.params import WordlineParams
from metrics.shapes.mode import Detail, Mode
from tests.support import dets, gts, quad, sample, shared_or_skip


def same(a: Any, b: Any, where: str = "") -> None:
    """Deep equality, floats bit for bit (NaN equal to NaN), arrays element by element."""
    if dataclasses.is_dataclass(a) and not isinstance(a, type):
        assert type(a) is type(b), where
        for f in dataclasses.fields(a):
            same(getattr(a, f.name), getattr(b, f.name), f"{where}.{f.name}")
    elif isinstance(a, Mapping):
        assert list(a) == list(b), where
        for k in a:
            same(a[k], b[k], f"{where}[{k}]")
    elif isinstance(a, tuple | list):
        assert len(a) == len(b), where
        for k, (x, y) in enumerate(zip(a, b, strict=True)):
            same(x, y, f"{where}[{k}]")
    elif isinstance(a, np.ndarray):
        assert np.array_equal(a, b), where
    elif isinstance(a, float) and np.isnan(a):
        assert isinstance(b, float) and np.isnan(b), where
    else:
        assert type(a) is type(b) and a == b, f"{where}: {a!r} != {b!r}"


def check(samples: list[Sample], params: WordlineParams) -> None:
    for metric in ("wordline_iou", "wordline_tiou"):
        block = wordline_batch.evaluate_batch(samples, params, metric)
        for s, got in zip(samples, block, strict=True):
            same(got, wordline.evaluate_one(s, params, metric), f"{metric} {s.id}")


LINE = "0,0,200,0,200,20,0,20"
W0, W1 = ("0,0,100,0,100,20,0,20", "ABCDE"), ("110,0,200,0,200,20,110,20", "###")


def test_hand_made_block_matches_reference() -> None:
    block = [
        sample(gts(W0, W1), dets(LINE), lines=[quad(LINE, "line")], sid="a"),
        sample(gts(W0), dets("0,0,150,0,150,20,0,20", LINE), lines=[quad(LINE)], sid="b"),
        sample(gts(W0, W1), dets(), lines=[quad(LINE)], sid="no_det"),
        sample(gts(), dets(LINE), lines=[quad(LINE)], sid="no_gt"),
        sample(gts(W0, W1), dets(LINE, "5,2,95,2,95,18,5,18"), lines=[], sid="no_lines"),
    ]
    check(block, WordlineParams())
    check(block, WordlineParams(skip_word="none", exclude_dc_words=True))


def test_many_pairs_found_by_the_strtree(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(overlaps, "_DENSE", 0)  # every block takes the STRtree path
    test_hand_made_block_matches_reference()
    test_ic15_pixellink_matches_reference()


def test_thresholds_letting_zero_pass_use_the_reference() -> None:
    params = WordlineParams(membership=0.0, coverage=-1.0)
    assert not wordline_batch.batchable(params)
    block = [sample(gts(W0, W1), dets(LINE), lines=[quad(LINE)], sid="a")]
    check(block, params)


def _box(x: int, y: int, w: int, h: int, tilt: int) -> str:
    """A clockwise quad (image coordinates), its right side shifted down by ``tilt``."""
    return f"{x},{y},{x + w},{y + tilt},{x + w},{y + h + tilt},{x},{y + h}"


boxes = st.tuples(
    st.integers(0, 120), st.integers(0, 60), st.integers(4, 90), st.integers(4, 30),
    st.integers(0, 6),
)  # fmt: skip


@st.composite
def samples(draw: st.DrawFn, sid: str) -> Sample:
    """Text lines cut into words; detections of whole lines, of words (jittered) or
    anywhere; some words don't-care."""
    words: list[tuple[str, str]] = []
    found: list[str] = []
    lines = []
    for n, (x, y, w, h, tilt) in enumerate(draw(st.lists(boxes, max_size=3)), 1):
        lines.append(quad(_box(x, y, w, h, tilt), "line", n))
        k = draw(st.integers(1, 3))
        parts = [(x + w * p // k, y, max(w // k - 2, 2), h, tilt // k) for p in range(k)]
        words += [(_box(*b), draw(st.sampled_from(["A", "A", "###"]))) for b in parts]
        jitter = draw(st.integers(-3, 3))
        pick = draw(st.sampled_from(["line", "words", "none"]))
        if pick == "line":
            found.append(_box(x + jitter, y, w, h + abs(jitter), tilt))
        elif pick == "words":
            found += [_box(a + jitter, b, c, d, e) for a, b, c, d, e in parts]
    found += [_box(*b) for b in draw(st.lists(boxes, max_size=3))]
    order = draw(st.permutations(range(len(found))))
    return sample(gts(*words), dets(*(found[k] for k in order)), lines=lines, sid=sid)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 1), min_size=1, max_size=4).flatmap(
    lambda k: st.tuples(*(samples(f"s{n}") for n in range(len(k))))
), st.sampled_from(["line_index", "none"]))  # fmt: skip
def test_random_blocks_match_reference(block: tuple[Sample, ...], skip: str) -> None:
    check(list(block), WordlineParams(skip_word=skip))


def test_ic15_pixellink_matches_reference() -> None:
    from metrics.io.reader import load_dataset

    root = shared_or_skip("data", "ic15")
    ds = load_dataset(
        root / "gt.zip", root / "det_pixellink.zip", gt_lines=root / "gt_textline.zip"
    )
    check(list(ds.samples)[:120], WordlineParams())


@pytest.mark.parametrize("bad", [{"iou_threshold": -0.1}, {"dc_area_precision": -1.0}])
def test_negative_thresholds_are_not_batched(bad: dict[str, float]) -> None:
    assert not wordline_batch.batchable(WordlineParams(**bad))  # type: ignore[arg-type]


@pytest.mark.parametrize("detail", [Detail.TALLIES, Detail.EXTRAS, Detail.SUMMARY])
def test_summary_modes_keep_the_whole_results_numbers(detail: Detail) -> None:
    block = [
        sample(gts(W0, W1), dets(LINE), lines=[quad(LINE, "line")], sid="a"),
        sample(gts(W0), dets("0,0,150,0,150,20,0,20", LINE), lines=[quad(LINE)], sid="b"),
        sample(gts(W0, W1), dets(LINE, "5,2,95,2,95,18,5,18"), lines=[], sid="no_lines"),
    ]
    for metric in ("wordline_iou", "wordline_tiou"):
        whole = wordline_batch.evaluate_batch(block, WordlineParams(), metric)
        cut = wordline_batch.evaluate_batch(block, WordlineParams(), metric, Mode(detail))
        for w, c in zip(whole, cut, strict=True):
            same(
                (c.tally, c.recall, c.precision, c.extra), (w.tally, w.recall, w.precision, w.extra)
            )
            assert not (c.complete or c.gt or c.matches)
            assert c.det == (w.det if detail is Detail.SUMMARY else ())
