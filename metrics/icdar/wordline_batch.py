"""Word & Text-Line evaluation of a block of samples at once (vectorized across samples).

The same algorithm as ``metrics.icdar.wordline`` (which stays the reference, and evaluates
a sample on its own), arranged for speed: every polygon, intersection, outlier region and
pair value of the block is computed in single array operations; only the bookkeeping that
is sequential by nature (the order in which words are credited, the second don't-care pass,
the sums of credits) walks the few matched pairs in Python, in the reference's order, so
every number is the same to the last bit. Parameters under which a pair that does not
overlap could pass a threshold (a threshold below 0) go through the reference instead.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import shapely

from metrics.core.evidence import Region
from metrics.core.model import FloatArray, Sample
from metrics.core.records import dataclass
from metrics.core.results import MatchKind, MatchRecord, SampleResult
from metrics.icdar import wordline
from metrics.icdar.batch import Pairs, Score, match_numbers, ranks
from metrics.icdar.common import inside_areas, pair_value_arrays
from metrics.icdar.greedy import tiou_options
from metrics.icdar.overlaps import Lines, Overlaps, Side, lines_of
from metrics.icdar.params import TiouOptions, WordlineParams
from metrics.shapes import robust
from metrics.shapes.geometry import (
    FlatGeometry,
)
from metrics.shapes.matching import dont_care_dets, greedy_pairs, pair_iou
from metrics.shapes.mode import Mode

IntArray = npt.NDArray[np.intp]
BoolArray = npt.NDArray[np.bool_]
ARRAY_OPS: dict[str, Callable[[FloatArray, float], BoolArray]] = {
    ">": np.greater,
    ">=": np.greater_equal,
}  # wordline.OPS over arrays


def batchable(params: WordlineParams) -> bool:
    """Whether pairs that do not overlap can be left out: no threshold lets 0 pass."""
    member, cover = wordline.OPS[params.membership_op], wordline.OPS[params.coverage_op]
    return (
        params.iou_threshold >= 0
        and params.dc_area_precision >= 0
        and not member(0.0, params.membership)
        and not cover(0.0, params.coverage)
    )


def _ratio(num: FloatArray, den: FloatArray) -> FloatArray:
    with np.errstate(divide="ignore", invalid="ignore"):
        out: FloatArray = np.where(den > 0, num / den, 0.0)
    return out


def _groups(keys: IntArray, values: IntArray, queries: IntArray) -> tuple[IntArray, IntArray]:
    """For each query q: the values whose key equals q (``keys`` sorted), as (query, value)."""
    lo = np.searchsorted(keys, queries, side="left")
    n = np.searchsorted(keys, queries, side="right") - lo
    owner = np.repeat(np.arange(len(queries)), n)
    pos = np.arange(int(n.sum())) - np.repeat(np.cumsum(n) - n, n) + np.repeat(lo, n)
    return owner, values[pos]


def _inter_of(f: FlatGeometry, gi: IntArray, dj: IntArray) -> FloatArray:
    """|G ∩ D| of arbitrary (GT, det) pairs: the candidate pair's value, else 0."""
    if not len(f.pi):
        return np.zeros(len(gi))
    nd = max(len(f.d_area), 1)
    keys = f.pi * nd + f.pj  # sorted: the pairs are sorted by GT, then det
    q = gi * nd + dj
    pos = np.minimum(np.searchsorted(keys, q), len(keys) - 1)
    out: FloatArray = np.where(keys[pos] == q, f.inter[pos], 0.0)
    return out


@dataclass(frozen=True)
class _Block:
    """The block's geometry and the flags both stages read."""

    f: FlatGeometry
    lines: Lines
    words: Side
    dets: Side
    g_dc: BoolArray
    det_dc: BoolArray
    rank: IntArray
    params: WordlineParams
    opts: TiouOptions


@dataclass(frozen=True)
class _LineStage:
    """The text-line matches of the block (in the reference's order) and their words."""

    t: IntArray  # global line index of each match
    j: IntArray  # global det index
    values: dict[str, FloatArray]
    others: list[list[int]]  # global GT indices
    members: list[list[int]]  # global GT indices
    covered: list[list[int]]
    credit: list[list[float]]


