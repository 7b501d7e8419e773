"""Benchmark of the metric engine (not part of the test run).

    python benchmarks/bench_metrics.py            # everything (about two minutes)
    python benchmarks/bench_metrics.py --quick    # smaller dense sets

Prints, all measured in this run on this machine:

1. IC15 PixelLink, per metric: in-process time (load + validate + evaluate), instances per
   second, and the ratio against a *same-run baseline*: a straightforward implementation
   written the way the official scripts are (Python loop over every GT x detection pair,
   one polygon intersection per pair, then the greedy matching). Also the ratio against the
   official script's recorded in-process ``runtime_s`` (../shared/reference, other machine run).
2. ``detlens eval --metric all`` on IC15 PixelLink as a whole process (best of 3).
3. Scaling on generated dense sets (50 images x 250 / 500 / 1,000 words): microseconds per
   instance and the growth factor from 250 to 1,000 words per image (1.0 = linear).
4. The dense sets of ../shared/data/dense when present (official times in TIMINGS.md).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import shapely

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from metrics.catalogue.registry import METRICS, MetricSpec  # noqa: E402
from metrics.core.model import BoxType, Dataset, Instance, Sample, ltrb_points  # noqa: E402
from metrics.io.reader import load_dataset  # noqa: E402
from metrics.run.runner import run  # noqa: E402

SHARED = ROOT.parent / "shared"
IC15 = (SHARED / "data/ic15/gt.zip", SHARED / "data/ic15/det_pixellink.zip")


def best_of(n: int, fn: Callable[[], object]) -> float:
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def _naive_dc(d: list[shapely.Polygon], g: list[shapely.Polygon], dc_g: list[int]) -> set[int]:
    out = set()
    for j, dp in enumerate(d):
        for k in dc_g:
            if dp.area > 0 and dp.intersection(g[k]).area / dp.area > 0.5:
                out.add(j)
                break
    return out


def _naive_match(iou: list[list[float]], skip_g: list[int], skip_d: set[int]) -> int:
    used_g: set[int] = set()
    used_d: set[int] = set()
    for i, row in enumerate(iou):
        for j, value in enumerate(row):
            free = i not in used_g and j not in used_d and i not in skip_g and j not in skip_d
            if free and value > 0.5:
                used_g.add(i)
                used_d.add(j)
    return len(used_g)


def naive_ic15_iou(ds: Dataset) -> tuple[float, float]:
    """Baseline: the official structure (all pairs in Python, one clipping per pair)."""
    matched = n_gt = n_det = 0
    for s in ds:
        g = [shapely.Polygon(np.trunc(i.points)) for i in s.gt]
        d = [shapely.Polygon(np.trunc(i.points)) for i in s.det]
        dc_g = [k for k, i in enumerate(s.gt) if i.dont_care]
        dc_d = _naive_dc(d, g, dc_g)
        iou = []
        for gp in g:
            row = []
            for dp in d:
                inter = gp.intersection(dp).area
                union = gp.area + dp.area - inter
                row.append(inter / union if union > 0 else 0.0)
            iou.append(row)
        matched += _naive_match(iou, dc_g, dc_d)
        n_gt += len(g) - len(dc_g)
        n_det += len(d) - len(dc_d)
    return matched / max(n_gt, 1), matched / max(n_det, 1)


def official_runtime(metric: str) -> float | None:
    f = SHARED / f"reference/ic15__pixellink__{metric}.json"
    return json.loads(f.read_text())["runtime_s"] if f.exists() else None


def ic15_section() -> None:
    print("\n== IC15 PixelLink (500 images, 5230 GT, 2823 det) ==")
    if not IC15[0].exists():
        print("   ../shared/data not found: skipped")
        return
    ds = load_dataset(*IC15)
    n_inst = sum(len(s.gt) + len(s.det) for s in ds)
    t_base = best_of(1, lambda: naive_ic15_iou(load_dataset(*IC15)))
    print(f"   same-run baseline (official structure, ic15_iou, with loading): {t_base:.3f} s")
    print(
        f"   {'metric':<14}{'in-process s':>13}{'inst/s':>10}{'vs baseline':>13}"
        f"{'vs official runtime_s':>24}"
    )
    for mid in ("ic15_iou", "siou", "tiou", "tedeval", "cleval_det", "cleval_legacy_det"):
        spec = METRICS[mid]
        t = best_of(3, lambda spec=spec: run(load_dataset(*IC15), [spec]))
        off = official_runtime(mid)
        vs_off = f"{off / t:6.1f}x ({off:.2f} s)" if off else "n/a"
        vs_base = f"{t_base / t:6.1f}x" if mid == "ic15_iou" else "-"
        print(f"   {mid:<14}{t:>13.3f}{n_inst / t:>10.0f}{vs_base:>13}{vs_off:>24}")
    cmd = [
        sys.executable,
        "-m",
        "metrics.cli.main",
        "eval",
        "--gt",
        str(IC15[0]),
        "--det",
        str(IC15[1]),
        "--metric",
        "all",
        "-q",
    ]
    wall = best_of(3, lambda: subprocess.run(cmd, check=True, capture_output=True))
    print(
        f"   detlens eval --metric all (whole process, best of 3): {wall:.2f} s "
        "(official scripts: ~11 s for their metrics, TIMINGS.md)"
    )


def dense_sample(sid: str, words: int, rng: np.random.Generator) -> Sample:
    """A page of `words` boxes in lines; dets: jittered copies, splits, merges, misses."""
    per_line = int(np.ceil(np.sqrt(words)))
    gt, det = [], []
    for k in range(words):
        x, y = 20 + (k % per_line) * 70, 20 + (k // per_line) * 30
        w = int(rng.integers(30, 62))
        dc = rng.random() < 0.05
        gt.append(
            Instance(
                ltrb_points(x, y, x + w, y + 20),
                BoxType.QUAD,
                "###" if dc else "word",
                dont_care=dc,
                line=k + 1,
            )
        )
        r = rng.random()
        j = rng.integers(-3, 4, size=4)
        if r < 0.08:
            det.append(ltrb_points(x, y + j[1], x + w // 2, y + 20))
            det.append(ltrb_points(x + w // 2, y, x + w + j[2], y + 20))
        elif r < 0.12:
            det.append(ltrb_points(x, y, x + 70 + w, y + 20 + j[3]))
        elif r < 0.95:
            det.append(ltrb_points(x + j[0], y + j[1], x + w + j[2], y + 20 + j[3]))
    dets = tuple(Instance(p, BoxType.QUAD, line=n + 1) for n, p in enumerate(det))
    return Sample(sid, tuple(gt), dets, f"gt:{sid}", f"det:{sid}")


def dense(images: int, words: int) -> Dataset:
    rng = np.random.default_rng(words)
    return Dataset(tuple(dense_sample(f"img_{k}", words, rng) for k in range(images)))


def scaling_section(images: int, sizes: tuple[int, ...]) -> None:
    print(f"\n== Scaling: {images} generated images x W words (QUAD boxes) ==")
    names = ("ic15_iou", "siou", "tiou", "deteval", "tedeval", "cleval_det", "cleval_legacy_det")
    specs: list[MetricSpec] = [METRICS[m] for m in names]
    print(
        f"   {'metric':<12}"
        + "".join(f"{'W=' + str(w) + ' us/inst':>16}" for w in sizes)
        + f"{'growth':>9}"
    )
    sets = {w: dense(images, w) for w in sizes}
    for spec in specs:
        per = []
        for w in sizes:
            ds = sets[w] if spec.id != "deteval" else _as_ltrb(sets[w])
            n = sum(len(s.gt) + len(s.det) for s in ds)
            per.append(best_of(1, lambda ds=ds, spec=spec: run(ds, [spec])) / n * 1e6)
        growth = per[-1] / per[0]
        print(f"   {spec.id:<12}" + "".join(f"{p:>16.1f}" for p in per) + f"{growth:>9.2f}")
    print("   growth = time per instance at the largest W / at the smallest (1.0 = linear)")
    base = dense(5, sizes[0])
    t_naive = best_of(1, lambda: naive_ic15_iou(base))
    t_ours = best_of(1, lambda: run(base, [METRICS["ic15_iou"]]))
    print(
        f"   same-run baseline on 5 x {sizes[0]} words, ic15_iou: baseline {t_naive:.2f} s, "
        f"engine {t_ours:.3f} s ({t_naive / t_ours:.0f}x)"
    )


def _as_ltrb(ds: Dataset) -> Dataset:
    def conv(items: tuple[Instance, ...]) -> tuple[Instance, ...]:
        return tuple(
            Instance(i.points, BoxType.LTRB, i.text, dont_care=i.dont_care, line=i.line)
            for i in items
        )

    return Dataset(
        tuple(Sample(s.id, conv(s.gt), conv(s.det), s.gt_source, s.det_source) for s in ds)
    )


OFFICIAL_DENSE = {  # TIMINGS.md: process wall seconds of the official scripts
    ("ic15_iou", "siou", "tiou"): {"W50": 24.85, "W200": 323.43, "W1000": 16400.0},
    ("tedeval",): {"W50": 24.93, "W200": 253.15, "W1000": 5700.0},
    ("cleval_det",): {"W50": 11.33, "W200": 22.59, "W1000": 90.29},
}


def shared_dense_section() -> None:
    base = SHARED / "data/dense"
    if not base.exists():
        return
    print("\n== ../shared/data/dense (20,000 GT words each; official: TIMINGS.md) ==")
    for name in ("W50", "W200", "W1000"):
        for ids, times in OFFICIAL_DENSE.items():
            t0 = time.perf_counter()
            ds = load_dataset(base / name / "gt.zip", base / name / "det.zip")
            evs = run(ds, [METRICS[m] for m in ids])
            t = time.perf_counter() - t0
            est = ", estimated" if name == "W1000" and ids[0] != "cleval_det" else ""
            print(
                f"   {name:<6} {'+'.join(ids):<20} {t:6.2f} s  (official {times[name]:.0f} s"
                f"{est}: {times[name] / t:.0f}x)  H {evs[-1].hmean:.4f}"
            )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="smaller generated sets")
    args = ap.parse_args()
    ic15_section()
    if args.quick:
        scaling_section(10, (250, 1000))
    else:
        scaling_section(50, (250, 500, 1000))
    shared_dense_section()


if __name__ == "__main__":
    main()
