"""Conformance: every official reference result in the shared ``reference/`` folder, indexed
by metric x dataset, is reproduced by the engine.

A reference file ``<dataset>__<detset>__<metric>.json`` takes part when its metric is
registered (by id or alias, e.g. ``cleval_det_polyfix`` is ``cleval_det`` on polygons); the
test ids read ``<metric>-<dataset>-<detset>`` (``tiou-ic15-pixellink``). Only the reference's
``inputs`` are given (plus the text-line GT for the word + text-line metrics); box type and id
pairing are detected as ``detlens eval`` does. Each reference is evaluated once per session.

What is compared: global and every per-image recall / precision / hmean within 1e-6 (per-image
SIoU entries flagged ``stale``, spec 3.8 Q4, are skipped); the official match records (IoU
pairs, DetEval and TedEval pairs, TedEval character scores, don't-care detections); the global
counters (care counts, CLEval CoreStats); the DetEval legacy variant's numbers of spec 2.7;
and for MMOCR the score sweep (best threshold, every threshold's counts and scores, per-image
sweep counts, ignored / below-threshold / removed lists and pairs).
The shared folder is ``$DETLENS_SHARED`` or ``../shared``; without it every test skips saying
where it looked.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from metrics.cli.main import main
from metrics.evidence import SweepEvidence, TotalTextVocEvidence
from metrics.io.reader import load_dataset
from metrics.io.writers import evaluation_dict
from metrics.matching import maximum_matching
from metrics.mmocr.geometry import block_areas
from metrics.model import Dataset
from metrics.registry import resolve
from metrics.results import Evaluation, MatchRecord, SampleResult, Verdict
from metrics.runner import run
from tests.support import shared_input, shared_or_skip, shared_path

pytestmark = pytest.mark.conformance

TOL = 1e-6
KEYS = ("recall", "precision", "hmean")


def _discover() -> list[tuple[str, str]]:
    """(file name, metric id) of every reference whose metric is registered."""
    folder = shared_path("reference")
    if not folder.is_dir():
        return []
    found = []
    for f in sorted(folder.glob("*.json")):
        if f.name.endswith(".FAILED.json"):
            continue
        metric = json.loads(f.read_text())["metric"]
        try:
            found.append((f.name, resolve(metric).id))
        except KeyError:
            continue  # a protocol the engine does not implement (yet)
    return found


REFERENCES = _discover()


def _test_id(name: str) -> str:
    dataset, detset, metric = name.removesuffix(".json").split("__")
    return f"{metric}-{dataset}-{detset}"


def references(*metrics: str, only: tuple[str, ...] = ()) -> list[Any]:
    """Parameters: reference file names (all, or those of the given metric ids / names)."""
    chosen = [
        n
        for n, mid in REFERENCES
        if (not metrics or mid in metrics) and (not only or _test_id(n) in only)
    ]
    if not chosen:  # no shared data: one test that skips with the reason
        return [pytest.param("<missing>", id="shared-missing")]
    return [pytest.param(n, id=_test_id(n)) for n in chosen]


@functools.cache
def _reference(name: str, root: str) -> dict[str, Any]:
    del root  # part of the cache key: another DETLENS_SHARED is another reference
    data: dict[str, Any] = json.loads(shared_or_skip("reference", name).read_text())
    return data


def reference(name: str) -> dict[str, Any]:
    shared_or_skip("reference", name)
    return _reference(name, str(shared_path()))


def _dataset(ref: dict[str, Any]) -> Dataset:
    inputs = ref["inputs"]
    lines = inputs.get("gt_textline")
    return load_dataset(
        shared_input(inputs["gt"]),
        shared_input(inputs["det"]),
        gt_lines=None if lines is None else shared_input(lines),
    )


@functools.cache
def _evaluated(
    name: str, root: str, overrides: tuple[tuple[str, Any], ...] = ()
) -> tuple[Dataset, Evaluation]:
    ref = _reference(name, root)
    spec = resolve(ref["metric"])
    ds = _dataset(ref)
    ev = run(ds, [spec], {spec.id: dict(overrides)})[0]
    return ds, ev


def evaluated(name: str, **overrides: Any) -> tuple[dict[str, Any], Dataset, Evaluation]:
    """The reference, its dataset and the engine's evaluation (computed once per session)."""
    ref = reference(name)
    ds, ev = _evaluated(name, str(shared_path()), tuple(sorted(overrides.items())))
    return ref, ds, ev


# --------------------------------------------------------------------------- scores