def _line_outliers(b: _Block, t: IntArray, j: IntArray, others: list[list[int]]) -> FloatArray:
    """Ot = |D ∩ V| - |(D ∩ L) ∩ V| of each line match (V: the outlier GT, or the union of
    several: ``outlier_area``, vectorized)."""
    f = b.f
    ot = np.zeros(len(t))
    for single in (True, False):
        ms = np.asarray([m for m, o in enumerate(others) if o and single == (len(o) == 1)], np.intp)
        if not len(ms):
            continue
        rows = [others[m] for m in ms]
        if single:
            v = f.g_geoms[np.asarray([r[0] for r in rows], dtype=np.intp)]
        else:
            v = robust.union_rows(f.g_geoms, rows)
        d = f.d_geoms[j[ms]]
        inner = inside_areas(d, b.lines.side.geoms[t[ms]], v)
        ot[ms] = shapely.area(robust.intersection(d, v)) - inner
    ot[ot <= b.opts.ot_zero_eps] = 0.0
    return ot


def _line_stage(b: _Block, outliers: bool = True) -> _LineStage:
    """``outliers`` False: every Ot left 0 (nothing read of the TIoU credits)."""
    f, lines, thr = b.f, b.lines, b.params.iou_threshold
    o = Overlaps.of(lines.side, b.dets)
    l_iou = pair_iou(o.inter, lines.area[o.ia], f.d_area[o.ib])
    if o.settle(l_iou, thr):
        l_iou = pair_iou(o.inter, lines.area[o.ia], f.d_area[o.ib])
    ok = np.ones(len(lines.area), dtype=bool)
    m = greedy_pairs(o.ia, o.ib, l_iou, b.rank, ok, ~b.det_dc, thr)
    o.refine(m[~o.exact[m]])
    t, j = o.ia[m], o.ib[m]
    s = f.d_owner[j]
    nz = np.flatnonzero(f.inter != 0)
    nz = nz[np.argsort(f.pj[nz], kind="stable")]  # by det, GT ascending within
    owner, ks = _groups(f.pj[nz], f.pi[nz], j)
    if b.params.skip_word == "line_index":  # W5: the word whose index is the line's
        keep = ks - f.g_off[s[owner]] != t[owner] - lines.off[s[owner]]
        owner, ks = owner[keep], ks[keep]
    others = _split(owner, ks, len(t))
    ot = _line_outliers(b, t, j, others) if outliers else np.zeros(len(t))
    values = pair_value_arrays(o.inter[m], lines.area[t], f.d_area[j], ot, b.opts)
    members, covered, credit = _members(b, t, j)
    return _LineStage(t, j, values, others, members, covered, credit)


def _members(
    b: _Block, t: IntArray, j: IntArray
) -> tuple[list[list[int]], list[list[int]], list[list[float]]]:
    """Member words of each matched line, those the detection covers, and their credits."""
    f, prm = b.f, b.params
    o = Overlaps.of(b.lines.side, b.words)
    o.settle(_ratio(o.inter, f.g_area[o.ib]), prm.membership)
    is_member = ARRAY_OPS[prm.membership_op](_ratio(o.inter, f.g_area[o.ib]), prm.membership)
    owner, w = _groups(o.ia[is_member], o.ib[is_member], t)
    n_members = np.bincount(owner, minlength=len(t))
    jw = j[owner]
    inter = _inter_of(f, w, jw)
    cover = ARRAY_OPS[prm.coverage_op](_ratio(inter, f.g_area[w]), prm.coverage)
    if prm.exclude_dc_words:
        cover &= ~b.g_dc[w]
    c_owner, cw = owner[cover], w[cover]
    g = f.g_area[cw]
    v = pair_value_arrays(inter[cover], g, f.d_area[jw[cover]], np.zeros(len(cw)), b.opts)
    ok = (g > 0) & (v["ct"] >= 0) & (v["ct"] <= g)
    star = np.where(ok, v["intersection"] * v["f_ct"] / np.where(g > 0, g, 1.0), 0.0)
    credit = np.where(n_members[c_owner] >= 2, star, v["tiou_recall"])
    n = len(t)
    return _split(owner, w, n), _split(c_owner, cw, n), _split(c_owner, credit, n)


def _split(owner: IntArray, values: npt.NDArray[np.generic], n: int) -> list[list[Any]]:
    """``values`` grouped by ``owner`` (sorted, 0..n-1) as lists of Python numbers."""
    vals = values.tolist()
    at = np.searchsorted(owner, np.arange(n + 1)).tolist()
    return [vals[at[k] : at[k + 1]] for k in range(n)]


