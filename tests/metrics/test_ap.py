"""AP only where it is one (issue 26, point 4): only metrics whose official script computes a
meaningful AP from confidences report one; CTW1500's file-order AP is named as such; TedEval's
always-zero AP is withheld and ``--json`` says why; the confidence warning names exactly the
metrics that rank detections or report an AP, from their own declarations."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from metrics.catalogue.registry import METRICS, make_params
from metrics.cli.main import main
from metrics.io.reader import load_dataset
from metrics.run.runner import run
from tests.support import write_dir

# Two images; in file order the detections of img_1 are FP, TP, TP (CTW1500's VOC AP 2/3);
# by confidence TP, TP, FP (AP 1). img_2 has one TP.
GT = {
    "gt_img_1.txt": "0,0,100,0,100,20,0,20,ABCDE\n0,50,100,50,100,70,0,70,FGHIJ\n",
    "gt_img_2.txt": "0,0,100,0,100,20,0,20,KLMNO\n",
}
DET = {
    "res_img_1.txt": "300,0,400,0,400,20,300,20,0.1\n0,0,100,0,100,20,0,20,0.9\n"
    "0,50,100,50,100,70,0,70,0.8\n",
    "res_img_2.txt": "0,0,100,0,100,20,0,20,0.7\n",
}
NAMED = "ic15_iou,siou,tiou,tedeval,mmocr,ctw1500_eval,cleval_det,paddleocr_det_iou"


@pytest.fixture
def inputs(tmp_path: Path) -> tuple[Path, Path]:
    return write_dir(tmp_path / "gt", GT), write_dir(tmp_path / "det", DET)


def _ap_keys(extras: object) -> set[str]:
    return {k for k in extras if k.startswith("ap")}  # type: ignore[attr-defined]


def test_declarations_follow_the_parameters() -> None:
    """Every metric with a ``confidences`` parameter declares that it ranks under it; a
    declared switch is a parameter; the AP declarations are the official scripts' ones."""
    aps, withheld = {}, set()
    for mid in METRICS:
        spec = METRICS[mid]
        fields = {f.name for f in dataclasses.fields(spec.params_type)}
        use = spec.confidences
        if "confidences" in fields:
            assert use is not None and use.switch == "confidences", mid
        if use is None:
            continue
        assert use.switch in fields, mid
        if use.ap:
            aps[mid] = use.ap
        if use.no_ap:
            withheld.add(mid)
    assert aps == {"ic15_iou": "ranked", "ctw1500_eval": "any_order"}
    assert withheld == {"tedeval"}


@pytest.mark.parametrize("confidences", [None, "false"])
def test_only_the_declared_metrics_report_an_ap(
    inputs: tuple[Path, Path], confidences: str | None
) -> None:
    """Run every metric that reads these files: an ``ap…`` extra (global or per image) comes
    only from ic15_iou (when it ranks) and ctw1500_eval (named ``ap_file_order`` in file
    order); TedEval's always-zero AP is gone."""
    ds = load_dataset(*inputs)
    assert ds.facts.has_confidences
    found: dict[str, set[str]] = {}
    for mid in METRICS:
        spec = METRICS[mid]
        if spec.needs_gt_lines or mid.startswith("hiertext") or mid.endswith("e2e"):
            continue
        use = spec.confidences
        over = (
            {use.switch: confidences} if confidences and use and use.switch == "confidences" else {}
        )
        (ev,) = run(ds, [spec], {mid: over} if over else None, policy="skip_sample")
        keys = _ap_keys(ev.extras) | {k for r in ev.results.values() for k in _ap_keys(r.extra)}
        if keys:
            found[mid] = keys
    if confidences is None:
        assert found == {"ic15_iou": {"ap"}, "ctw1500_eval": {"ap_file_order"}}
    else:  # CONFIDENCES=False: the RRC script computes no AP
        assert found == {"ctw1500_eval": {"ap_file_order"}}


def test_ctw1500_names_its_ap_by_the_order_it_runs_over(inputs: tuple[Path, Path]) -> None:
    """The official AP (file order) is ``ap_file_order``; ranked by confidence it is ``ap``,
    also for an image without detections (one key per run)."""
    files = {**DET, "res_img_2.txt": ""}
    ds = load_dataset(inputs[0], write_dir(inputs[1].parent / "det2", files))
    spec = METRICS["ctw1500_eval"]
    (plain,) = run(ds, [spec], policy="skip_sample")
    assert plain.extras["ap_file_order"] == pytest.approx(2 / 3 * 2 / 3 + 1 / 3 * 0)
    assert {k for r in plain.results.values() for k in _ap_keys(r.extra)} == {"ap_file_order"}
    (ranked,) = run(ds, [spec], {spec.id: {"sort_by_confidence": "true"}}, policy="skip_sample")
    assert (
        "ap_file_order" not in ranked.extras and ranked.extras["ap"] > plain.extras["ap_file_order"]
    )
    assert {k for r in ranked.results.values() for k in _ap_keys(r.extra)} == {"ap"}