@pytest.mark.parametrize("name", references())
def test_global_scores(name: str) -> None:
    ref, _, ev = evaluated(name)
    assert ev.metric == resolve(ref["metric"]).id
    assert not ev.excluded
    for key in KEYS:
        assert getattr(ev, key) == pytest.approx(ref["global"][key], abs=TOL), key


@pytest.mark.parametrize("name", references())
def test_per_image_scores(name: str) -> None:
    ref, _, ev = evaluated(name)
    assert set(ev.results) == set(ref["per_image"])
    bad = []
    for sid, want in ref["per_image"].items():
        if want.get("stale"):
            continue
        got = ev.results[sid]
        bad += [
            (sid, k, getattr(got, k), want[k]) for k in KEYS if abs(getattr(got, k) - want[k]) > TOL
        ]
    assert not bad, f"{len(bad)} per-image values differ, first: {bad[:3]}"


# --------------------------------------------------------------------------- match records


def _as_tuple(v: int | list[int]) -> tuple[int, ...]:
    return tuple(v) if isinstance(v, list) else (v,)


def _iou_pairs(ref: dict[str, Any], ev: Evaluation) -> None:
    """One-to-one pairs and don't-care lists, as ``detlens eval --json`` writes them."""
    out = evaluation_dict(ev)["per_image"]
    for sid, want in ref["per_image"].items():
        got = out[sid]
        pairs = sorted([p["gt"][0], p["det"][0]] for p in got["pairs"])
        assert pairs == sorted(want["pairs"]), sid
        assert got["gt_dont_care"] == sorted(want["gt_dont_care"]), sid
        assert got["det_dont_care"] == sorted(want["det_dont_care"]), sid


def _deteval_pairs(ref: dict[str, Any], ev: Evaluation) -> None:
    for sid, r in ev.results.items():
        expected = [
            (p["type"], _as_tuple(p["gt"]), _as_tuple(p["det"]))
            for p in ref["per_image"][sid]["pairs"]
        ]
        assert [(m.label, m.gt, m.det) for m in r.matches] == expected, sid


def _tedeval_records(ref: dict[str, Any], ev: Evaluation) -> None:
    """The official pairs (type, GT, dets), recallScore / precisionScore fractions and
    don't-care dets of every image."""
    for sid, r in ev.results.items():
        expected = ref["per_image"][sid]
        pairs = [(p["type"], tuple(p["gt"]), tuple(p["det"])) for p in expected["pairs"]]
        assert [(m.label, m.gt, m.det) for m in r.matches] == pairs, sid
        found = [[g.values["found"], g.values["length"]] if g.partners else None for g in r.gt]
        assert found == (expected["recall_scores"] or [None] * len(r.gt)), sid
        contained = [
            [d.values["contained"], d.values["total"]] if d.partners else None for d in r.det
        ]
        assert contained == (expected["precision_scores"] or [None] * len(r.det)), sid
        dc = [d.index for d in r.det if d.verdict is Verdict.DONT_CARE]
        assert dc == expected["det_dont_care"], sid


RECORDS: dict[str, Callable[[dict[str, Any], Evaluation], None]] = {
    "ic15_iou": _iou_pairs,
    "curved_iou": _iou_pairs,
    "deteval": _deteval_pairs,
    "tedeval": _tedeval_records,
}
IOU_PAIRS = ("ic15_iou-ic15-pixellink", "curved_iou-ctw1500-det")


@pytest.mark.parametrize(
    "name",
    references("deteval", "tedeval") + references("ic15_iou", "curved_iou", only=IOU_PAIRS),
)
def test_match_records(name: str) -> None:
    ref, _, ev = evaluated(name)
    RECORDS[ev.metric](ref, ev)


# --------------------------------------------------------------------------- counters

CLEVAL_V011 = {
    "num_char_gt": "chars_gt",
    "num_char_det": "chars_det",
    "num_char_tp_recall": "tp",
    "gran_score_recall": "gran_r",
    "gran_score_precision": "gran_p",
    "num_char_fp": "fp_chars",
    "num_splitted": "split",
    "num_merged": "merge",
    "num_char_overlapped": "overlap",
}
CLEVAL_LEGACY = {
    "num_merge": "merge",
    "num_split": "split",
    "num_false_pos": "fp_boxes",
    "char_miss": "miss",
    "char_overlap": "overlap",
    "char_false_pos": "fp_chars",
}