def evaluate_batch(
    samples: Sequence[Sample], params: WordlineParams, metric: str, mode: Mode | None = None
) -> list[SampleResult]:
    """``wordline.evaluate_one`` of every sample, computed for the block at once."""
    mode = mode or Mode()
    if not batchable(params):
        return [wordline.evaluate_one(s, params, metric, mode) for s in samples]
    if not samples:
        return []
    f = mode.cache.flat(samples, "icdar")
    g_dc = np.fromiter((g.dont_care for s in samples for g in s.gt), bool, len(f.g_area))
    det_dc, _ = dont_care_dets(f.pi, f.pj, f.inter, f.d_area, g_dc, params.dc_area_precision)
    rank = ranks(samples, f, params.confidences)
    gts, dets = Side.of(f.g_geoms, f.g_owner), Side.of(f.d_geoms, f.d_owner)
    opts = tiou_options(params, False)
    b = _Block(f, lines_of(samples), gts, dets, g_dc, det_dc, rank, params, opts)
    # IoU's tally counts matches: where nothing else of the results is read, no TIoU
    # outlier is clipped (the results' credits and verdicts are TIoU's)
    tiou = metric == "wordline_tiou" or mode.results
    ls = _line_stage(b, outliers=tiou)
    full = [bool(len(s.gt) and len(s.det)) for s in samples]
    matched = set(ls.j.tolist())
    at = np.searchsorted(b.lines.side.owner[ls.t], np.arange(len(samples) + 1)).tolist()
    keep = mode.verdicts  # False: no match records (nothing reads the instances)
    states = [_lines_of(b, ls, s, range(at[s], at[s + 1]), keep) for s in range(len(samples))]
    dc2 = _second_dc_pass(b, states, matched, full)
    gt_ok = np.ones(len(g_dc), dtype=bool)
    for s, st in enumerate(states):
        if full[s]:
            gt_ok[[int(f.g_off[s]) + w for w in set(st.dc_words) | st.word_matched]] = False
    det_ok = ~dc2
    det_ok[list(matched)] = False
    iou = pair_iou(f.inter, f.g_area[f.pi], f.d_area[f.pj])
    m = greedy_pairs(f.pi, f.pj, iou, rank, gt_ok, det_ok, params.iou_threshold)
    # regions: not in a summary-only run, nor for wordline_iou (no TIoU penalty to draw)
    drawn = mode.instances and metric == "wordline_tiou"
    score: Score = "tiou" if tiou else "iou"
    mt = match_numbers(f, Pairs(f.pi, f.pj, f.inter, iou), m, g_dc, score, b.opts, drawn)
    words = _Words(mt.gi, mt.dj, _columns(mt.values), mt.others, mt.cut, mt.outlier)
    at = np.searchsorted(mt.gi, f.g_off).tolist()
    out = []
    for s, sample in enumerate(samples):
        if not full[s]:
            out.append(wordline.evaluate_one(sample, params, metric, mode))
            continue
        _words_of(b, words, s, range(at[s], at[s + 1]), states[s], keep)
        g0, g1, d0, d1 = (int(x) for x in (f.g_off[s], f.g_off[s + 1], f.d_off[s], f.d_off[s + 1]))
        dcs = (g_dc[g0:g1], dc2[d0:d1])
        out.append(wordline.result(sample, *dcs, states[s], metric, mode.instances, keep))
    return out


def _columns(values: dict[str, FloatArray]) -> dict[str, list[float]]:
    return {name: a.tolist() for name, a in values.items()}


