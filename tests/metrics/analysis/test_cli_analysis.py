"""``detlens eval --set score_threshold``, ``--sweep``, ``--attribution``, ``--instances``
and the bootstrap of ``detlens compare``; option mistakes exit 2 with one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from metrics.cli.main import main
from metrics.io.demo import demo_paths


def _filtered_copy(src: Path, dst: Path, threshold: float) -> Path:
    """A detection folder holding only the lines whose confidence (9th field) >= threshold."""
    dst.mkdir()
    for f in src.glob("*.txt"):
        keep = [
            line
            for line in f.read_text(encoding="utf-8").splitlines()
            if line.strip() and float(line.split(",")[8]) >= threshold
        ]
        (dst / f.name).write_text("".join(x + "\n" for x in keep), encoding="utf-8")
    return dst


def _json(args: list[str], out: Path) -> list[dict[str, object]]:
    assert main(["eval", *args, "--json", str(out), "--quiet"]) == 0
    data = json.loads(out.read_text())
    return data if isinstance(data, list) else [data]


@pytest.mark.parametrize("t", [0.5, 0.9, 0.95])
def test_score_threshold_equals_evaluating_the_filtered_file(tmp_path: Path, t: float) -> None:
    d = demo_paths()
    filtered = _filtered_copy(Path(d.det_b), tmp_path / "f", t)
    metrics = "ic15_iou,tiou,cleval_det,mmocr"
    base = ["--gt", str(d.gt), "--metric", metrics]
    a = _json([*base, "--det", str(d.det_b), "--set", f"score_threshold={t}"], tmp_path / "a")
    b = _json([*base, "--det", str(filtered)], tmp_path / "b")
    assert [x["global"] for x in a] == [x["global"] for x in b]
    assert [x["per_image"] for x in a] == [x["per_image"] for x in b]


def test_score_threshold_of_one_metric(tmp_path: Path) -> None:
    d = demo_paths()
    base = ["--gt", str(d.gt), "--det", str(d.det_b), "--metric", "ic15_iou,tiou"]
    plain = _json(base, tmp_path / "p")
    one = _json([*base, "--set", "tiou.score_threshold=0.95"], tmp_path / "o")
    assert one[0]["global"] == plain[0]["global"]
    assert one[1]["global"] != plain[1]["global"]


def test_sweep_names_the_best_threshold_for_what_it_is(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "--metric", "tiou", "--sweep", "--sweep-points", "0"]) == 0
    out = capsys.readouterr().out
    assert "tiou: " in out and "best threshold" in out
    assert "chosen on the evaluated set itself" in out and "<- best" in out


def test_attribution_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "--metric", "ic15_iou", "--attribution"]) == 0
    out = capsys.readouterr().out
    for name in ("missed", "false_positive", "localisation", "all"):
        assert f"  {name}" in out
    assert "1.0000" in out.split("  all")[1]


def test_instances_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "rows.jsonl"
    assert main(["eval", "--metric", "ic15_iou,tiou", "--instances", str(out)]) == 0
    lines = out.read_text(encoding="utf-8").splitlines()
    assert f"{len(lines)} instance rows written" in capsys.readouterr().out
    assert {json.loads(x)["metric"] for x in lines} == {"ic15_iou", "tiou"}


def _no_conf(tmp_path: Path) -> Path:
    d = demo_paths()
    dst = tmp_path / "nc"
    dst.mkdir()
    for f in Path(d.det_b).glob("*.txt"):
        rows = [",".join(x.split(",")[:8]) for x in f.read_text().splitlines() if x.strip()]
        (dst / f.name).write_text("".join(r + "\n" for r in rows))
    return dst


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--set", "score_threshold=high"], "score_threshold=high: expected a number"),
        (["--set", "tedeval.score_threshold=0.5"], "tedeval is not being evaluated"),
        (["--instances", "rows.txt"], "give a .csv or .jsonl file name"),
        (["--set", "score_threshold=nan"], "expected a finite number"),
        (["--sweep", "--sweep-points", "-3"], "--sweep-points: -3: give 0 to 100,000"),
        (["--set", "score_threshold=2"], "a confidence threshold is from 0 to 1"),
        (["--set", "score_threshold=-1"], "a confidence threshold is from 0 to 1"),
        (["--sweep", "NOCONF"], "--sweep needs confidences"),
    ],
)
def test_option_mistakes_exit_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    d = demo_paths()
    det = str(d.det_b)
    if "NOCONF" in extra:
        extra = extra[:1]
        det = str(_no_conf(tmp_path))
    args = ["eval", "--gt", str(d.gt), "--det", det, "--metric", "ic15_iou", *extra]
    try:
        code = main(args)
    except SystemExit as exc:  # an argparse type refuses the value
        code = int(str(exc.code))
    assert code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(("detlens: error:", "detlens eval: error:"))
    assert message in err[0]


def test_compare_prints_and_writes_the_bootstrap(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "c.json"
    assert main(["compare", "--resamples", "2000", "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert "Is B really better?" in text and "95 % interval" in text
    data = json.loads(out.read_text())["bootstrap"]
    assert data["resamples"] == 2000 and data["low"] <= data["delta"] <= data["high"]
    assert data["better"] + data["worse"] + data["equal"] == 12
