"""Peak memory of ``detlens eval --metric all -q`` for a given number of boxes.

    python benchmarks/bench_memory.py                    # 1,000 images x 100 boxes (100k GT)
    python benchmarks/bench_memory.py --images 10000     # 1 M GT + about 1 M detections
    python benchmarks/bench_memory.py --images 3000 --metric ic15_iou --extra=--workers=2

The set is generated once (``gen_sets.fixed``: ``--images`` images of ``--boxes`` GT words
each, ICDAR 2015 zips, detections as in ``gen_sets``: about as many as GT words) under
``$DETLENS_BENCH_DATA``. The run is one whole process; the figure printed is its maximum
resident set size (``getrusage(RUSAGE_CHILDREN).ru_maxrss``, what ``/usr/bin/time -v``
prints as "Maximum resident set size"), with the wall time. Target (issue 30): under 2 GB
for 1 M GT + 1 M detections. Not a CI test: a 1 M run takes minutes.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import gen_sets  # noqa: E402

TARGET_GB = 2.0


def peak_of(cmd: list[str]) -> tuple[float, int, int]:
    """Wall time, the child's maximum resident set size (bytes) and its exit code."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - t0
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
    return wall, rss, proc.returncode


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--images", type=int, default=1000)
    ap.add_argument("--boxes", type=int, default=100, help="GT words per image")
    ap.add_argument("--metric", default="all")
    ap.add_argument("--extra", action="append", default=[], help="one more eval argument")
    a = ap.parse_args()
    folder = gen_sets.fixed(a.images, a.boxes)
    images, gt, det, _ = gen_sets.counts(folder)
    cmd = [
        *(sys.executable, "-m", "metrics.cli", "eval"),
        *("--gt", str(folder / "gt.zip"), "--det", str(folder / "det.zip")),
        *("--metric", a.metric, "-q", *a.extra),
    ]
    wall, rss, code = peak_of(cmd)
    gb = rss / 1e9
    verdict = "met" if gb < TARGET_GB else "MISSED"
    print(f"{images} images, {gt} GT, {det} detections: --metric {a.metric} {' '.join(a.extra)}")
    print(
        f"peak RSS {gb:.2f} GB ({rss / max(1, gt + det):.0f} bytes per box), "
        f"{wall:.1f} s, exit {code}; target < {TARGET_GB:.0f} GB at 1 M + 1 M: {verdict}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
