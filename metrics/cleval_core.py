"""CLEval preparation (spec 5.2-5.3, 5.9) for a block of samples at once, on flat arrays.

GTs, detections and PCCs of all samples are concatenated (``*_off`` give each sample's
slice). Detections are kept in *evaluation order* (file order, or the stable confidence
order of spec 0.7); ``Batch.d_file`` maps them back to file indices. The GT x det
relation is sparse: ``pi``/``pj`` list the pairs whose boxes meet or that share a PCC,
with their area precision and PCC count; everything else is 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import shapely

from metrics.cleval_geom import (
    POLY_RATIO,
    BoolArray,
    IntArray,
    cut_dont_care,
    fp_estimate,
    fp_paper,
    geom_boxes,
    pnpoly,
    poly_geoms,
    poly_pcc,
    poly_points,
    pseudo_length,
    quad_pcc,
    quad_ratio,
    same_sample_pairs,
)
from metrics.geometry import CACHE, GeomArray
from metrics.icdar import confidence_order
from metrics.model import BoxType, FloatArray, Instance, Sample


@dataclass(frozen=True, slots=True)
class Rules:
    """Everything that differs between the four CLEval metrics and their switches."""

    legacy: bool
    e2e: bool
    c: float
    w_r: float
    w_p: float
    vertical_thresh: float
    case_sensitive: bool = True
    fp_paper: bool = False
    rs_paper: bool = False
    confidences: bool | None = None
    box_type: str = "auto"


def is_poly(sample: Sample, box_type: str) -> bool:
    """POLY mode (spec 5.9) when forced, or (``auto``) when any box of the sample is a POLY."""
    if box_type != "auto":
        return box_type == "POLY"
    return any(i.box_type is BoxType.POLY for i in (*sample.gt, *sample.det))


def offsets(counts: IntArray) -> IntArray:
    out: IntArray = np.concatenate([[0], np.cumsum(counts)]).astype(np.intp)
    return out


def owners(counts: IntArray) -> IntArray:
    out: IntArray = np.repeat(np.arange(len(counts), dtype=np.intp), counts)
    return out


def local_index(off: IntArray, owner: IntArray) -> IntArray:
    out: IntArray = np.arange(len(owner), dtype=np.intp) - off[owner]
    return out


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
    pseudo = pseudo_length(ratio).tolist() if bool(dc.any()) else []
    out = ["#" * int(pseudo[k]) if dc[k] else (inst.text or "") for k, inst in enumerate(items)]
    return out if case else [t.upper() for t in out]


def _stack(items: Sequence[Instance], sel: IntArray) -> FloatArray:
    if len(sel) == 0:
        return np.zeros((0, 4, 2), dtype=np.float64)
    if any(len(items[k].points) != 4 for k in sel.tolist()):
        raise ValueError("QUAD mode needs 4 points per box (use box_type='POLY')")
    return np.stack([items[k].points for k in sel.tolist()])


def _ratios(items: Sequence[Instance], is_poly_box: BoolArray, legacy: bool) -> FloatArray:
    ratio = np.full(len(items), POLY_RATIO)
    quads = np.flatnonzero(~is_poly_box)
    if len(quads):
        ratio[quads] = quad_ratio(_stack(items, quads), legacy)
    return ratio


def _gt_pcc(
    gts: Sequence[Instance], g_poly: BoolArray, length: IntArray, vertical: BoolArray
) -> tuple[FloatArray, IntArray]:
    parts, owner_parts = [], []
    quads = np.flatnonzero(~g_poly)
    if len(quads):
        pcc, own = quad_pcc(_stack(gts, quads), length[quads], vertical[quads])
        parts.append(pcc)
        owner_parts.append(quads[own])
    for k in np.flatnonzero(g_poly).tolist():
        pcc = poly_pcc(poly_points(gts[k].points)[1], int(length[k]))
        parts.append(pcc)
        owner_parts.append(np.full(len(pcc), k, dtype=np.intp))
    if not parts:
        return np.zeros((0, 2), dtype=np.float64), np.zeros(0, np.intp)
    owner = np.concatenate(owner_parts).astype(np.intp)
    order = np.argsort(owner, kind="stable")
    return np.concatenate(parts)[order], owner[order]


# --------------------------------------------------------------------------- geometry


@dataclass
class _Geo:
    g_geoms: GeomArray
    d_geoms: GeomArray  # evaluation order
    d_area: FloatArray
    pi: IntArray
    pj: IntArray
    inter: FloatArray


def _quad_geo(b: Batch, sel: IntArray, perm_inv: IntArray) -> _Geo:
    """Geometry of the QUAD samples ``sel`` from the shared cache, in batch indices."""
    f = CACHE.flat([b.samples[k] for k in sel.tolist()], "icdar")
    g_glob = b.g_off[sel[f.g_owner]] + local_index(f.g_off, f.g_owner)
    d_glob = perm_inv[b.d_off[sel[f.d_owner]] + local_index(f.d_off, f.d_owner)]
    g_geoms = np.empty(len(b.g_owner), dtype=object)
    d_geoms = np.empty(len(b.d_owner), dtype=object)
    d_area = np.zeros(len(b.d_owner))
    g_geoms[g_glob], d_geoms[d_glob], d_area[d_glob] = f.g_geoms, f.d_geoms, f.d_area
    return _Geo(g_geoms, d_geoms, d_area, g_glob[f.pi], d_glob[f.pj], f.inter)


def _poly_geo(b: Batch, sel: IntArray, dets: Sequence[Instance]) -> _Geo:
    """POLY samples: buffered shapely polygons (spec 5.9), intersections of candidates."""
    gmask, dmask = np.isin(b.g_owner, sel), np.isin(b.d_owner, sel)
    gi, dj = np.flatnonzero(gmask), np.flatnonzero(dmask)
    g_geoms = np.empty(len(b.g_owner), dtype=object)
    d_geoms = np.empty(len(b.d_owner), dtype=object)
    gts = [g for s in b.samples for g in s.gt]
    g_geoms[gi] = poly_geoms([poly_points(gts[k].points)[0] for k in gi.tolist()])
    d_geoms[dj] = poly_geoms([poly_points(dets[k].points)[0] for k in dj.tolist()])
    d_area = np.zeros(len(b.d_owner))
    d_area[dj] = shapely.area(d_geoms[dj])
    gbox, gok = geom_boxes(g_geoms[gi]) if len(gi) else (np.zeros((0, 4)), np.zeros(0, bool))
    dbox, dok = geom_boxes(d_geoms[dj]) if len(dj) else (np.zeros((0, 4)), np.zeros(0, bool))
    gi, gbox, dj, dbox = gi[gok], gbox[gok], dj[dok], dbox[dok]
    ia, jb = same_sample_pairs(gbox, b.g_owner[gi], dbox, b.d_owner[dj])
    pi, pj = gi[ia], dj[jb]
    inter = np.asarray(shapely.area(shapely.intersection(g_geoms[pi], d_geoms[pj])), float)
    return _Geo(g_geoms, d_geoms, d_area, pi, pj, inter.reshape(-1))


def _geometry(b: Batch, dets: Sequence[Instance]) -> _Geo:
    perm = b.d_off[b.d_owner] + b.d_file
    perm_inv = np.empty_like(perm)
    perm_inv[perm] = np.arange(len(perm), dtype=np.intp)
    parts = []
    quad_sel, poly_sel = np.flatnonzero(~b.poly), np.flatnonzero(b.poly)
    if len(quad_sel):
        parts.append(_quad_geo(b, quad_sel, perm_inv))
    if len(poly_sel):
        parts.append(_poly_geo(b, poly_sel, dets))
    if len(parts) == 1:
        return parts[0]
    q, p = parts
    gp, dp = np.isin(b.g_owner, poly_sel), np.isin(b.d_owner, poly_sel)
    q.g_geoms[gp], q.d_geoms[dp], q.d_area[dp] = p.g_geoms[gp], p.d_geoms[dp], p.d_area[dp]
    pi, pj = np.concatenate([q.pi, p.pi]), np.concatenate([q.pj, p.pj])
    order = np.lexsort((pj, pi))
    return _Geo(
        q.g_geoms,
        q.d_geoms,
        q.d_area,
        pi[order],
        pj[order],
        np.concatenate([q.inter, p.inter])[order],
    )


# --------------------------------------------------------------------------- inclusion


def _inclusion(b: Batch, geo: _Geo, quads: FloatArray) -> tuple[IntArray, IntArray]:
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
    dbox[~d_poly] = np.concatenate([quads.min(axis=1), quads.max(axis=1)], axis=1)
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


def _pairs(b: Batch, geo: _Geo, hp: IntArray, hd: IntArray, legacy: bool, c: float) -> None:
    """Union of box-candidate and PCC-sharing pairs, with area precision and PCC counts."""
    n_d = max(len(b.d_owner), 1)
    k_geo = geo.pi * n_d + geo.pj
    k_hit = b.p_owner[hp] * n_d + hd
    keys = np.union1d(k_geo, k_hit)
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


def _recut(b: Batch, geo: _Geo) -> None:
    """Cut care areas out of dc GT polygons and recompute their intersections (5.3 step 1)."""
    g_poly = b.poly[b.g_owner]
    cut, changed = cut_dont_care(geo.g_geoms, b.g_dc, b.g_owner, g_poly)
    if len(changed) == 0:
        return
    sel = np.flatnonzero(np.isin(geo.pi, changed) & (geo.inter > 0))
    if len(sel):
        geo.inter = geo.inter.copy()
        geo.inter[sel] = shapely.area(
            shapely.intersection(cut[geo.pi[sel]], geo.d_geoms[geo.pj[sel]])
        )


def prepare(samples: Sequence[Sample], rules: Rules) -> Batch:
    """Texts, PCCs, inclusion, area precision and PCC counts of a block of samples."""
    poly = np.fromiter(
        (is_poly(s, rules.box_type) for s in samples), dtype=bool, count=len(samples)
    )
    gts = [g for s in samples for g in s.gt]
    orders = [confidence_order(s.det, rules.confidences) for s in samples]
    dets = [s.det[j] for s, o in zip(samples, orders, strict=True) for j in o]
    g_counts = np.fromiter((len(s.gt) for s in samples), dtype=np.intp, count=len(samples))
    d_counts = np.fromiter((len(s.det) for s in samples), dtype=np.intp, count=len(samples))
    g_owner, d_owner = owners(g_counts), owners(d_counts)
    g_poly, d_poly = poly[g_owner], poly[d_owner]
    g_dc = np.fromiter((g.dont_care for g in gts), dtype=bool, count=len(gts))
    g_ratio = _ratios(gts, g_poly, rules.legacy)
    g_text = _texts(gts, g_ratio, g_dc, rules.case_sensitive)
    g_len = np.fromiter((len(t) for t in g_text), dtype=np.intp, count=len(gts))
    t = rules.vertical_thresh
    vertical = ~g_poly & ((g_ratio >= t) if rules.legacy else (g_ratio < t))
    pcc, p_owner = _gt_pcc(gts, g_poly, g_len, vertical)
    d_ratio = _ratios(dets, d_poly, rules.legacy)
    if rules.fp_paper:
        d_fp = fp_paper([poly_points(d.points)[1] for d in dets], d_poly)
    else:
        d_fp = fp_estimate(d_ratio)
    d_text: list[str] = []
    if rules.e2e:
        d_dc = np.fromiter((d.text == "###" for d in dets), dtype=bool, count=len(dets))
        d_text = _texts(dets, d_ratio, d_dc, rules.case_sensitive)
    none = np.zeros(0, np.intp)
    b = Batch(
        samples,
        poly,
        offsets(g_counts),
        offsets(d_counts),
        g_owner,
        d_owner,
        np.fromiter((j for o in orders for j in o), dtype=np.intp, count=len(dets)),
        g_dc,
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
    geo = _geometry(b, dets)
    quads = np.trunc(_stack(dets, np.flatnonzero(~d_poly)))
    hp, hd = _inclusion(b, geo, quads)
    _recut(b, geo)
    _pairs(b, geo, hp, hd, rules.legacy, rules.c)
    b.pcc.setflags(write=False)  # result evidence holds views of it
    return b
