"""Conformance of the datasets' and toolkits' protocols: beyond the global and per-image
scores (``test_conformance``), every per-instance record the references store: Total-Text
DetEval pairs with their sigma / tau tables and VOC false positives, MMOCR's score sweep
(best threshold, every threshold's counts, per-image sweep counts, ignored / below-threshold /
removed lists, pairs), HierText's pairs, pair IoUs, tightness and PQ, CTW1500's and
PaddleOCR's pairs, skipped, invalid and don't-care lists and AP.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from metrics.core.model import Dataset
from metrics.core.results import MatchRecord, SampleResult, Verdict
from metrics.io.writers import evaluation_dict
from metrics.mmocr.evidence import SweepEvidence
from metrics.mmocr.geometry import block_areas
from metrics.shapes.matching import maximum_matching
from metrics.totaltext.evidence import TotalTextVocEvidence
from tests.metrics.conformance import KEYS, TOL, evaluated, references

pytestmark = pytest.mark.conformance

# --------------------------------------------------------------------------- Total-Text

TT_COUNTS = ("num_gt", "num_gt_care", "num_det", "num_det_care")


def _table(m: MatchRecord, key: str) -> list[list[float]]:
    return [[m.values[f"{key}[{g},{d}]"] for d in m.det] for g in m.gt]


def _tt_deteval(want: dict[str, Any], r: SampleResult) -> None:
    """Official pairs with their rounded sigma / tau tables, and the per-image sums."""
    got = [
        (m.label, list(m.gt), list(m.det), _table(m, "sigma"), _table(m, "tau")) for m in r.matches
    ]
    assert got == [(p["type"], p["gt"], p["det"], p["sigma"], p["tau"]) for p in want["pairs"]]
    sums = (r.extra["acc_recall"], r.extra["acc_precision"])
    assert sums == pytest.approx((want["acc_recall"], want["acc_precision"]), abs=TOL)


def _tt_voc(want: dict[str, Any], r: SampleResult) -> None:
    """TP pairs with their IoU, every false positive with its reason, best GT and IoU."""
    assert [[m.gt[0], m.det[0]] for m in r.matches] == want["pairs"]
    assert [m.values["iou"] for m in r.matches] == pytest.approx(want["pair_iou"], abs=TOL)
    assert isinstance(r.evidence, TotalTextVocEvidence)
    fps = r.evidence.false_positives
    assert [(f.det, f.reason, f.best_gt) for f in fps] == [
        (f["det"], f["reason"], f["best_gt"]) for f in want["fp_dets"]
    ]
    assert [f.best_iou for f in fps] == pytest.approx([f["best_iou"] for f in want["fp_dets"]])
    assert (r.extra["tp"], r.extra["fp"]) == (want["tp"], want["fp"])


TOTALTEXT: dict[str, Callable[[dict[str, Any], SampleResult], None]] = {
    "totaltext_deteval": _tt_deteval,
    "totaltext_voc": _tt_voc,
}


@pytest.mark.parametrize("name", references(*TOTALTEXT))
def test_totaltext_records(name: str) -> None:
    """Per image: don't-care lists, counts and the metric's records; globally the counts."""
    ref, _, ev = evaluated(name)
    for sid, want in ref["per_image"].items():
        r = ev.results[sid]
        dc = [[i.index for i in side if i.verdict is Verdict.DONT_CARE] for side in (r.gt, r.det)]
        assert dc == [want["gt_dont_care"], want["det_dont_care"]], sid
        assert [r.extra[k] for k in TT_COUNTS] == [want[k] for k in TT_COUNTS], sid
        TOTALTEXT[ev.metric](want, r)
    assert ev.summary is not None
    g, total = ref["global"], ev.summary.tally
    assert (total["n_gt_care"], total["n_det_care"]) == (g["num_gt_care"], g["num_det_care"])
    assert {k: ev.extras[k] for k in ("tp", "fp") if k in g} == {
        k: g[k] for k in ("tp", "fp") if k in g
    }


# --------------------------------------------------------------------------- MMOCR sweep

MMOCR = ("mmocr_hmean_iou", "mmocr_hmean_iou_maxmatch")
SWEEP_KEYS = {k: k for k in ("threshold", *KEYS, "hits")} | {"gt_care": "gt", "pred_kept": "kept"}


def _mmocr_lists(r: SampleResult) -> dict[str, list[int]]:
    """The reference's per-image lists, from our result and its ``SweepEvidence``."""
    ev = r.evidence
    assert isinstance(ev, SweepEvidence)
    removed = list(ev.gt_removed)
    return {
        "gt_ignored": [
            g.index for g in r.gt if g.verdict is Verdict.DONT_CARE and g.index not in removed
        ],
        "gt_removed_lt3pts": removed,
        "det_below_min_threshold": list(ev.below_min_threshold),
        "det_ignored_overlap": sorted(a.det for a in ev.ignored_overlap),
    }


