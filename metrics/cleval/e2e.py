"""CLEval end-to-end scoring (spec 5.6-5.7): sequential character consumption through the
LCS of each matched GT, in the official iteration order, and the recognition score. Used by
``metrics.cleval.metric`` on the outcome of ``cleval_match.match_and_score``.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from metrics.cleval.core import Batch, local_index
from metrics.cleval.evidence import RecognitionStep
from metrics.cleval.geometry import IntArray
from metrics.cleval.match import Outcome, lcs, sums
from metrics.cleval.params import Rules
from metrics.core.model import FloatArray
from metrics.core.records import dataclass


@dataclass
class E2E:
    """End-to-end outcome: per sample sums and steps, per det consumed/remaining text."""

    steps: list[list[RecognitionStep]]
    consumed: list[str]
    remaining: list[str]
    lcs: IntArray  # per GT
    per_sample: dict[str, FloatArray]


def _order_by_pcc(dets: list[int], pccs: list[int], hit_by: dict[int, set[int]]) -> list[int]:
    """Spec 5.6 a: the first unordered det holding PCC k moves next; the first left is last."""
    unordered = list(dets)
    ordered: list[int] = []
    for k in pccs:
        if len(unordered) == 1:
            break
        holders = hit_by.get(k)
        if holders:
            for d in unordered:
                if d in holders:
                    ordered.append(d)
                    unordered.remove(d)
                    break
    ordered.append(unordered[0])
    return ordered


def _consume(z: str, ordered: list[int], remaining: list[str], consumed: list[str]) -> None:
    for ch in z:
        for d in ordered:
            if ch in remaining[d]:
                remaining[d] = remaining[d].replace(ch, "", 1)
                consumed[d] += ch
                break


def score_e2e(b: Batch, out: Outcome, rules: Rules, *, steps: bool = True) -> E2E:
    """SESP (spec 5.6): matched GTs in iteration order consume det characters through LCS.
    The steps (evidence; none without ``steps``) name detections by file index."""
    n = len(b.samples)
    remaining = list(b.d_text)
    consumed = [""] * len(remaining)
    done: list[list[RecognitionStep]] = [[] for _ in range(n)]
    lcs_len = np.zeros(len(b.g_owner), dtype=np.intp)
    mp = np.flatnonzero(out.matched)
    mp_g = b.pi[mp]
    gts = np.flatnonzero(out.n_dets > 0)
    gts = gts[np.lexsort((out.gt_rank[gts], b.g_owner[gts]))]
    p0, p1 = b.p_off[gts], b.p_off[gts + 1]
    columns = (
        gts,
        np.searchsorted(mp_g, gts),
        np.searchsorted(mp_g, gts + 1),
        p0,
        p1,
        np.searchsorted(out.kp, p0),
        np.searchsorted(out.kp, p1),
    )
    pj, kp, kd = b.pj[mp].tolist(), out.kp.tolist(), out.kd.tolist()
    gl, owner, f = local_index(b.g_off, b.g_owner).tolist(), b.g_owner.tolist(), b.d_file.tolist()
    found: list[int] = []
    for g, lo, hi, q0, q1, a, z in zip(*(c.tolist() for c in columns), strict=True):
        ordered = pj[lo:hi]
        if len(ordered) > 1:
            hit_by: dict[int, set[int]] = {}
            for k, d in zip(kp[a:z], kd[a:z], strict=True):
                hit_by.setdefault(k, set()).add(d)
            ordered = _order_by_pcc(ordered, list(range(q0, q1)), hit_by)
        text = "".join([remaining[d] for d in ordered])
        length, common = lcs(b.g_text[g], text, rules.legacy)
        _consume(common, ordered, remaining, consumed)
        found.append(length)
        if steps:
            done[owner[g]].append(
                RecognitionStep(gl[g], tuple([f[d] for d in ordered]), text, common, length)
            )
    lcs_len[gts] = found
    valid = ~out.dc.det
    matched = valid & (out.n_gts > 0)
    t_len = np.fromiter((len(t) for t in b.d_text), dtype=np.intp, count=len(b.d_text))
    used = np.fromiter((len(c) for c in consumed), dtype=np.intp, count=len(consumed))
    den = np.maximum(out.total, t_len) if rules.rs_paper else t_len

    def by_det(w: npt.ArrayLike) -> FloatArray:
        return sums(b.d_owner, w, n)

    per_sample = {
        "tp": by_det(np.where(valid, used, 0)),
        "chars_det": by_det(np.where(valid, t_len, 0)),
        "lcs": sums(b.g_owner, lcs_len, n),
        "rs_num": by_det(np.where(matched, used, 0)),
        "rs_den": by_det(np.where(matched, den, 0)),
    }
    return E2E(done, consumed, remaining, lcs_len, per_sample)
