"""CLEval preparation (spec 5.2-5.3, 5.9) for a block of samples at once, on flat arrays.

GTs, detections and PCCs of all samples are concatenated (``*_off`` give each sample's
slice). Detections are kept in *evaluation order* (file order, or the stable confidence
order of spec 0.7); ``Batch.d_file`` maps them back to file indices. The GT x det
relation is sparse: ``pi``/``pj`` list the pairs whose boxes meet or that share a PCC,
with their area precision and PCC count; everything else is 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter

import numpy as np
import shapely

from metrics.cleval.geometry import (
    POLY_RATIO,
    BoolArray,
    IntArray,
    fp_estimate,
    fp_paper,
    geom_boxes,
    pnpoly,
    poly_pccs,
    poly_points,
    pseudo_length,
    quad_pcc,
    quad_ratio,
    same_sample_pairs,
)
from metrics.cleval.params import Rules
from metrics.cleval.prep import Geo, is_poly, local_index, offsets, owners, shared
from metrics.core.arrays import unique_values
from metrics.core.model import FloatArray, Instance, Sample
from metrics.core.records import dataclass
from metrics.shapes.cache import GeometryCache

__all__ = ["Batch", "is_poly", "local_index", "offsets", "owners", "prepare"]

_TEXT = attrgetter("text")


@dataclass
class Batch:
    """Flat material of a block of samples (spec 5.2-5.3)."""

    samples: Sequence[Sample]
    poly: BoolArray  # per sample
    g_off: IntArray
    d_off: IntArray
    g_owner: IntArray
    d_owner: IntArray
    d_file: IntArray  # file index (within its sample) of each evaluation-ordered det
    g_dc: BoolArray
    g_len: IntArray
    g_text: list[str]
    d_text: list[str]
    vertical: BoolArray
    d_fp: IntArray  # FP characters an unmatched det would cost
    pcc: FloatArray
    p_owner: IntArray  # GT of each PCC
    p_off: IntArray  # per GT
    pi: IntArray  # sparse GT x det pairs, sorted by GT then det
    pj: IntArray
    ap: FloatArray  # area precision (float64 of the float32 value in 0.1.1)
    apb: BoolArray  # ap >= c
    cnt: IntArray  # PCCs of GT pi inside det pj
    hp: IntArray  # PCC inclusions before clearing: PCC, det, pair
    hd: IntArray
    h_pair: IntArray


# --------------------------------------------------------------------------- sides


def _texts(items: Sequence[Instance], ratio: FloatArray, dc: BoolArray, case: bool) -> list[str]:
    """Transcriptions as the official boxes hold them: ``###`` -> ``#`` x pseudo length."""
    texts = [t or "" for t in map(_TEXT, items)]
    if dc.any():
        pseudo = pseudo_length(ratio).tolist()
        for k in np.flatnonzero(dc).tolist():
            texts[k] = "#" * int(pseudo[k])
    return texts if case else [t.upper() for t in texts]


def _ratios(quads: FloatArray, is_poly_box: BoolArray, legacy: bool) -> FloatArray:
    """Aspect ratios; ``quads`` holds the points of the boxes with ``is_poly_box`` False."""
    ratio = np.full(len(is_poly_box), POLY_RATIO)
    if len(quads):
        ratio[~is_poly_box] = quad_ratio(quads, legacy)
    return ratio


def _gt_pcc(
    gts: Sequence[Instance],
    quads: FloatArray,
    g_poly: BoolArray,
    length: IntArray,
    vertical: BoolArray,
) -> tuple[FloatArray, IntArray]:
    parts, owner_parts = [], []
    quad_idx = np.flatnonzero(~g_poly)
    if len(quad_idx):
        pcc, own = quad_pcc(quads, length[quad_idx], vertical[quad_idx])
        parts.append(pcc)
        owner_parts.append(quad_idx[own])
    poly_idx = np.flatnonzero(g_poly)
    if len(poly_idx):
        boxes = [poly_points(gts[k].points)[1] for k in poly_idx.tolist()]
        pcc, own = poly_pccs(boxes, length[poly_idx])
        parts.append(pcc)
        owner_parts.append(poly_idx[own])
    if not parts:
        return np.zeros((0, 2), dtype=np.float64), np.zeros(0, np.intp)
    if not len(poly_idx):  # QUAD PCCs come out grouped by GT already
        return parts[0], owner_parts[0].astype(np.intp)
    owner = np.concatenate(owner_parts).astype(np.intp)
    order = np.argsort(owner, kind="stable")
    return np.concatenate(parts)[order], owner[order]


# --------------------------------------------------------------------------- geometry


# --------------------------------------------------------------------------- inclusion


def _corner(op: np.ufunc, q: FloatArray) -> FloatArray:
    """``q.min(axis=1)`` (np.minimum) or ``q.max(axis=1)`` of (n, 4, 2) quads, by vertex."""
    out: FloatArray = op(op(q[:, 0], q[:, 1]), op(q[:, 2], q[:, 3]))
    return out