def _unique_maximum_matching(ds: Dataset, r: SampleResult, iou_thr: float) -> bool:
    """Whether the maximum matching at the shown threshold is unique: no matched edge can
    be removed without the maximum size dropping."""
    ev = r.evidence
    assert isinstance(ev, SweepEvidence)
    sample = ds[r.sample_id]
    iou = block_areas([sample])[0].iou
    rows = [g.index for g in r.gt if g.verdict is not Verdict.DONT_CARE]
    cols = [j for j, lv in enumerate(ev.levels) if lv > ev.shown]
    cand = iou[np.ix_(rows, cols)] > iou_thr
    size = len(maximum_matching(cand))
    for i, j in maximum_matching(cand):
        cut = cand.copy()
        cut[i, j] = False
        if len(maximum_matching(cut)) == size:
            return False
    return True


@pytest.mark.parametrize("name", references(*MMOCR))
def test_mmocr_sweep_and_lists(name: str) -> None:
    """best_threshold, every sweep entry, per image sweep_counts and the official lists;
    pairs everywhere for vanilla, for max_matching where the maximum matching is unique
    (elsewhere scipy's choice among equals is its own)."""
    ref, ds, ev = evaluated(name)
    out = evaluation_dict(ev)
    glob, want = out["global"], ref["global"]
    assert glob["best_threshold"] == want["best_threshold"]
    assert glob["thresholds"] == want["thresholds"]
    assert glob["gt_removed_lt3pts"] == want["gt_removed_lt3pts"]
    for got, exp in zip(glob["sweep"], want["sweep"], strict=True):
        for theirs, ours in SWEEP_KEYS.items():
            assert got[ours] == pytest.approx(exp[theirs], abs=TOL), (got, exp)
    for sid, exp in ref["per_image"].items():
        r = ev.results[sid]
        assert out["per_image"][sid]["sweep_counts"] == exp["sweep_counts"], sid
        lists = _mmocr_lists(r)
        assert lists == {k: exp[k] for k in lists}, sid
        pairs = sorted([m.gt[0], m.det[0]] for m in r.matches)
        if pairs != sorted(exp["pairs"]):
            assert ev.metric == "mmocr_hmean_iou_maxmatch", sid
            assert len(pairs) == len(exp["pairs"]), sid
            assert not _unique_maximum_matching(ds, r, ev.params.match_iou_thr), sid


# --------------------------------------------------------------------------- HierText

HIERTEXT = ("hiertext_word", "hiertext_line", "hiertext_paragraph")
HIERTEXT_COUNTS = ("tp", "num_gt", "num_pred", "tightness_sum", "tightness", "pq")


@pytest.mark.parametrize("name", references(*HIERTEXT))
def test_hiertext_instances(name: str) -> None:
    """Per image: the mutual-best pairs and their IoU, the counts, tightness and PQ, the
    illegible GT and the removed detections (document-order indices); globally the counts,
    tightness and PQ."""
    ref, _, ev = evaluated(name)
    out = evaluation_dict(ev)["per_image"]
    for sid, want in ref["per_image"].items():
        got, r = out[sid], ev.results[sid]
        assert [[m.gt[0], m.det[0]] for m in r.matches] == want["pairs"], sid
        assert [m.values["iou"] for m in r.matches] == pytest.approx(want["pair_iou"], abs=TOL)
        counts = {k: got[k] for k in HIERTEXT_COUNTS}
        assert counts == pytest.approx({k: want[k] for k in HIERTEXT_COUNTS}, abs=TOL), sid
        assert (got["gt_dont_care"], got["det_dont_care"]) == (
            want["gt_dont_care"],
            want["det_dont_care"],
        ), sid
    assert ev.summary is not None
    g, total = ref["global"], ev.summary.tally
    assert (total["tp"], total["n_gt_care"], total["n_det_care"]) == (
        g["tp"],
        g["num_gt"],
        g["num_pred"],
    )
    assert total["tightness_sum"] == pytest.approx(g["tightness_sum"], abs=TOL)
    assert (ev.extras["tightness"], ev.extras["pq"]) == pytest.approx(
        (g["tightness"], g["pq"]), abs=TOL
    )


