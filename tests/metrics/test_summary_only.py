"""``detlens eval`` that prints the summary alone (no --json, --csv, --instances, --sweep or
--attribution) evaluates without the per-instance lists (``metrics.core.detail.tallies_only``),
also where the set is not sharded (``--metric all``, MMOCR's sweep): same table, less work."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import metrics.cli.analysis as cli_analysis
import metrics.core.detail as detail
from metrics.catalogue.registry import resolve
from metrics.cli.main import main
from metrics.io.demo import demo_paths
from metrics.io.reader import load_dataset
from metrics.io.writers import jsonable
from metrics.run.runner import run
from tests.metrics.mmocr.test_sweep_runner import DET, GT
from tests.support import write_zip


def _lists_seen(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether each evaluation of the CLI ran with the per-instance lists."""
    seen: list[bool] = []

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.append(detail.instance_lists())
        return run(*args, **kwargs)

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
    """MMOCR under ``tallies_only``: no GT list and no match records; the tallies, the
    detections' verdicts, the evidence and the warnings are the whole run's (also after
    ``finalize`` moved every image to the best threshold)."""
    ds = load_dataset(write_zip(tmp_path / "gt.zip", GT), write_zip(tmp_path / "det.zip", DET))
    spec = resolve("mmocr_hmean_iou")
    whole = run(ds, [spec])[0]
    with detail.tallies_only():
        light = run(ds, [spec])[0]
    assert (whole.recall, whole.precision, whole.hmean) == (
        light.recall,
        light.precision,
        light.hmean,
    )
    assert whole.extras == light.extras and whole.sweep == light.sweep
    assert any(r.gt and r.matches for r in whole.results.values())
    for sid, a in whole.results.items():
        b = light.results[sid]
        assert b.gt == () and b.matches == ()
        assert (a.tally, a.det, a.extra, a.warnings, a.recall, a.hmean) == (
            b.tally,
            b.det,
            b.extra,
            b.warnings,
            b.recall,
            b.hmean,
        )
        assert jsonable(a.evidence) == jsonable(b.evidence)
