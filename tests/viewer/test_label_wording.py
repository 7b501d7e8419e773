"""One wording for one piece of evidence: the export, the report's pictures, the canvas and
the gallery all say why an instance went unmatched with ``viewer.scene.texts.instance_label``,
naming the rule ("missed: IoU 0.42 ≤ 0.5"); the report said "missed, best IoU 0.42"."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from metrics.catalogue.registry import make_params, resolve
from metrics.cli.main import main
from metrics.core.model import Dataset
from metrics.io.demo import demo_paths
from metrics.run.runner import run
from tests.support import dets, gts, rect, sample
from viewer.export import render
from viewer.scene.gallery import SideInput, build, select
from viewer.scene.texts import instance_label


@pytest.fixture
def labels(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[set[str]]]:
    """The score labels of every panel rendered (``render.build_overlay`` recorded)."""
    seen: list[set[str]] = []
    build = render.build_overlay

    def recording(*args: object, **kwargs: object) -> object:
        items = build(*args, **kwargs)  # type: ignore[arg-type]
        seen.append({t for it in items if it.layer == "labels" for t in it.data.get("texts", [])})
        return items

    monkeypatch.setattr(render, "build_overlay", recording)
    yield seen


def test_report_and_export_word_the_same_evidence_alike(
    tmp_path: Path, labels: list[set[str]]
) -> None:
    d = demo_paths()
    args = ["--gt", str(d.gt), "--det", str(d.det_a), "--metric", "tiou"]
    assert main(["report", *args, "--worst", "1", "--out", str(tmp_path / "rep")]) == 0
    sid = next(p.name for p in (tmp_path / "rep").glob("tiou_*_thumb.png"))
    sid = sid.removeprefix("tiou_").removesuffix("_thumb.png")
    from_report = labels[-1]
    labels.clear()
    assert main(["export", *args, "--samples", sid, "--out", str(tmp_path / "exp")]) == 0
    (from_export,) = labels
    assert any("≤" in t or "<" in t for t in from_export)  # a rule is named here
    assert from_report == from_export


def test_the_gallery_names_the_rule_too() -> None:
    g = gts((rect(0, 0, 100, 20), "HELLO"))
    ds = Dataset((sample(g, dets(rect(0, 0, 100, 40))),))  # IoU 0.5: not above 0.5
    ev = run(ds, [resolve("ic15_iou")])[0]
    (crop,) = select(build([SideInput(ds, ev)]), ["missed"])
    r = ev.results[crop.sample]
    assert crop.line == "missed: IoU 0.50 ≤ 0.5"
    assert crop.line == instance_label("gt", r.gt[0], r, make_params(resolve("ic15_iou"), None))
    assert instance_label("gt", r.gt[0], r, None) == "missed, best IoU 0.50"  # no limit known
