"""``metrics.paddleocr.bounds``: clipping only the pairs that can decide a test or an
unmatched instance's near miss gives the near misses of every pair's IoU (``iou_table``,
which clips every pair), for random overlapping boxes and pentagons with don't-care GT."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.core.results import Verdict
from metrics.paddleocr.metric import evaluate_sample, iou_table
from metrics.paddleocr.params import PaddleParams
from tests.support import quad, sample

shape = st.tuples(
    st.integers(0, 40), st.integers(0, 40), st.integers(1, 30), st.integers(1, 30), st.booleans()
)


def _coords(x: int, y: int, w: int, h: int, pentagon: bool) -> str:
    if pentagon:  # not a quad: clipped by GEOS
        return f"{x},{y},{x + w},{y},{x + w},{y + h},{x + w / 2},{y + h + 3},{x},{y + h}"
    return f"{x},{y},{x + w},{y},{x + w},{y + h},{x},{y + h}"


def _best(row: np.ndarray, ok: list[bool]) -> tuple[int, float] | None:
    masked = np.where(ok, row, -1.0)
    k = int(np.argmax(masked)) if len(masked) else 0
    return (k, float(masked[k])) if len(masked) and masked[k] > 0 else None


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.tuples(shape, st.booleans()), min_size=1, max_size=6),
    st.lists(shape, max_size=6),
)
def test_near_misses_are_those_of_every_pair(gts: list, dets: list) -> None:
    s = sample(
        [quad(_coords(*b), "###" if dc else "w", n) for n, (b, dc) in enumerate(gts, 1)],
        [quad(_coords(*b), None, n) for n, b in enumerate(dets, 1)],
    )
    prm = PaddleParams()
    r = evaluate_sample(s, prm)
    assert r is not None
    iou = iou_table(s, prm)
    g_care = [g.verdict is not Verdict.DONT_CARE for g in r.gt]
    d_care = [d.verdict is not Verdict.DONT_CARE for d in r.det]
    for g in r.gt:
        if g.verdict is Verdict.MISSED:
            nm = g.near_miss
            assert (None if nm is None else (nm.partner, nm.value)) == _best(iou[g.index], d_care)
    for d in r.det:
        if d.verdict is Verdict.FALSE_POSITIVE:
            nm = d.near_miss
            assert (None if nm is None else (nm.partner, nm.value)) == _best(
                iou[:, d.index], g_care
            )
