"""Issue 12: degenerate geometry never ends in a traceback.

The minimal cases a robustness review found (each crashed GEOS inside a metric) now give
numbers, as the official GPC code does; whatever still fails inside a metric is a located
error under the strict / skip_sample policy, and the CLI exits 2 with one line.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
import shapely
from shapely.errors import GEOSException

import metrics.run.runner as runner
from metrics.catalogue.registry import METRICS
from metrics.cli.main import main
from metrics.core.model import Dataset, InputError, Sample
from metrics.core.results import SampleResult
from metrics.declare.spec import MetricSpec
from metrics.io.icdar.lines import DetSchema, parse_det_line, parse_gt_line
from metrics.run.guard import FAILURE
from metrics.shapes import robust
from metrics.shapes.mode import Mode

CASES = {
    "cleval_dont_care_cut_assertion": (
        ["1,2,1,1,0,0,0,0,###", "1,3,0,0,1,1,2,2,AB", "0,2,3,2,1,2,3,0,AB"],
        [],
    ),
    "cleval_dont_care_cut_topology": (["1,0,2,0,0,3,3,0,###", "2,1,0,3,0,2,2,3,AB"], []),
    "tedeval_bowtie_detection": (
        ["20,0,30,0,30,10,20,10,###", "0,0,40,0,40,30,0,30,AB"],
        ["40,0,20,30,30,10,10,30"],
    ),
    "iou_one_point_gt": (["50,50,###"], ["0,0,100,0,50,0,50,20"]),
}


def _dataset(gt: list[str], det: list[str]) -> Dataset:
    g = tuple(parse_gt_line(t, k + 1) for k, t in enumerate(gt))
    d = tuple(parse_det_line(t, k + 1, DetSchema()) for k, t in enumerate(det))
    sample = Sample("img_1", g, d, gt_source="gt_img_1.txt", det_source="res_img_1.txt")
    return Dataset((sample,))


@pytest.mark.parametrize("case", sorted(CASES))
def test_minimal_geos_cases_give_numbers_in_every_metric(case: str) -> None:
    ds = _dataset(*CASES[case])
    specs = [s for s in METRICS.values() if not s.needs_gt_lines]
    for ev in runner.run(ds, specs, policy="skip_sample"):
        assert not [p for p in ev.problems if FAILURE in p.message], ev.metric
        for r in ev.results.values():
            assert 0.0 <= r.recall <= 1.0 and 0.0 <= r.precision <= 1.0


def test_cleval_dont_care_cut_of_a_degenerate_gt_scores_zero(tmp_path: Path) -> None:
    gt, det = tmp_path / "gt", tmp_path / "det"
    gt.mkdir()
    det.mkdir()
    (gt / "gt_img_1.txt").write_text("\n".join(CASES["cleval_dont_care_cut_assertion"][0]))
    (det / "res_img_1.txt").write_text("")
    argv = ["eval", "--gt", str(gt), "--det", str(det), "--metric", "cleval,tedeval"]
    assert main([*argv, "--quiet"]) == 0


def test_repaired_clip_keeps_only_the_area_carrying_part() -> None:
    collapsed = shapely.make_valid(shapely.Polygon([(0, 0), (100, 0), (50, 0), (50, 20)]))
    assert collapsed.geom_type == "GeometryCollection"  # a triangle and a line
    with pytest.raises(GEOSException):  # the 1-point GT of the IoU family's crash
        shapely.intersection(shapely.Polygon(), collapsed)
    assert robust.intersection(shapely.Polygon(), collapsed).area == 0.0
    many = robust.intersection([shapely.Polygon(), shapely.box(0, 0, 100, 20)], collapsed)
    assert [g.area for g in many] == pytest.approx([0.0, 500.0])


def test_geos_accepted_input_is_clipped_by_geos_unchanged() -> None:
    a, b = shapely.box(0, 0, 3, 3), shapely.Polygon([(1, 1), (5, 1), (4, 7)])
    assert robust.intersection(a, b).equals_exact(shapely.intersection(a, b), 0.0)


def _broken(spec_id: str, bad: str) -> Any:
    spec = METRICS[spec_id]

    def evaluate(
        samples: Sequence[Sample], params: Any, mode: Mode | None = None
    ) -> list[SampleResult]:
        if any(s.id == bad for s in samples):
            raise GEOSException("TopologyException: side location conflict")
        return list(spec.evaluate(samples, params, mode))

    return dataclasses.replace(spec, evaluate=evaluate)


def _patch(monkeypatch: pytest.MonkeyPatch, spec: MetricSpec) -> None:
    """Put ``spec`` in the registry under its id (the registry loads families lazily: load
    the real one first, then replace what it holds)."""
    assert METRICS[spec.id] is not None
    monkeypatch.setitem(METRICS._loaded, spec.id, spec)  # type: ignore[attr-defined]


def _two_samples() -> Dataset:
    one = _dataset(["0,0,10,0,10,10,0,10,AB"], ["0,0,10,0,10,10,0,10"]).samples[0]
    bow = _dataset(["0,0,10,10,10,0,0,10,AB"], ["0,0,10,0,10,10,0,10"]).samples[0]
    bow = dataclasses.replace(bow, id="img_2", gt_source="gt_img_2.txt")
    return Dataset((one, bow))


def test_a_metric_failing_on_a_sample_is_a_located_error_under_strict(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _patch(monkeypatch, _broken("ic15_iou", "img_2"))
    with pytest.raises(InputError) as err:
        runner.run(_two_samples(), [METRICS["ic15_iou"]])
    (problem,) = err.value.problems
    assert (problem.source, problem.line, problem.sample_id) == ("gt_img_2.txt", 1, "img_2")
    assert "ic15_iou cannot evaluate this image (GEOSException" in problem.message
    assert "suspicious boxes: GT line(s) 1" in problem.message


def test_a_failing_json_sample_names_its_suspicious_boxes_not_lines(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    one, bow = _two_samples().samples
    bow = dataclasses.replace(bow, gt_source="gt.json", det_source="det.json")
    _patch(monkeypatch, _broken("ic15_iou", "img_2"))
    with pytest.raises(InputError) as err:
        runner.run(Dataset((one, bow)), [METRICS["ic15_iou"]])
    (problem,) = err.value.problems
    assert "suspicious boxes: GT box(es) 1" in problem.message
    assert problem.where == "gt.json (image img_2, box 1)"


def test_skip_sample_leaves_out_only_the_failing_sample(monkeypatch: pytest.MonkeyPatch) -> None:
    _patch(monkeypatch, _broken("ic15_iou", "img_2"))
    (ev,) = runner.run(_two_samples(), [METRICS["ic15_iou"]], policy="skip_sample")
    assert list(ev.results) == ["img_1"] and ev.excluded == ("img_2",)
    assert ev.recall == 1.0
    assert any(FAILURE in p.message and p.sample_id == "img_2" for p in ev.problems)


def test_cli_reports_a_failing_sample_in_one_line_and_exits_2(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _patch(monkeypatch, _broken("ic15_iou", "img_1"))
    gt, det = tmp_path / "gt", tmp_path / "det"
    gt.mkdir()
    det.mkdir()
    (gt / "gt_img_1.txt").write_text("0,0,10,0,10,10,0,10,AB\n")
    (det / "res_img_1.txt").write_text("0,0,10,0,10,10,0,10\n")
    assert main(["eval", "--gt", str(gt), "--det", str(det), "--metric", "ic15_iou"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("detlens: error: 1 image(s) could not be evaluated")
    assert "Traceback" not in err and "gt_img_1.txt" in err


def _small(tmp_path: Path) -> tuple[Path, Path]:
    gt, det = tmp_path / "gt", tmp_path / "det"
    gt.mkdir()
    det.mkdir()
    (gt / "gt_img_1.txt").write_text("0,0,10,0,10,10,0,10,AB\n")
    (det / "res_img_1.txt").write_text("0,0,10,0,10,10,0,10\n")
    return gt, det


@pytest.mark.parametrize(
    ("option", "target", "says"),
    [
        ("--json", ".", "is a folder"),
        ("--csv", "missing/out.csv", "does not exist"),
        ("--json", "det/res_img_1.txt", "is an input"),
        ("--json", "gt", "is a folder"),
    ],
)
def test_bad_output_paths_exit_2_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str, target: str, says: str
) -> None:
    gt, det = _small(tmp_path)
    before = (det / "res_img_1.txt").read_bytes()
    argv = ["eval", "--gt", str(gt), "--det", str(det), "--quiet", option, str(tmp_path / target)]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and says in err[0]
    assert (det / "res_img_1.txt").read_bytes() == before


def test_export_out_that_is_a_file_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("PySide6")
    gt, det = _small(tmp_path)
    out = tmp_path / "file.txt"
    out.write_text("keep")
    assert main(["export", "--gt", str(gt), "--det", str(det), "--out", str(out)]) == 2
    assert "is a file" in capsys.readouterr().err and out.read_text() == "keep"


def test_images_path_that_is_a_file_is_an_input_error(tmp_path: Path) -> None:
    gt, det = _small(tmp_path)
    argv = ["eval", "--gt", str(gt), "--det", str(det), "--quiet"]
    assert main([*argv, "--images", str(gt / "gt_img_1.txt")]) == 2
