"""The side-by-side benchmark with the official code given: a stand-in official tree whose
scripts log how they were called. Checks that each runs with its reference's own command
line (IC13's LTRB parameter, CLEval's ``--E2E``), absolute input paths, in its folder; that
the row then reports the measured figure; and that a failing official script is said and
the run goes on. Without ``../shared`` (the reference files) it skips."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import shared_or_skip

ROOT = Path(__file__).resolve().parents[1]

LOGGING = """import json, os, sys
with open(os.environ["FAKE_OFFICIAL_LOG"], "a") as f:
    f.write(json.dumps([os.getcwd()] + sys.argv) + "\\n")
"""
FAILING = (
    "import sys\nsys.stderr.write('Traceback ...\\nImportError: no Polygon\\n')\nsys.exit(3)\n"
)


def _tree(root: Path) -> None:
    for folder, text in (
        ("TIoU-metric", LOGGING),
        ("TIoU-metric/Word_Text-Line", LOGGING),
        ("TIoU-metric/curved-tiou", LOGGING),
        ("CLEval", LOGGING),
        ("deteval", LOGGING),
        ("TedEval", FAILING),
    ):
        (root / folder).mkdir(parents=True, exist_ok=True)
        (root / folder / "script.py").write_text(text)


def _run(official: Path, log: Path, *only: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, FAKE_OFFICIAL_LOG=str(log))
    argv = [sys.executable, "benchmarks/bench_sidebyside.py", "--runs", "1", "--no-startup"]
    argv += ["--official", str(official), "--python2", sys.executable]
    argv += ["--python3", sys.executable]
    for metric in only:
        argv += ["--only", metric]
    return subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)


@pytest.mark.slow
def test_official_scripts_run_with_the_references_command_lines(tmp_path: Path) -> None:
    shared_or_skip("reference", "ic13__original__ic15_iou.json")
    _tree(tmp_path / "official")
    log = tmp_path / "calls.jsonl"
    only = ("ic15_iou", "cleval_legacy_e2e", "tedeval", "curved_tiou")
    done = _run(tmp_path / "official", log, *only)
    assert done.returncode == 0, done.stderr
    calls = [json.loads(line) for line in log.read_text().splitlines()]
    # warm-up and one timed run per row: IC15 and IC13 ic15_iou, IC13 legacy e2e,
    # Total-Text and CTW1500 curved
    assert len(calls) == 10
    for cwd, script, *args in calls:
        assert Path(script).name == "script.py" and Path(cwd, script).is_file()
        paths = [a.split("=", 1)[-1] for a in args if a.startswith(("-g=", "-s="))]
        paths += [b for a, b in itertools.pairwise(args) if a in ("-g", "-s")]
        # the curved GT link lived in the run's scratch folder, gone now
        real = [p for p in paths if not p.endswith(("/total-text-gt.zip", "/ctw1500-gt.zip"))]
        assert len(paths) == 2 and all(Path(p).is_absolute() for p in paths)
        assert real and all(Path(p).is_file() for p in real)
    ic13 = [c for c in calls if any("ic13/gt.zip" in a for a in c) and "--E2E" not in c]
    assert ic13 and all("-p='{\"LTRB\": true}'" in c for c in ic13)
    e2e = [c for c in calls if "--E2E" in c]
    assert e2e and all(c[0].endswith("CLEval") and "--BOX_TYPE=LTRB" in c for c in e2e)
    # the curved script finds its data set by the GT file's name
    curved = sorted(
        Path(a[3:]).name for c in calls for a in c if "curved-tiou" in c[1] and a[:3] == "-g="
    )
    assert curved == ["ctw1500-gt.zip"] * 2 + ["total-text-gt.zip"] * 2
    out = done.stdout
    names = (" ic15_iou ", "legacy_e2e ", " curved_tiou ")
    rows = [line for line in out.splitlines() if any(n in line for n in names)]
    assert len(rows) == 5 and all("measured" in line for line in rows), out
    # the failing TedEval is said, with its last line, and its rows fall back
    assert (
        "official command failed (ic15/pixellink tedeval): exit 3: ImportError: no Polygon" in out
    )
    ted = [line for line in out.splitlines() if line.startswith("ic13/original tedeval ")]
    assert len(ted) == 1 and "runtime_s" in ted[0] and "measured" not in ted[0]
    assert "within target" in out


def test_without_official_code_it_says_so(tmp_path: Path) -> None:
    shared_or_skip("reference", "ic13__original__deteval.json")
    done = _run(tmp_path / "nowhere", tmp_path / "calls.jsonl", "deteval")
    assert done.returncode == 0, done.stderr
    assert "official code not found: " in done.stdout
    assert "TIMINGS.md" in done.stdout and not (tmp_path / "calls.jsonl").exists()


@pytest.mark.parametrize("metric", ["mmocr_hmean_iou", "totaltext_deteval"])
def test_protocols_without_a_plain_command_line_say_so(metric: str, tmp_path: Path) -> None:
    shared_or_skip("reference")
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import bench_sidebyside as bench

    (row,) = [r for r in bench.rows({metric}) if r.dataset in ("ctw1500", "totaltext")][:1]
    found = bench.official_command(row, tmp_path, sys.executable, sys.executable, tmp_path)
    assert isinstance(found, str) and "no plain command line" in found