def _inclusion(b: Batch, geo: Geo, quads: FloatArray) -> tuple[IntArray, IntArray]:
    """(PCC, det) of every PCC inside a det of its sample: PNPOLY on truncated quads (QUAD),
    shapely ``contains`` (POLY). Candidates: PCC-extent boxes x det boxes, then points."""
    empty = np.zeros(0, np.intp)
    has = np.flatnonzero(np.diff(b.p_off) > 0)
    if len(has) == 0 or len(b.d_owner) == 0:
        return empty, empty
    lo = np.minimum.reduceat(b.pcc, b.p_off[has], axis=0)
    hi = np.maximum.reduceat(b.pcc, b.p_off[has], axis=0)
    d_poly = b.poly[b.d_owner]
    dbox = np.zeros((len(b.d_owner), 4))
    dbox[~d_poly] = np.concatenate([_corner(np.minimum, quads), _corner(np.maximum, quads)], axis=1)
    dok = ~d_poly
    if d_poly.any():
        pb, pok = geom_boxes(geo.d_geoms[d_poly])
        dbox[d_poly], dok[d_poly] = pb, pok
    dj = np.flatnonzero(dok)
    ia, jb = same_sample_pairs(np.hstack([lo, hi]), b.g_owner[has], dbox[dj], b.d_owner[dj])
    if len(ia) == 0:
        return empty, empty
    g, d = has[ia], dj[jb]
    n = np.diff(b.p_off)[g]
    rep = np.repeat(np.arange(len(g), dtype=np.intp), n)
    hp = b.p_off[g][rep] + local_index(offsets(n), rep)
    hd = d[rep]
    x, y = b.pcc[hp, 0], b.pcc[hp, 1]
    box = dbox[hd]
    near = (
        (x >= box[:, 0] - 1e-6)
        & (x <= box[:, 2] + 1e-6)
        & (y >= box[:, 1] - 1e-6)
        & (y <= box[:, 3] + 1e-6)
    )
    hp, hd = hp[near], hd[near]
    inside = np.zeros(len(hp), dtype=bool)
    qmask = ~d_poly[hd]
    if qmask.any():
        qidx = np.cumsum(~d_poly) - 1
        inside[qmask] = pnpoly(b.pcc[hp[qmask], 0], b.pcc[hp[qmask], 1], quads[qidx[hd[qmask]]])
    if (~qmask).any():
        pm = ~qmask
        inside[pm] = shapely.contains_xy(geo.d_geoms[hd[pm]], b.pcc[hp[pm], 0], b.pcc[hp[pm], 1])
    return hp[inside], hd[inside]


# --------------------------------------------------------------------------- assembly


def _pairs(b: Batch, geo: Geo, hp: IntArray, hd: IntArray, legacy: bool, c: float) -> None:
    """Union of box-candidate and PCC-sharing pairs, with area precision and PCC counts."""
    n_d = max(len(b.d_owner), 1)
    k_geo = geo.pi * n_d + geo.pj
    k_hit = b.p_owner[hp] * n_d + hd
    keys = unique_values(np.concatenate((k_geo, k_hit)))
    inter = np.zeros(len(keys))
    inter[np.searchsorted(keys, k_geo)] = geo.inter
    b.h_pair = np.searchsorted(keys, k_hit).astype(np.intp)
    b.cnt = np.bincount(b.h_pair, minlength=len(keys)).astype(np.intp)
    b.pi, b.pj = (keys // n_d).astype(np.intp), (keys % n_d).astype(np.intp)
    area = geo.d_area[b.pj]
    with np.errstate(divide="ignore", invalid="ignore"):
        ap = np.where(area > 0, inter / np.where(area > 0, area, 1.0), 0.0)
    if legacy:
        b.ap, b.apb = ap, ap >= c
    else:
        ap32 = ap.astype(np.float32)
        b.ap, b.apb = ap32.astype(np.float64), ap32 >= np.float32(c)
    b.hp, b.hd = hp, hd


def prepare(samples: Sequence[Sample], rules: Rules, geometry: GeometryCache) -> Batch:
    """Texts, PCCs, inclusion, area precision and PCC counts of a block of samples (what
    does not depend on the metric's rules memoized in ``geometry``, the run's cache)."""
    sh = geometry.memo(
        ("cleval", rules.box_type, rules.confidences, *map(id, samples)),
        samples[0],
        lambda: shared(samples, rules.box_type, rules.confidences, geometry),
    )
    gts, dets = sh.gts, sh.dets
    g_poly, d_poly = sh.poly[sh.g_owner], sh.poly[sh.d_owner]
    g_ratio = _ratios(sh.g_quads, g_poly, rules.legacy)
    g_text = _texts(gts, g_ratio, sh.g_dc, rules.case_sensitive)
    g_len = np.fromiter(map(len, g_text), dtype=np.intp, count=len(gts))
    t = rules.vertical_thresh
    vertical = ~g_poly & ((g_ratio >= t) if rules.legacy else (g_ratio < t))
    pcc, p_owner = _gt_pcc(gts, sh.g_quads, g_poly, g_len, vertical)
    d_ratio = _ratios(sh.d_quads, d_poly, rules.legacy)
    if rules.fp_paper:
        d_fp = fp_paper([poly_points(d.points)[1] for d in dets], d_poly)
    else:
        d_fp = fp_estimate(d_ratio)
    d_text: list[str] = []
    if rules.e2e:
        d_dc = np.fromiter(map("###".__eq__, map(_TEXT, dets)), dtype=bool, count=len(dets))
        d_text = _texts(dets, d_ratio, d_dc, rules.case_sensitive)
    none = np.zeros(0, np.intp)
    b = Batch(
        samples,
        sh.poly,
        sh.g_off,
        sh.d_off,
        sh.g_owner,
        sh.d_owner,
        sh.d_file,
        sh.g_dc,
        g_len,
        g_text,
        d_text,
        vertical,
        d_fp,
        pcc,
        p_owner,
        offsets(np.bincount(p_owner, minlength=len(gts)).astype(np.intp)),
        none,
        none,
        np.zeros(0),
        np.zeros(0, bool),
        none,
        none,
        none,
        none,
    )
    hp, hd = _inclusion(b, sh.geo, sh.d_rings)
    _pairs(b, sh.geo, hp, hd, rules.legacy, rules.c)
    b.pcc.setflags(write=False)  # result evidence holds views of it
    return b
