"""CLEval matching and scoring (spec 5.3 step 4, 5.4-5.7) on the flat arrays of a Batch.

Iteration orders follow the official code: 0.1.1 walks valid GTs and dets as Python sets
(``set(range(n)) - dc_set``, CPython order, Q8), legacy walks them in index order. The
orders decide the credit of overlapped PCCs, the E2E consumption and the record order.
Float sums that meet a threshold are accumulated sequentially in that order (float32 for
the 0.1.1 don't-care sum, float64 elsewhere), as the official loops do.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from metrics.cleval.core import Batch, local_index
from metrics.cleval.geometry import BoolArray, IntArray
from metrics.cleval.params import Rules
from metrics.core.model import FloatArray
from metrics.core.records import dataclass, field

# label, local GTs, global dets (evaluation order), pair indices (GT-major, det-minor)
Record = tuple[str, tuple[int, ...], tuple[int, ...], tuple[int, ...]]


def seg_sum(values: npt.NDArray[np.floating], seg: IntArray, n: int) -> npt.NDArray[np.floating]:
    """Per-segment sums, accumulated strictly left to right in the dtype of ``values``.

    ``seg`` is sorted (values of one segment are contiguous, in accumulation order).
    """
    out = np.zeros(n, dtype=values.dtype)
    if len(values) == 0:
        return out
    starts = np.flatnonzero(np.r_[True, seg[1:] != seg[:-1]])
    pos = np.arange(len(seg)) - np.repeat(starts, np.diff(np.r_[starts, len(seg)]))
    for k in range(int(pos.max()) + 1):
        m = pos == k
        out[seg[m]] = out[seg[m]] + values[m]
    return out


def sums(owner: IntArray, weights: npt.ArrayLike, n: int) -> FloatArray:
    """Per-sample float sums of ``weights`` (a scalar weight counts the owners)."""
    w = np.broadcast_to(np.asarray(weights, dtype=np.float64), owner.shape)
    out: FloatArray = np.bincount(owner, weights=w, minlength=n).astype(np.float64)
    return out


def first_per(
    seg: IntArray, keys: tuple[npt.NDArray[np.generic], ...], candidates: IntArray, n: int
) -> IntArray:
    """For each segment, the candidate first in ``np.lexsort(keys)`` order (-1 when none)."""
    out = np.full(n, -1, dtype=np.intp)
    if len(candidates):
        o = np.lexsort((*keys, seg))
        s = seg[o]
        first = np.r_[True, s[1:] != s[:-1]]
        out[s[first]] = candidates[o][first]
    return out


def set_ranks(off: IntArray, owner: IntArray, removed: BoolArray, legacy: bool) -> IntArray:
    """Rank of every instance in its sample's official iteration order of the valid ones.

    0.1.1: order of ``set(range(n)) - removed_set`` (the removed set built by ``add`` in
    index order); legacy: index order. Removed instances keep their index as rank.
    """
    rank = local_index(off, owner)
    if legacy or not removed.any():
        return rank
    out = rank.tolist()
    starts = off.tolist()
    for s, gone in _removed_by_sample(off, owner, removed):
        n, base = starts[s + 1] - starts[s], starts[s]
        for r, i in enumerate(set(range(n)) - gone):
            out[base + i] = r
    return np.asarray(out, dtype=np.intp)


def _removed_by_sample(
    off: IntArray, owner: IntArray, removed: BoolArray
) -> list[tuple[int, set[int]]]:
    """Per sample with removed instances: the set of their local indices, built in ascending
    index order (as the official code builds it by ``add``; ``set(list)`` adds in order)."""
    idx = np.flatnonzero(removed)
    own = owner[idx]
    local = (idx - off[own]).tolist()
    starts = np.flatnonzero(np.r_[True, own[1:] != own[:-1]]) if len(own) else own
    bounds = np.r_[starts, len(own)].tolist()
    return [
        (s, set(local[lo:hi]))
        for s, lo, hi in zip(own[starts].tolist(), bounds[:-1], bounds[1:], strict=True)
    ]


def _dc_order_rank(b: Batch, legacy: bool) -> IntArray:
    """Iteration rank of the dc GTs within their sample's dc set (0.1.1) or index (legacy)."""
    rank = local_index(b.g_off, b.g_owner)
    if legacy:
        return rank
    out = rank.tolist()
    starts = b.g_off.tolist()
    for s, gone in _removed_by_sample(b.g_off, b.g_owner, b.g_dc):
        for r, i in enumerate(gone):
            out[starts[s] + i] = r
    return np.asarray(out, dtype=np.intp)


