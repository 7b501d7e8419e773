"""Joint Word & Text-Line evaluation (``wordline_iou``, ``wordline_tiou``).

Paper: Liu et al., CVPR 2019 (TIoU), appendix "Word & Text-Line", Algorithm 1.
Official implementation matched: Yuliang-Liu/TIoU-metric ``Word_Text-Line/script.py``
@1da1363, spec 3.6-3.7. A detection may match a whole text line (IoU > 0.5 with the line GT);
the line's member words that the detection covers are then credited, and the remaining words
go through the usual word-level matching.
Reproduced departures from the paper (defaults): a line match counts once for Origin recall
(W1); dc words inside a matched line are credited so recall can exceed 1 (W2;
``exclude_dc_words=True`` stops that); membership uses >= 0.5 and coverage > 0.5 (W3;
``membership_op`` / ``coverage_op``); the precision outlier set skips the word whose index
equals the line index (W5; ``skip_word="none"`` skips no word); the second don't-care pass
marks at most one detection per entry (W6); a word can be credited twice (W7).
"""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Callable, Sequence

import numpy as np

from metrics.core.model import Problem, Sample, Severity
from metrics.core.records import dataclass, field
from metrics.core.results import (
    InstanceResult,
    MatchKind,
    MatchRecord,
    SampleResult,
    Verdict,
    credit_tally,
    per_image_rule,
)
from metrics.icdar.common import (
    Prepared,
    Shapes,
    icdar_problems_batch,
    match_values,
    outlier_area,
    pair_values,
    prepare,
    shapes,
)
from metrics.icdar.greedy import build_result, credits, tiou_options
from metrics.icdar.params import TiouOptions, WordlineParams
from metrics.shapes.geometry import intersection_areas
from metrics.shapes.matching import greedy_match, iou_matrix
from metrics.shapes.mode import Mode

OPS: dict[str, Callable[[float, float], bool]] = {">": operator.gt, ">=": operator.ge}


def validate(sample: Sample, params: WordlineParams) -> list[Problem]:
    return validate_batch([sample], params)


def validate_batch(samples: Sequence[Sample], params: WordlineParams) -> list[Problem]:
    """The ICDAR input rules (in one array pass) and the text-line GT, sample by sample."""
    found: dict[str, list[Problem]] = {}
    for p in icdar_problems_batch(
        samples, allow_float=params.allow_float, check_orientation=params.check_orientation
    ):
        found.setdefault(p.sample_id or "", []).append(p)
    out: list[Problem] = []
    for sample in samples:
        out.extend(found.pop(sample.id, ()))
        if sample.gt_lines is None:
            out.append(
                Problem(
                    Severity.ERROR,
                    sample.gt_source or "GT",
                    None,
                    "no text-line GT for this sample (give --gt-lines)",
                    sample.id,
                )
            )
    return out


@dataclass
class State:
    """Mutable bookkeeping of one sample's two-stage matching (local to one call)."""

    word_matched: set[int] = field(default_factory=set)
    dc_words: list[int] = field(default_factory=list)
    valid: int = 0
    matched_count: int = 0
    recall_credit: float = 0.0
    precision_credit: float = 0.0
    gt_credit: dict[int, float] = field(default_factory=dict)
    det_credit: dict[int, float] = field(default_factory=dict)
    gt_partner: dict[int, int] = field(default_factory=dict)
    det_partner: dict[int, int] = field(default_factory=dict)
    records: list[MatchRecord] = field(default_factory=list)


