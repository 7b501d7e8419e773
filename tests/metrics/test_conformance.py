"""Conformance of the seed metrics: every official reference result of the IoU family,
DetEval, TedEval and CLEval in the shared ``reference/`` folder is reproduced by the engine
(discovery and evaluation: ``tests.metrics.conformance``; each reference once per session).

What is compared: global and every per-image recall / precision / hmean within 1e-6 for every
registered metric (per-image SIoU entries flagged ``stale``, spec 3.8 Q4, are skipped); the
official match records (IoU pairs, DetEval and TedEval pairs, TedEval character scores,
don't-care detections); the global counters (care counts, CLEval CoreStats); the DetEval
legacy variant's numbers of spec 2.7; and the CLI's JSON.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from metrics.catalogue.registry import resolve
from metrics.cli.main import main
from metrics.core.results import Evaluation, Verdict
from metrics.io.writers import evaluation_dict
from tests.metrics.conformance import KEYS, TOL, evaluated, references
from tests.support import shared_input

pytestmark = pytest.mark.conformance

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