@dataclass
class DontCare:
    """Which detections don't-care GTs absorb, the GT that absorbs each, and by which rule."""

    det: BoolArray
    absorbed: IntArray  # global GT index, -1
    rule: npt.NDArray[np.int8]  # 0 care, 1 single, 2 sum


def dont_care_dets(b: Batch, rules: Rules) -> DontCare:
    """Spec 5.3 step 4: dets absorbed by dc GTs (single area precision, or the sum)."""
    n_d = len(b.d_owner)
    dcp = b.g_dc[b.pi]
    if not dcp.any():
        return DontCare(np.zeros(n_d, bool), np.full(n_d, -1, np.intp), np.zeros(n_d, np.int8))
    rank = _dc_order_rank(b, rules.legacy)
    contrib = np.flatnonzero(dcp & (b.cnt > 0))
    o = np.lexsort((rank[b.pi[contrib]], b.pj[contrib]))
    contrib = contrib[o]
    if rules.legacy:
        total = seg_sum(b.ap[contrib], b.pj[contrib], n_d)
        summed = total > rules.c
        hit = np.flatnonzero(dcp & (b.ap > rules.c))
        single = np.zeros(n_d, bool)
        single[b.pj[hit]] = True
        single &= ~summed
    else:
        hit = np.flatnonzero(dcp & b.apb)
        single = np.zeros(n_d, bool)
        single[b.pj[hit]] = True
        total32 = seg_sum(b.ap[contrib].astype(np.float32), b.pj[contrib], n_d)
        summed = ~single & (total32 >= np.float32(rules.c))
    first = first_per(b.pj[hit], (rank[b.pi[hit]],), b.pi[hit], n_d)
    best = first_per(b.pj[contrib], (b.pi[contrib], -b.ap[contrib]), b.pi[contrib], n_d)
    absorbed = np.where(summed, best, np.where(single, first, -1)).astype(np.intp)
    rule = np.where(summed, 2, np.where(single, 1, 0)).astype(np.int8)
    return DontCare(single | summed, absorbed, rule)


@dataclass
class Outcome:
    """Matching and detection scores; arrays per pair, GT, det, PCC hit or sample."""

    dc: DontCare
    gt_rank: IntArray
    det_rank: IntArray
    matched: BoolArray  # per pair
    records: list[list[Record]]  # per sample
    keep: BoolArray  # per hit: survives the clearing
    kp: IntArray  # kept hits sorted by (PCC, det): PCC, det
    kd: IntArray
    found: IntArray  # per GT: credited PCCs
    credited: IntArray  # per det
    total: IntArray  # per det: PCC hits after clearing
    n_dets: IntArray  # per GT
    n_gts: IntArray  # per det
    gran_r_i: FloatArray
    gran_p_j: FloatArray
    fp_j: IntArray
    fp_mask: BoolArray
    per_sample: dict[str, FloatArray] = field(default_factory=dict)