def line_measures(
    sample: Sample, p: Prepared
) -> tuple[Shapes, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The text lines and what the line stage compares: line x det intersections and IoU,
    word-in-line |W ∩ L| / |W| (word x line) and word coverage |W ∩ D| / |W| (word x det)."""
    lines = shapes(sample.gt_lines or ())
    l_inter = intersection_areas(lines.geoms, p.det.geoms)
    l_iou = iou_matrix(l_inter, lines.area, p.det.area)
    lw_inter = intersection_areas(lines.geoms, p.gt.geoms)
    with np.errstate(divide="ignore", invalid="ignore"):
        io_w = np.where(p.gt.area[:, None] > 0, lw_inter.T / p.gt.area[:, None], 0.0)
        io_d = np.where(p.gt.area[:, None] > 0, p.inter / p.gt.area[:, None], 0.0)
    return lines, l_inter, l_iou, io_w, io_d


def _line_stage(
    sample: Sample,
    p: Prepared,
    params: WordlineParams,
    st: State,
    det_dc: np.ndarray,
    opts: TiouOptions,
) -> set[int]:
    lines, l_inter, l_iou, io_w, io_d = line_measures(sample, p)
    member_op, cover_op = OPS[params.membership_op], OPS[params.coverage_op]
    pairs = greedy_match(l_iou, np.ones(len(lines.area), bool), ~det_dc, params.iou_threshold)
    matched_dets = set()
    for t, j in pairs:
        matched_dets.add(j)
        st.matched_count += 1
        skip = t if params.skip_word == "line_index" else None
        others = [k for k in np.flatnonzero(p.inter[:, j] != 0) if k != skip]
        ot, region = outlier_area(
            p.det.geoms[j], lines.geoms[t], [p.gt.geoms[k] for k in others], opts.ot_zero_eps
        )
        lv = pair_values(t, j, l_inter, lines, p.det, ot, opts)
        st.precision_credit += lv["tiou_precision"]
        members = [w for w in range(len(p.gt.area)) if member_op(io_w[w, t], params.membership)]
        covered = _credit_members(p, j, t, members, io_d, cover_op, params, st, opts)
        st.det_credit[p.order[j]] = lv["tiou_precision"]
        st.det_partner[p.order[j]] = covered[0] if covered else -1
        st.records.append(
            MatchRecord(
                kind=MatchKind.MERGE if len(covered) > 1 else MatchKind.ONE_TO_ONE,
                gt=tuple(covered),
                det=(p.order[j],),
                label="text_line",
                values={**lv, "text_line": float(t)},
                related={
                    "text_line": (t,),
                    "members": tuple(members),
                    "outlier_gts": tuple(int(k) for k in others),
                },
            )
        )
        del region
    return matched_dets


def _credit_members(
    p: Prepared,
    j: int,
    t: int,
    members: list[int],
    io_d: np.ndarray,
    cover_op: Callable[[float, float], bool],
    params: WordlineParams,
    st: State,
    opts: TiouOptions,
) -> list[int]:
    covered = []
    for w in members:
        if not cover_op(io_d[w, j], params.coverage):
            continue
        if params.exclude_dc_words and p.gt.dont_care[w]:
            continue
        st.word_matched.add(w)
        st.dc_words.append(w)
        st.valid += 1
        v = pair_values(w, j, p.inter, p.gt, p.det, 0.0, opts)
        g = float(p.gt.area[w])
        star = v["intersection"] * v["f_ct"] / g if g > 0 and 0 <= v["ct"] <= g else 0.0
        credit = star if len(members) >= 2 else v["tiou_recall"]
        st.recall_credit += credit
        st.gt_credit[w] = st.gt_credit.get(w, 0.0) + credit
        st.gt_partner[w] = p.order[j]
        covered.append(w)
    del t
    return covered


def _second_dc_pass(
    p: Prepared, st: State, det_dc: np.ndarray, matched: set[int], threshold: float
) -> np.ndarray:
    dc = det_dc.copy()
    with np.errstate(divide="ignore", invalid="ignore"):
        prec = np.where(p.det.area[None, :] > 0, p.inter / p.det.area[None, :], 0.0)
    for w in st.dc_words:
        for j in np.flatnonzero(prec[w] > threshold):
            if j not in matched and not dc[j]:
                dc[j] = True
                break
    return dc


def evaluate_one(
    sample: Sample, params: WordlineParams, metric: str, mode: Mode | None = None
) -> SampleResult:
    """One sample on its own (dense per-sample matrices): the reference of the batch."""
    mode = mode or Mode()
    p = prepare(
        sample,
        curved=False,
        dc_threshold=params.dc_area_precision,
        confidences=params.confidences,
        geometry=mode.cache,
    )
    opts = tiou_options(params, curved=False)
    if not (len(sample.gt) and len(sample.det)):
        return build_result(
            sample, p, [], [], metric=metric, score="iou" if metric == "wordline_iou" else "tiou"
        )
    st = State(dc_words=[int(k) for k in np.flatnonzero(p.gt.dont_care)])
    matched = _line_stage(sample, p, params, st, p.det_dc, opts)
    det_dc = _second_dc_pass(p, st, p.det_dc, matched, params.dc_area_precision)
    gt_ok = np.ones(len(p.gt.area), bool)
    gt_ok[list(set(st.dc_words) | st.word_matched)] = False
    det_ok = ~det_dc
    det_ok[list(matched)] = False
    pairs = greedy_match(p.iou, gt_ok, det_ok, params.iou_threshold)
    for (i, j), (values, rec) in zip(pairs, match_values(p, pairs, opts, True), strict=True):
        rc, pc = credits("tiou", values)
        st.matched_count += 1
        st.recall_credit += rc
        st.precision_credit += pc
        st.gt_credit[i], st.det_credit[p.order[j]] = rc, pc
        st.gt_partner[i], st.det_partner[p.order[j]] = p.order[j], i
        st.records.append(rec)
    return _result(sample, p, st, det_dc, metric, mode.instances)


def _result(
    sample: Sample, p: Prepared, st: State, det_dc: np.ndarray, metric: str, lists: bool
) -> SampleResult:
    inverse = np.argsort(np.asarray(p.order, dtype=np.intp))
    return result(sample, p.gt.dont_care, det_dc[inverse], st, metric, lists)


def result(
    sample: Sample,
    gt_dc: np.ndarray,
    dc_file: np.ndarray,
    st: State,
    metric: str,
    lists: bool,
    verdicts: bool = True,
) -> SampleResult:
    """The sample's result from its bookkeeping (``dc_file``: don't-care dets, file order);
    ``lists`` False: no GT results and no match records (``complete=False``); ``verdicts``
    False: no detection results either (``st`` may then hold no records)."""
    n_gt = len(gt_dc) - len(st.dc_words) + st.valid
    n_det = int(np.count_nonzero(~dc_file))
    if metric == "wordline_iou":
        rc = pc = float(st.matched_count)
        gt_credit, det_credit = origin_credits(st) if verdicts else ({}, {})
    else:
        rc, pc = st.recall_credit, st.precision_credit
        gt_credit, det_credit = st.gt_credit, st.det_credit
    recall, precision, h = per_image_rule(n_gt, n_det, rc, pc)
    gt = tuple(
        _instance(
            i,
            gt_dc[i] and i not in st.gt_partner,
            gt_credit,
            st.gt_partner,
            Verdict.MISSED,
        )
        for i in range(len(sample.gt))
        if lists
    )
    det = tuple(
        _instance(j, bool(dc_file[j]), det_credit, st.det_partner, Verdict.FALSE_POSITIVE)
        for j in range(len(sample.det))
        if verdicts
    )
    return SampleResult(
        metric=metric,
        sample_id=sample.id,
        recall=recall,
        precision=precision,
        hmean=h,
        tally=credit_tally(n_gt, n_det, rc, pc, n_matched=st.matched_count),
        gt=gt,
        det=det,
        matches=_records(st, metric) if lists else (),
        extra={"num_gt_care": n_gt, "num_det_care": n_det, "num_matched": st.matched_count},
        complete=lists,
    )


def _records(st: State, metric: str) -> tuple[MatchRecord, ...]:
    """The match records; ``wordline_iou``'s without TIoU's cut and outlier regions (its
    score takes no TIoU penalty: nothing to draw, as for ``ic15_iou``)."""
    if metric != "wordline_iou":
        return tuple(st.records)
    return tuple(dataclasses.replace(r, regions={}) if r.regions else r for r in st.records)


def origin_credits(st: State) -> tuple[dict[int, float], dict[int, float]]:
    """What each word and detection counts for in ``wordline_iou`` ("Origin": R and P count
    matches): every matched detection 1; a word matched in the word stage 1; the words a
    text-line match covers share its one match (W1: 1/n each for n words, so they show as
    credited in part). The TIoU credits of ``st`` are ``wordline_tiou``'s."""
    gt: dict[int, float] = {}
    det: dict[int, float] = {}
    for rec in st.records:
        for w in rec.gt:
            gt[w] = gt.get(w, 0.0) + 1.0 / len(rec.gt)
        for j in rec.det:
            det[j] = 1.0
    return gt, det


def _instance(
    k: int, dc: bool, credit: dict[int, float], partner: dict[int, int], miss: Verdict
) -> InstanceResult:
    if k in partner:
        c = credit.get(k, 0.0)
        v = Verdict.MATCHED if c >= 1 - 1e-12 else Verdict.PARTIAL
        return InstanceResult(k, v, c, partners=(partner[k],) if partner[k] >= 0 else ())
    if dc:
        return InstanceResult(k, Verdict.DONT_CARE)
    return InstanceResult(k, miss)


def evaluate_sample(sample: Sample, params: WordlineParams) -> SampleResult:
    """Word & Text-Line TIoU of one sample."""
    return evaluate_one(sample, params, "wordline_tiou")