def _care_counts(ref: dict[str, Any], ev: Evaluation) -> None:
    """Care counts per image and in total (DetEval, TedEval)."""
    assert ev.summary is not None
    for sid, r in ev.results.items():
        expected = ref["per_image"][sid]
        if "num_gt_care" in expected:
            assert r.extra["num_gt_care"] == expected["num_gt_care"], sid
            assert r.extra["num_det_care"] == expected["num_det_care"], sid
    assert ev.summary.tally["n_gt_care"] == ref["global"]["num_gt_care"]
    assert ev.summary.tally["n_det_care"] == ref["global"]["num_det_care"]


def _cleval_counters(ref: dict[str, Any], ev: Evaluation) -> None:
    """Global attribute counters and, for E2E, RS and the detection-level scores."""
    assert ev.summary is not None
    g, total = ref["global"], ev.summary.tally
    if "metadata" in g:
        table = {k: v for k, v in CLEVAL_LEGACY.items() if k in g["metadata"]}
        assert {v: total[v] for v in table.values()} == {
            v: g["metadata"][k] for k, v in table.items()
        }
    else:
        assert {v: total[v] for v in CLEVAL_V011.values()} == {
            v: g[k] for k, v in CLEVAL_V011.items()
        }
    if "recognition_score" in g:
        assert ev.extras["recognition_score"] == pytest.approx(g["recognition_score"], abs=TOL)
    for key in KEYS if "det" in g else ():
        assert ev.extras[f"det_{key}"] == pytest.approx(g["det"][key], abs=TOL), key


CLEVAL = ("cleval_det", "cleval_e2e", "cleval_legacy_det", "cleval_legacy_e2e")


@pytest.mark.parametrize("name", references("deteval", "tedeval", *CLEVAL))
def test_global_counters(name: str) -> None:
    ref, _, ev = evaluated(name)
    (_cleval_counters if ev.metric in CLEVAL else _care_counts)(ref, ev)


@pytest.mark.parametrize("name", references("deteval", "tedeval"))
def test_inputs_are_clean(name: str) -> None:
    """The IC13 / IC15 inputs break none of DetEval's or TedEval's input rules."""
    _, ds, ev = evaluated(name)
    spec = resolve(ev.metric)
    assert not ds.errors
    assert spec.validate(ds.samples, ev.params) == []


# --------------------------------------------------------------------------- variants, CLI


@pytest.mark.parametrize(
    ("detset", "recall", "precision"),
    [
        ("original", 0.99890, 0.99963),
        ("crop80", 0.79452, 0.79452),
        ("merge_line", 0.81717, 0.99141),
    ],
)
def test_deteval_legacy_variant_global_numbers(
    detset: str, recall: float, precision: float
) -> None:
    """Spec 2.7 (5 decimals): the paper-era DetEval on the IC13 references' inputs."""
    _, _, ev = evaluated(f"ic13__{detset}__deteval.json", variant="legacy")
    assert (ev.recall, ev.precision) == pytest.approx((recall, precision), abs=5e-6)


@pytest.mark.parametrize(
    "name",
    references(
        "deteval",
        "wordline_tiou",
        "mmocr_hmean_iou",
        only=(
            "deteval-ic13-original",
            "wordline_tiou-ic15-pixellink",
            "mmocr_hmean_iou-ic15-scored_pixellink",
        ),
    ),
)
def test_cli_writes_the_reproduced_numbers(name: str, tmp_path: Path) -> None:
    """``detlens eval`` on the reference's inputs only writes the evaluation compared above."""
    ref, _, ev = evaluated(name)
    inputs, out = ref["inputs"], tmp_path / "out.json"
    argv = ["eval", "--gt", str(shared_input(inputs["gt"])), "--det"]
    argv += [str(shared_input(inputs["det"])), "--metric", ref["metric"]]
    argv += ["--json", str(out), "--quiet"]
    if "gt_textline" in inputs:
        argv += ["--gt-lines", str(shared_input(inputs["gt_textline"]))]
    assert main(argv) == 0
    written = json.loads(out.read_text())
    expected = evaluation_dict(ev)
    assert written["metric"] == expected["metric"]
    assert written["global"] == json.loads(json.dumps(expected["global"]))
    assert written["per_image"] == json.loads(json.dumps(expected["per_image"]))


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
    ev, ap, near = r.evidence, r.extra["ap"], functools.partial(pytest.approx, abs=TOL)
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
    for key in (*counters, "num_gt_care"):
        if key in ref["global"]:
            assert glob[key] == pytest.approx(ref["global"][key], abs=TOL), key
    if "skipped_no_gt" in ref["global"]:
        dropped = {p.sample_id for p in ev.problems if "no GT line" in p.message}
        assert dropped == set(ref["global"]["skipped_no_gt"])