def _match_pairs(
    b: Batch, dc: DontCare, gt_rank: IntArray, rules: Rules
) -> tuple[BoolArray, BoolArray, BoolArray, BoolArray]:
    """Spec 5.4: OO / OM / MO pair masks and the union M."""
    n_g, n_d = len(b.g_owner), len(b.d_owner)
    valid = ~b.g_dc[b.pi] & ~dc.det[b.pj]
    pos = b.cnt > 0
    q = b.apb & pos
    rowc = np.bincount(b.pi[q], minlength=n_g)
    colc = np.bincount(b.pj[q], minlength=n_d)
    oo = q & valid & (rowc[b.pi] == 1) & (colc[b.pj] == 1)
    qv = q & valid
    om = qv & (np.bincount(b.pi[qv], minlength=n_g) >= 2)[b.pi]
    cv = pos & valid
    cand = np.bincount(b.pj[cv], minlength=n_d) >= 2
    sel = np.flatnonzero(cv & cand[b.pj])
    sel = sel[np.lexsort((gt_rank[b.pi[sel]], b.pj[sel]))]
    mo_col = cand & (seg_sum(b.ap[sel], b.pj[sel], n_d) >= rules.c)
    mo = cv & mo_col[b.pj]
    return oo, om, mo, oo | om | mo


def _records(
    b: Batch, oo: BoolArray, om: BoolArray, mo: BoolArray, gt_rank: IntArray, det_rank: IntArray
) -> list[list[Record]]:
    """Records per sample in the official order: OO (GT-major), OM by GT, MO by det."""
    recs: list[list[Record]] = [[] for _ in b.samples]
    gl = local_index(b.g_off, b.g_owner).tolist()
    g_owner, d_owner = b.g_owner.tolist(), b.d_owner.tolist()
    sel = np.flatnonzero(oo)
    sel = sel[np.lexsort((det_rank[b.pj[sel]], gt_rank[b.pi[sel]], b.g_owner[b.pi[sel]]))]
    for k, g, d in zip(sel.tolist(), b.pi[sel].tolist(), b.pj[sel].tolist(), strict=True):
        recs[g_owner[g]].append(("OO", (gl[g],), (d,), (k,)))
    sel = np.flatnonzero(om)
    sel = sel[np.lexsort((det_rank[b.pj[sel]], gt_rank[b.pi[sel]], b.g_owner[b.pi[sel]]))]
    for g, dets, ks in _groups(b.pi[sel], b.pj[sel], sel):
        recs[g_owner[g]].append(("OM", (gl[g],), dets, ks))
    sel = np.flatnonzero(mo)
    sel = sel[np.lexsort((gt_rank[b.pi[sel]], det_rank[b.pj[sel]], b.d_owner[b.pj[sel]]))]
    for d, gts, ks in _groups(b.pj[sel], b.pi[sel], sel):
        recs[d_owner[d]].append(("MO", tuple([gl[g] for g in gts]), (d,), ks))
    return recs


def _groups(
    key: IntArray, member: IntArray, pair: IntArray
) -> list[tuple[int, tuple[int, ...], tuple[int, ...]]]:
    """Runs of equal ``key``: (key, its members, their pair indices)."""
    if len(key) == 0:
        return []
    starts = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
    bounds = np.r_[starts, len(key)].tolist()
    members, pairs = member.tolist(), pair.tolist()
    return [
        (k, tuple(members[lo:hi]), tuple(pairs[lo:hi]))
        for k, lo, hi in zip(key[starts].tolist(), bounds[:-1], bounds[1:], strict=True)
    ]


def _per_sample(b: Batch, out: Outcome, credited_hits: IntArray) -> dict[str, FloatArray]:
    n = len(b.samples)

    def by_gt(w: npt.ArrayLike) -> FloatArray:
        return sums(b.g_owner, w, n)

    def by_det(w: npt.ArrayLike) -> FloatArray:
        return sums(b.d_owner, w, n)

    tp = sums(b.g_owner[b.p_owner[credited_hits]], 1.0, n)
    hits = sums(b.d_owner[b.hd[out.keep]], 1.0, n)
    fp_chars = by_det(out.fp_j)
    return {
        "tp": tp,
        "gran_r": by_gt(out.gran_r_i),
        "gran_p": by_det(out.gran_p_j),
        "chars_gt": by_gt(np.where(b.g_dc, 0, b.g_len)),
        "chars_det": hits + fp_chars,
        "fp_chars": fp_chars,
        "fp_boxes": by_det(out.fp_mask),
        "split": by_gt(out.n_dets > 1),
        "merge": by_det(out.n_gts > 1),
        "overlap": hits - tp,
    }


