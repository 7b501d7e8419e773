"""``detlens eval`` that prints the summary alone (no --json, --csv, --instances, --sweep or
--attribution) evaluates without the per-instance lists (``metrics.shapes.mode.Detail.SUMMARY``),
also where the set is not sharded (``--metric all``, MMOCR's sweep): same table, less work."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import metrics.cli.analysis as cli_analysis
from metrics.catalogue.registry import resolve
from metrics.cli.main import main
from metrics.io.demo import demo_paths
from metrics.io.reader import load_dataset
from metrics.io.writers import jsonable
from metrics.run.runner import run
from metrics.shapes.mode import Detail
from tests.metrics.mmocr.test_sweep_runner import DET, GT
from tests.support import write_zip


def _lists_seen(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether each evaluation of the CLI ran with the per-instance lists."""
    seen: list[bool] = []

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.append(kwargs.get("detail", Detail.FULL) is Detail.FULL)
        evals = run(*args, **kwargs)
        assert all(ev.complete is seen[-1] for ev in evals)  # each evaluation says which
        return evals

    monkeypatch.setattr(cli_analysis, "run", spy)
    return seen


@pytest.mark.parametrize(
    "extra",
    [[], ["--json", "{tmp}/out.json"], ["--csv", "{tmp}/out.csv"], ["--sweep"], ["--attribution"]],
)
def test_the_summary_alone_is_evaluated_without_lists(
    extra: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    demo = demo_paths()
    seen = _lists_seen(monkeypatch)
    args = ["eval", "--gt", str(demo.gt), "--det", str(demo.det_b), "--metric", "all"]
    assert main([*args, *(a.format(tmp=tmp_path) for a in extra)]) == 0
    assert seen == [bool(extra)]
    table = capsys.readouterr().out.split("\n\n")[0]
    monkeypatch.setattr(cli_analysis, "run", run)
    assert main([*args, "--json", str(tmp_path / "whole.json")]) == 0
    assert capsys.readouterr().out.split("\n\n")[0] == table  # the same summary


def test_mmocr_without_lists_keeps_everything_else(tmp_path: Path) -> None:
    """MMOCR for a summary (``Detail.SUMMARY``): no GT list and no match records (and the
    results say so); the tallies, the
    detections' verdicts, the evidence and the warnings are the whole run's (also after
    ``finalize`` moved every image to the best threshold)."""
    ds = load_dataset(write_zip(tmp_path / "gt.zip", GT), write_zip(tmp_path / "det.zip", DET))
    spec = resolve("mmocr_hmean_iou")
    whole = run(ds, [spec])[0]
    light = run(ds, [spec], detail=Detail.SUMMARY)[0]
    assert whole.complete and not light.complete
    assert (whole.recall, whole.precision, whole.hmean) == (
        light.recall,
        light.precision,
        light.hmean,
    )
    assert whole.extras == light.extras and whole.sweep == light.sweep
    assert any(r.gt and r.matches for r in whole.results.values())
    for sid, a in whole.results.items():
        b = light.results[sid]
        assert b.gt == () and b.matches == () and a.complete and not b.complete
        assert (a.tally, a.det, a.extra, a.warnings, a.recall, a.hmean) == (
            b.tally,
            b.det,
            b.extra,
            b.warnings,
            b.recall,
            b.hmean,
        )
        assert jsonable(a.evidence) == jsonable(b.evidence)


def test_a_result_for_the_summary_is_never_written_as_whole(tmp_path: Path) -> None:
    """A hollow result (no GT list, no records) says so, and the writers refuse it rather
    than write "no GT, no match" for an image that has both."""
    from metrics.io.writers import evaluation_dict, sample_dict, write_csv

    ds = load_dataset(demo_paths().gt, demo_paths().det_b)
    light = run(ds, [resolve("tiou")], detail=Detail.SUMMARY)[0]
    assert not light.complete
    r = next(iter(light.results.values()))
    assert not r.complete and r.gt == () and r.matches == ()
    with pytest.raises(ValueError, match="summary"):
        evaluation_dict(light)
    with pytest.raises(ValueError, match="summary"):
        sample_dict(r)
    with pytest.raises(ValueError, match="summary"):
        write_csv(tmp_path / "out.csv", [light])
    whole = run(ds, [resolve("tiou")])[0]
    assert whole.complete and evaluation_dict(whole)["per_image"]


def test_paddleocr_without_lists_keeps_everything_else() -> None:
    """PaddleOCR for a summary: no GT list and no match records (and the results say so);
    the tallies, the detections' verdicts and near misses, the skipped polygons are the
    whole run's."""
    ds = load_dataset(demo_paths().gt, demo_paths().det_b)
    spec = resolve("paddleocr_det_iou")
    whole = run(ds, [spec])[0]
    light = run(ds, [spec], detail=Detail.SUMMARY)[0]
    assert whole.complete and not light.complete
    assert whole.summary == light.summary and whole.extras == light.extras
    assert any(r.gt and r.matches for r in whole.results.values())
    assert any(d.near_miss for r in whole.results.values() for d in r.det)
    for sid, a in whole.results.items():
        b = light.results[sid]
        assert b.gt == () and b.matches == () and a.complete and not b.complete
        assert (a.tally, a.det, a.extra, a.evidence) == (b.tally, b.det, b.extra, b.evidence)
