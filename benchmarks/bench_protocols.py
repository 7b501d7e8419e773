"""Whole-process timing of the dataset and toolkit protocols against the official run times.

    python benchmarks/bench_protocols.py              # one reference per metric x dataset
    python benchmarks/bench_protocols.py --all        # every visible reference
    python benchmarks/bench_protocols.py --runs 5 --only mmocr_hmean_iou

For each reference file of ``../shared/reference`` whose metric is one of the protocols
(Total-Text DetEval and VOC, CTW1500, MMOCR, PaddleOCR, HierText), this runs, alternately
in one loop so that the machine's state is shared:

- ``detlens eval --gt G --det D --metric M --quiet`` as a whole process (interpreter start,
  imports, reading, evaluation), byte code cached (``PYTHONDONTWRITEBYTECODE`` is removed
  from the environment, and one warm-up run writes the caches);
- the **floor**: a process that imports numpy and shapely and reads the same input files'
  bytes (every zip member, or the JSON), doing nothing else.

It prints the medians, the official evaluation time (the reference's ``runtime_s``: the
official call without interpreter start, recorded on another machine), the ratio official /
detlens, and the target max(official / 5, 1.5 x floor) with whether it was met.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("DETLENS_SHARED", ROOT.parent / "shared"))
PROTOCOLS = (
    "totaltext_deteval",
    "totaltext_voc",
    "ctw1500_eval",
    "mmocr_hmean_iou",
    "mmocr_hmean_iou_maxmatch",
    "paddleocr_det_iou",
    "hiertext_word",
    "hiertext_line",
    "hiertext_paragraph",
)
FLOOR = """
import sys, zipfile, pathlib
import numpy, shapely
for p in sys.argv[1:]:
    path = pathlib.Path(p)
    if path.suffix == ".zip":
        with zipfile.ZipFile(path) as z:
            for n in z.namelist():
                z.read(n)
    else:
        path.read_bytes()
"""


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPATH"] = str(ROOT)
    return env


def _time(cmd: list[str]) -> float:
    t0 = time.perf_counter()
    done = subprocess.run(cmd, env=_env(), capture_output=True, text=True, cwd=ROOT)
    elapsed = time.perf_counter() - t0
    if done.returncode != 0:
        raise SystemExit(f"failed ({done.returncode}): {' '.join(cmd)}\n{done.stderr[-2000:]}")
    return elapsed


def references(everything: bool, only: set[str]) -> list[dict[str, object]]:
    """The protocol references to time: all, or the first of each metric x dataset."""
    out, seen = [], set()
    for f in sorted((SHARED / "reference").glob("*.json")):
        if f.name.endswith(".FAILED.json"):
            continue
        ref = json.loads(f.read_text())
        metric, dataset = ref["metric"], ref["dataset"]
        if metric not in PROTOCOLS or (only and metric not in only):
            continue
        if not everything and (metric, dataset) in seen:
            continue
        seen.add((metric, dataset))
        ref["file"] = f.name
        out.append(ref)
    return out


def _input(path: str) -> str:
    return str(SHARED.parent / path)


def measure(ref: dict[str, object], runs: int) -> tuple[float, float]:
    """Median whole-process times of detlens and of the floor, alternating."""
    inputs = ref["inputs"]
    assert isinstance(inputs, dict)
    gt, det = _input(inputs["gt"]), _input(inputs["det"])
    ours = [sys.executable, "-m", "metrics.cli", "eval", "--gt", gt, "--det", det]
    ours += ["--metric", str(ref["metric"]), "--quiet"]
    floor = [sys.executable, "-c", FLOOR, gt, det]
    _time(ours)  # warm-up: byte code caches, file cache
    a, b = [], []
    for _ in range(runs):
        a.append(_time(ours))
        b.append(_time(floor))
    return statistics.median(a), statistics.median(b)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--all", action="store_true", help="every visible reference")
    parser.add_argument("--runs", type=int, default=3, help="runs per command (median)")
    parser.add_argument("--only", action="append", default=[], help="metric id (repeatable)")
    args = parser.parse_args()
    if not (SHARED / "reference").is_dir():
        raise SystemExit(f"no reference folder at {SHARED} (set DETLENS_SHARED)")
    head = f"{'reference':<52}{'detlens':>9}{'floor':>8}{'official':>10}{'ratio':>7}{'target':>8}"
    print(head + "  met")
    met = total = 0
    for ref in references(args.all, set(args.only)):
        ours, floor = measure(ref, args.runs)
        official = float(ref.get("runtime_s") or 0.0)
        target = max(official / 5, 1.5 * floor)
        ok = ours <= target
        met, total = met + ok, total + 1
        ratio = official / ours if ours else 0.0
        print(
            f"{str(ref['file']).removesuffix('.json'):<52}{ours:>8.2f}s{floor:>7.2f}s"
            f"{official:>9.2f}s{ratio:>6.1f}x{target:>7.2f}s  {'yes' if ok else 'NO'}",
            flush=True,
        )
    print(f"\n{met} of {total} within max(official / 5, 1.5 x floor); medians of {args.runs}")


if __name__ == "__main__":
    main()
