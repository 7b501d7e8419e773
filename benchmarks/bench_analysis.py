"""Times the analysis on IC15 PixelLink with confidences added (seeded) against a single
evaluation: the 100-point sweep of ic15_iou and tiou (target <= 3x) and a 10,000-resample
paired bootstrap (target < 1 s).

    python benchmarks/bench_analysis.py [--shared ../shared] [--seed 1]
"""

from __future__ import annotations

import argparse
import dataclasses
import time
from pathlib import Path

import numpy as np

from metrics.analysis import threshold as thr
from metrics.analysis.bootstrap import paired
from metrics.analysis.sweep import sweep
from metrics.catalogue.registry import make_params, resolve
from metrics.core.model import Dataset
from metrics.io.reader import load_dataset
from metrics.run.runner import run


def with_confidences(ds: Dataset, seed: int) -> Dataset:
    """Every detection gets a confidence drawn uniformly from [0.01, 0.99] (seeded)."""
    rng = np.random.default_rng(seed)
    samples = []
    for s in ds:
        conf = np.round(rng.uniform(0.01, 0.99, len(s.det)), 4)
        dets = tuple(
            dataclasses.replace(d, confidence=float(c)) for d, c in zip(s.det, conf, strict=True)
        )
        samples.append(dataclasses.replace(s, det=dets))
    return dataclasses.replace(ds, samples=tuple(samples))


def best_of(fn, runs: int = 3) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--shared", default=str(Path(__file__).resolve().parents[1].parent / "shared"))
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    data = Path(args.shared) / "data" / "ic15"
    ds = with_confidences(load_dataset(data / "gt.zip", data / "det_pixellink.zip"), args.seed)
    grid = thr.grid(thr.confidences(ds), 100)
    print(
        f"IC15 PixelLink, {len(ds)} images, confidences seeded {args.seed}, {len(grid)} thresholds"
    )
    for mid in ("ic15_iou", "tiou"):
        spec = resolve(mid)
        prm = make_params(spec)
        single = best_of(lambda spec=spec: run(ds, [spec]))
        base = run(ds, [spec])[0]
        swept = best_of(lambda spec=spec, prm=prm, base=base: sweep(ds, spec, prm, base, grid))
        print(
            f"{mid:<9} single evaluation {single:.3f} s, 100-point sweep {swept:.3f} s "
            f"({swept / single:.2f}x; with its evaluation {(single + swept) / single:.2f}x; "
            f"target <= 3x: {'met' if (single + swept) / single <= 3 else 'MISSED'})"
        )
    a, b = run(ds, [resolve("ic15_iou"), resolve("tiou")])
    single = best_of(lambda: run(ds, [resolve("ic15_iou")]))
    boot = best_of(lambda: paired(a, b, resamples=10_000))
    print(
        f"paired bootstrap, 10,000 resamples of {len(a.results)} images: {boot:.3f} s "
        f"({boot / single:.2f}x a single ic15_iou evaluation; target < 1 s: "
        f"{'met' if boot < 1 else 'MISSED'})"
    )


if __name__ == "__main__":
    main()