def match_and_score(b: Batch, rules: Rules, *, records: bool = True) -> Outcome:
    """Don't-care dets, matching, clearing and detection scoring (spec 5.3-5.5); the match
    records only with ``records`` (else none)."""
    n_g, n_d = len(b.g_owner), len(b.d_owner)
    dc = dont_care_dets(b, rules)
    gt_rank = set_ranks(b.g_off, b.g_owner, b.g_dc, rules.legacy)
    det_rank = set_ranks(b.d_off, b.d_owner, dc.det, rules.legacy)
    oo, om, mo, matched = _match_pairs(b, dc, gt_rank, rules)
    keep = matched[b.h_pair] if len(b.h_pair) else np.zeros(0, bool)
    hp, hd = b.hp[keep], b.hd[keep]
    o = np.lexsort((det_rank[hd], hp))
    hp_s, hd_s = hp[o], hd[o]
    first = np.r_[True, hp_s[1:] != hp_s[:-1]] if len(hp_s) else np.zeros(0, bool)
    n_gts = np.bincount(b.pj[matched], minlength=n_d).astype(np.intp)
    n_dets = np.bincount(b.pi[matched], minlength=n_g).astype(np.intp)
    fp_mask = ~dc.det & (n_gts == 0)
    o2 = np.lexsort((b.d_file[hd], hp))
    out = Outcome(
        dc=dc,
        gt_rank=gt_rank,
        det_rank=det_rank,
        matched=matched,
        records=_records(b, oo, om, mo, gt_rank, det_rank) if records else [],
        keep=keep,
        kp=hp[o2],
        kd=hd[o2],
        found=np.bincount(b.p_owner[hp_s[first]], minlength=n_g).astype(np.intp),
        credited=np.bincount(hd_s[first], minlength=n_d).astype(np.intp),
        total=np.bincount(hd, minlength=n_d).astype(np.intp),
        n_dets=n_dets,
        n_gts=n_gts,
        gran_r_i=rules.w_r * np.maximum(n_dets - 1, 0).astype(np.float64),
        gran_p_j=rules.w_p * np.maximum(n_gts - 1, 0).astype(np.float64),
        fp_j=np.where(fp_mask, b.d_fp, 0).astype(np.intp),
        fp_mask=fp_mask,
    )
    out.per_sample = _per_sample(b, out, hp_s[first])
    return out


# --------------------------------------------------------------------------- end-to-end (5.6-5.7)


def lcs(s1: str, s2: str, legacy: bool) -> tuple[int, str]:
    """LCS of the official string DP, reproduced through a length table and its traceback.

    On a mismatch the official cell takes ``up`` when it is strictly longer (0.1.1, ties go
    left) or when it is at least as long (legacy ``max(up, left, key=len)``, ties go up).
    Row i of the length table is kept as a bit vector (Hyyrö's bit-parallel LCS): bit j is
    clear where ``table[i][j + 1] = table[i][j] + 1``, so ``table[i][j]`` is j minus the set
    bits below j.
    """
    n, m = len(s1), len(s2)
    if n == 0 or m == 0:
        return 0, ""
    if s1 == s2:  # the traceback walks the diagonal
        return n, s1
    full = (1 << m) - 1
    masks: dict[str, int] = {}
    for j, ch in enumerate(s2):
        masks[ch] = masks.get(ch, 0) | (1 << j)
    rows = [full]
    v = full
    for ch in s1:
        u = v & masks.get(ch, 0)
        v = ((v + u) | (v - u)) & full
        rows.append(v)
    out: list[str] = []
    i, j = n, m
    while i > 0 and j > 0:
        if s1[i - 1] == s2[j - 1]:
            out.append(s1[i - 1])
            i, j = i - 1, j - 1
            continue
        up = j - (rows[i - 1] & ((1 << j) - 1)).bit_count()
        left = j - 1 - (rows[i] & ((1 << (j - 1)) - 1)).bit_count()
        if up > left or (legacy and up == left):
            i -= 1
        else:
            j -= 1
    return m - rows[n].bit_count(), "".join(reversed(out))