# --------------------------------------------------------------------------- CTW1500, PaddleOCR


def _indices(items: list[Any], key: str) -> list[int]:
    """Index lists of the references: plain ints, or dicts holding the index under ``key``."""
    return [i if isinstance(i, int) else int(i[key]) for i in items]


def _ctw_image(want: dict[str, Any], r: Any) -> list[tuple[str, Any, Any]]:
    """(field, engine, reference) of one image of ``ctw1500_eval``."""
    # the official "ap" runs over the detections in file order: the engine's ``ap_file_order``
    ev, ap = r.evidence, r.extra["ap_file_order"]
    near = functools.partial(pytest.approx, abs=TOL)
    fps = [(f.det, f.reason, f.best_gt, near(f.best_iou)) for f in ev.false_positives]
    want_fps = [(f["det"], f["reason"], f["best_gt"], f["best_iou"]) for f in want["fp_dets"]]
    return [
        ("pairs", [[m.gt[0], m.det[0]] for m in r.matches], want["pairs"]),
        ("pair_iou", [near(m.values["iou"]) for m in r.matches], want["pair_iou"]),
        ("fp_dets", fps, want_fps),
        ("skipped_dets", [s.index for s in ev.skipped_dets], _indices(want["skipped_dets"], "det")),
        ("invalid_gt", [s.index for s in ev.invalid_gt], _indices(want["invalid_gt"], "gt")),
        ("ap", None if ap != ap else near(ap), want["ap"]),
        *[(k, r.extra[k], want[k]) for k in ("tp", "fp", "num_det", "num_det_counted")],
    ]


def _paddle_image(want: dict[str, Any], r: Any) -> list[tuple[str, Any, Any]]:
    """(field, engine, reference) of one image of ``paddleocr_det_iou``."""
    gt_skip = [s.index for s in r.evidence.gt_invalid_skipped]
    det_skip = [s.index for s in r.evidence.det_invalid_skipped]
    dc_gt = [g.index for g in r.gt if g.verdict is Verdict.DONT_CARE and g.index not in gt_skip]
    dc_det = [d.index for d in r.det if d.verdict is Verdict.DONT_CARE and d.index not in det_skip]
    return [
        ("pairs", sorted([m.gt[0], m.det[0]] for m in r.matches), sorted(want["pairs"])),
        ("gt_dont_care", dc_gt, want["gt_dont_care"]),
        ("det_dont_care", dc_det, want["det_dont_care"]),
        ("gt_invalid_skipped", gt_skip, _indices(want["gt_invalid_skipped"], "gt")),
        ("det_invalid_skipped", det_skip, _indices(want["det_invalid_skipped"], "det")),
        *[(k, r.extra[k], want[k]) for k in ("gt_care", "det_care", "matched")],
    ]


TOOLKIT_RECORDS = {
    "ctw1500_eval": (_ctw_image, ("ap", "tp", "fp", "skipped_dets", "num_det")),
    "paddleocr_det_iou": (
        _paddle_image,
        ("matched", "gt_care", "det_care", "images", "gt_invalid_skipped", "det_invalid_skipped"),
    ),
}


@pytest.mark.parametrize("name", references(*TOOLKIT_RECORDS))
def test_ctw1500_and_paddleocr_records(name: str) -> None:
    """Per image every stored record (pairs, IoUs, FP reasons, skipped / invalid / don't-care
    lists, AP, counts); globally the counters, and PaddleOCR's images without GT (dropped,
    each named by a warning)."""
    ref, _, ev = evaluated(name)
    image, counters = TOOLKIT_RECORDS[ev.metric]
    bad = [
        (sid, field, got, want)
        for sid, expected in ref["per_image"].items()
        for field, got, want in image(expected, ev.results[sid])
        if got != want
    ]
    assert not bad, f"{len(bad)} records differ, first: {bad[:3]}"
    assert ev.summary is not None
    glob = {**ev.extras, "num_gt_care": ev.summary.tally["n_gt_care"]}
    if "ap_file_order" in glob:  # the official "ap" of CTW1500 (file order, C5)
        glob["ap"] = glob.pop("ap_file_order")
    for key in (*counters, "num_gt_care"):
        if key in ref["global"]:
            assert glob[key] == pytest.approx(ref["global"][key], abs=TOL), key
    if "skipped_no_gt" in ref["global"]:
        dropped = {p.sample_id for p in ev.problems if "no GT line" in p.message}
        assert dropped == set(ref["global"]["skipped_no_gt"])