def _eval(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    capsys.readouterr()
    assert main(["eval", *argv]) == 0
    return capsys.readouterr().out


def _warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    said = [r.getMessage() for r in caplog.records if "carry confidences" in r.getMessage()]
    caplog.clear()
    return said


def _row(out: str, mid: str) -> str:
    (row,) = [s for s in out.splitlines() if s.split()[:1] == [mid]]
    return row


@pytest.mark.parametrize("workers", ["1", "2"])
def test_the_confidence_warning_names_exactly_who_ranks_and_who_reports_ap(
    inputs: tuple[Path, Path],
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
    workers: str,
) -> None:
    argv = [
        "--gt",
        str(inputs[0]),
        "--det",
        str(inputs[1]),
        "--metric",
        NAMED,
        "--workers",
        workers,
    ]
    _eval(capsys, *argv)
    (said,) = _warnings(caplog)
    ranked, rest = said.split(" rank them by confidence before matching", 1)
    assert ranked == "detections carry confidences: ic15_iou, siou, tiou, tedeval, cleval_det"
    assert rest.startswith(" (the official scripts' CONFIDENCES=True; --set confidences=false")
    assert "; ic15_iou reports AP over that ranking;" in rest
    assert "; ctw1500_eval reports AP over the detections in file order, as its official " in rest
    assert "(ap_file_order; --set ctw1500_eval.sort_by_confidence=true ranks by confidence)" in rest
    assert "; tedeval: TedEval's official code never records a matched detection" in rest
    for mid in ("mmocr_hmean_iou", "paddleocr_det_iou", "siou", "tiou", "cleval_det"):
        assert f"{mid} report" not in said  # none of them reports an AP
    # nobody ranks but ctw1500_eval, which then reports its AP over that ranking
    _eval(capsys, *argv, "--set", "confidences=false", "--set", "sort_by_confidence=1")
    assert _warnings(caplog) == [
        "detections carry confidences: ctw1500_eval ranks them by confidence before matching "
        "(--set ctw1500_eval.sort_by_confidence=false keeps file order); "
        "ctw1500_eval reports AP over that ranking"
    ]


def test_nothing_said_without_confidences(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    """No confidence: no warning; CTW1500's AP is still the official one, named for its
    order, with no switch that could not rank anything."""
    gt = write_dir(tmp_path / "gt", GT)
    det = write_dir(tmp_path / "det", {k: "0,0,100,0,100,20,0,20\n" for k in DET})
    metrics = "ic15_iou,tedeval,ctw1500_eval"
    out = _eval(capsys, "--gt", str(gt), "--det", str(det), "--metric", metrics)
    assert _warnings(caplog) == []
    assert _row(out, "ctw1500_eval").split("  ")[-1].startswith("ap_file_order 0.6667, tp 2")
    assert _row(out, "ic15_iou").endswith(" 0.8000  ")  # no AP without confidences


def test_notes_column_names_the_file_order_ap_and_prints_no_tedeval_ap(
    inputs: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--gt", str(inputs[0]), "--det", str(inputs[1]), "--metric"]
    out = _eval(capsys, *argv, NAMED)
    notes = _row(out, "ctw1500_eval").split("  ")[-1]
    hint = "(--set ctw1500_eval.sort_by_confidence=true ranks by confidence)"
    assert notes.startswith(f"ap_file_order 0.7500 {hint}, tp 3, fp 1")
    assert _row(out, "tedeval").endswith(" 0.8571  ")  # no "ap 0"
    assert _row(out, "ic15_iou").endswith("  ap 1.0000")  # a score: 4 decimals
    for mid in ("siou", "tiou", "cleval_det", "mmocr_hmean_iou", "paddleocr_det_iou"):
        assert "ap" not in _row(out, mid).split()
    out = _eval(capsys, *argv, "ctw1500_eval", "--set", "sort_by_confidence=1")
    assert _row(out, "ctw1500_eval").split("  ")[-1].startswith("ap 1.0000, tp 3, fp 1")


def test_json_says_why_tedeval_reports_no_ap(
    inputs: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gt, det = map(str, inputs)
    argv = ["--gt", gt, "--det", det, "--metric", "tedeval,ic15_iou", "--json"]
    _eval(capsys, *argv, str(tmp_path / "o.json"))
    ted, ic15 = json.loads((tmp_path / "o.json").read_text())
    assert "ap" not in ted["global"]
    assert all("ap" not in img for img in ted["per_image"].values())
    why = ted["global"]["not_reported"]["ap"]
    assert "never records a matched detection" in why and "always 0" in why
    assert ic15["global"]["ap"] == 1.0 and "not_reported" not in ic15["global"]
    _eval(capsys, *argv, str(tmp_path / "o2.json"), "--set", "confidences=false")
    ted, ic15 = json.loads((tmp_path / "o2.json").read_text())
    assert "not_reported" not in ted["global"]  # nothing ranked: no AP to withhold
    assert "ap" not in ic15["global"]


def test_ic15_iou_computes_no_ap_in_file_order() -> None:
    """CONFIDENCES=False in the RRC script: detections unranked and no AP (spec 1.1, 1.3)."""
    from metrics.icdar.iou import evaluate_sample
    from tests.support import gts, quad, sample

    s = sample(
        gts(("0,0,100,0,100,20,0,20", "ABCDE")),
        [quad("0,0,60,0,60,20,0,20", conf=0.9), quad("300,0,400,0,400,20,300,20", conf=0.95)],
    )
    spec = METRICS["ic15_iou"]
    assert evaluate_sample(s, make_params(spec)).extra["ap"] == pytest.approx(0.5)
    assert "ap" not in evaluate_sample(s, make_params(spec, {"confidences": "false"})).extra