def _lines_of(b: _Block, ls: _LineStage, s: int, ks: range, records: bool) -> wordline.State:
    """Sample ``s``'s text-line stage bookkeeping, in the reference's order (``records``
    False: without its match records)."""
    g0, d0, l0 = int(b.f.g_off[s]), int(b.f.d_off[s]), int(b.lines.off[s])
    st = wordline.State(dc_words=np.flatnonzero(b.g_dc[g0 : b.f.g_off[s + 1]]).tolist())
    if not len(ks):
        return st
    cols = _columns({k: v[ks.start : ks.stop] for k, v in ls.values.items() if records})
    prec = ls.values["tiou_precision"][ks.start : ks.stop].tolist()
    for n, k in enumerate(ks):
        t, j = int(ls.t[k]) - l0, int(ls.j[k]) - d0
        st.matched_count += 1
        st.precision_credit += prec[n]
        covered = [w - g0 for w in ls.covered[k]]
        for w, c in zip(covered, ls.credit[k], strict=True):
            st.word_matched.add(w)
            st.dc_words.append(w)
            st.valid += 1
            st.recall_credit += c
            st.gt_credit[w] = st.gt_credit.get(w, 0.0) + c
            st.gt_partner[w] = j
        st.det_credit[j] = prec[n]
        st.det_partner[j] = covered[0] if covered else -1
        if not records:
            continue
        st.records.append(
            MatchRecord(
                kind=MatchKind.MERGE if len(covered) > 1 else MatchKind.ONE_TO_ONE,
                gt=tuple(covered),
                det=(j,),
                label="text_line",
                values={**{name: c[n] for name, c in cols.items()}, "text_line": float(t)},
                related={
                    "text_line": (t,),
                    "members": tuple(w - g0 for w in ls.members[k]),
                    "outlier_gts": tuple(o - g0 for o in ls.others[k]),
                },
            )
        )
    return st


def _second_dc_pass(
    b: _Block, states: list[wordline.State], matched: set[int], full: list[bool]
) -> BoolArray:
    """W6: each dc word (then each credited word) marks at most one more detection
    don't-care: the first in evaluation order with |D ∩ G| / |D| above the threshold."""
    f = b.f
    prec = _ratio(f.inter, f.d_area[f.pj])
    hit = np.flatnonzero(prec > b.params.dc_area_precision)
    hit = hit[np.lexsort((b.rank[f.pj[hit]], f.pi[hit]))]
    cands: dict[int, list[int]] = {}
    for i, j in zip(f.pi[hit].tolist(), f.pj[hit].tolist(), strict=True):
        cands.setdefault(i, []).append(j)
    dc = b.det_dc.tolist()
    for s, st in enumerate(states):
        g0 = int(f.g_off[s])
        for w in st.dc_words if full[s] else ():
            for j in cands.get(g0 + w, ()):
                if j not in matched and not dc[j]:
                    dc[j] = True
                    break
    return np.asarray(dc, dtype=bool)


@dataclass(frozen=True)
class _Words:
    """The word-level matches of the block (global indices, sorted by GT)."""

    gi: IntArray
    dj: IntArray
    values: dict[str, list[float]]
    others: list[list[int]]
    cut: list[Region]
    outlier: list[Region]


def _words_of(
    b: _Block, words: _Words, s: int, ks: range, st: wordline.State, records: bool
) -> None:
    """Sample ``s``'s word-level matches added to its bookkeeping (``records`` False:
    without their match records)."""
    g0, d0 = int(b.f.g_off[s]), int(b.f.d_off[s])
    rcs, pcs = words.values["tiou_recall"], words.values["tiou_precision"]
    for k in ks:
        i, j = int(words.gi[k]) - g0, int(words.dj[k]) - d0
        st.matched_count += 1
        st.recall_credit += rcs[k]
        st.precision_credit += pcs[k]
        st.gt_credit[i], st.det_credit[j] = rcs[k], pcs[k]
        st.gt_partner[i], st.det_partner[j] = j, i
        if not records:
            continue
        others = tuple(o - g0 for o in words.others[k])
        st.records.append(
            MatchRecord(
                kind=MatchKind.ONE_TO_ONE,
                gt=(i,),
                det=(j,),
                values={name: c[k] for name, c in words.values.items()},
                label="OO",
                regions={"cut": words.cut[k], "outlier": words.outlier[k]} if words.cut else {},
                related={
                    "outlier_gts": others,
                    "outlier_dont_care": tuple(o for o in others if b.g_dc[o + g0]),
                },
            )
        )


def evaluate_batch_tiou(
    samples: Sequence[Sample], params: WordlineParams, mode: Mode | None = None
) -> list[SampleResult]:
    """Word & Text-Line TIoU of a block of samples."""
    return evaluate_batch(samples, params, "wordline_tiou", mode)


def evaluate_batch_iou(
    samples: Sequence[Sample], params: WordlineParams, mode: Mode | None = None
) -> list[SampleResult]:
    """Word & Text-Line IoU ("Origin") of a block of samples."""
    return evaluate_batch(samples, params, "wordline_iou", mode)
