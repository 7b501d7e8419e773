"""``metrics.mmocr.block``: clipping only the pairs that can decide something gives what the
dense GT x det matrices (``geometry.block_areas``) give: the ignore test, the candidates and
every instance's best-IoU partner (near miss), for random overlapping boxes and pentagons,
don't-care GT, scores under the lowest threshold and GT with too few points."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.catalogue.registry import resolve
from metrics.core.model import Dataset, Instance, Sample
from metrics.mmocr import hmean
from metrics.mmocr.block import Block, evaluate_block
from metrics.mmocr.geometry import block_areas
from metrics.mmocr.params import HmeanIouParams
from metrics.run.runner import run
from metrics.shapes.matching import best_in_matrix
from tests.support import quad, sample

PRM = HmeanIouParams()

shape = st.tuples(
    st.integers(0, 40), st.integers(0, 40), st.integers(1, 30), st.integers(1, 30), st.booleans()
)


def _coords(x: int, y: int, w: int, h: int, pentagon: bool) -> str:
    if pentagon:  # not a quad: clipped by GEOS
        return f"{x},{y},{x + w},{y},{x + w},{y + h},{x + w / 2},{y + h + 3},{x},{y + h}"
    return f"{x},{y},{x + w},{y},{x + w},{y + h},{x},{y + h}"


def _sample(gts: list, dets: list, sid: str) -> Sample:
    g = [quad(_coords(*b), "###" if dc else "w", n) for n, (b, dc) in enumerate(gts, 1)]
    d = [quad(_coords(*b), None, n, conf=c) for n, (b, c) in enumerate(dets, 1)]
    return sample(g, d, sid=sid)


def _dense_nears(s: Sample, levels: np.ndarray, absorbed: np.ndarray) -> tuple[list, list]:
    """Best-IoU partners from the dense matrix: dets among care GT, GT among counted dets."""
    (a,) = block_areas([s], (PRM.match_iou_thr, PRM.ignore_precision_thr))
    care = np.array([not g.dont_care for g in s.gt], dtype=bool) & a.gt_enough_points
    d_idx, d_val = best_in_matrix(a.iou, care, axis=0)
    g_idx, g_val = best_in_matrix(a.iou, levels > 0, axis=1)
    dets = [(int(i), float(v)) for i, v, ab in zip(d_idx, d_val, absorbed, strict=True) if ab < 0]
    gts = [(int(i), float(v)) for i, v, ok in zip(g_idx, g_val, care, strict=True) if ok]
    return dets, gts


def _pairs(n: int) -> st.SearchStrategy:
    return st.lists(
        st.tuples(
            st.lists(st.tuples(shape, st.booleans()), max_size=5),
            st.lists(st.tuples(shape, st.floats(0.0, 1.0)), max_size=5),
        ),
        min_size=1,
        max_size=n,
    )


@settings(max_examples=80, deadline=None)
@given(_pairs(3))
def test_pruned_pairs_decide_as_the_dense_matrices(images: list) -> None:
    samples = [_sample(g, d, f"img_{k}") for k, (g, d) in enumerate(images)]
    b = evaluate_block(samples, PRM, True)
    for k, s in enumerate(samples):
        g0, g1, d0, d1 = b.g_off[k], b.g_off[k + 1], b.d_off[k], b.d_off[k + 1]
        levels, absorbed = b.levels[d0:d1], b.absorbed[d0:d1]
        dets, gts = _dense_nears(s, levels, absorbed)
        got_d = [
            (int(i - g0) if i >= 0 else 0, float(v))
            for i, v, ab in zip(*(x[d0:d1] for x in b.near_d), absorbed, strict=True)
            if ab < 0
        ]
        care = ~b.dc[g0:g1] & ~b.removed[g0:g1]
        got_g = [
            (int(i - d0) if i >= 0 else 0, float(v))
            for i, v, ok in zip(*(x[g0:g1] for x in b.near_g), care, strict=True)
            if ok
        ]
        # a partner is only shown with a positive IoU
        assert [p if p[1] > 0 else (0, 0.0) for p in dets] == got_d
        assert [p if p[1] > 0 else (0, 0.0) for p in gts] == got_g
        (a,) = block_areas([s], (PRM.match_iou_thr, PRM.ignore_precision_thr))
        mine = b.cand[(b.pi[b.cand] >= g0) & (b.pi[b.cand] < g1)]
        cand = {(int(i - g0), int(j - d0)) for i, j in zip(b.pi[mine], b.pj[mine], strict=True)}
        rows = care[:, None] & (levels > 0)[None, :] & (a.iou > PRM.match_iou_thr)
        assert cand == {(int(i), int(j)) for i, j in zip(*np.nonzero(rows), strict=True)}


def test_an_ignored_gt_drops_a_detection_inside_it() -> None:
    s = _sample([((0, 0, 20, 20, False), True)], [((2, 2, 10, 10, False), 0.9)], "img_1")
    b = evaluate_block([s], PRM, False)
    assert b.absorbed.tolist() == [0] and b.levels.tolist() == [0]


def test_too_few_points_meet_nothing() -> None:
    bad = Instance(
        points=np.array([[0.0, 0.0], [5.0, 5.0]]), box_type=quad("0,0,1,0,1,1,0,1").box_type
    )
    s = sample([bad], [quad(_coords(0, 0, 10, 10, False), conf=0.9)])
    b = evaluate_block([s], PRM, True)
    assert b.removed.tolist() == [True] and len(b.pi) == 0


def test_both_strategies_of_a_run_share_the_block(monkeypatch: pytest.MonkeyPatch) -> None:
    """The decisions do not depend on the strategy: one block for both MMOCR metrics."""
    calls: list[int] = []
    real = hmean.evaluate_block

    def counted(samples: Sequence[Sample], prm: HmeanIouParams, lists: bool) -> Block:
        calls.append(len(samples))
        return real(samples, prm, lists)

    monkeypatch.setattr(hmean, "evaluate_block", counted)
    s = _sample([((0, 0, 20, 20, False), False)], [((0, 0, 20, 19, False), 0.9)], "img_1")
    ds = Dataset((s,))
    both = run(ds, [resolve("mmocr_hmean_iou"), resolve("mmocr_hmean_iou_maxmatch")])
    assert calls == [1] and [ev.hmean for ev in both] == [1.0, 1.0]
    run(ds, [resolve("mmocr_hmean_iou")], {"mmocr_hmean_iou": {"match_iou_thr": 0.7}})
    assert calls == [1, 1]  # other parameters: a block of its own
