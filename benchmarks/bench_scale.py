"""Scale: every metric on the dense sets, growth with words per image, a TextOCR-size set.

    python benchmarks/bench_scale.py                 # quick: TextOCR-like set of 2,500 images
    python benchmarks/bench_scale.py --full          # the 25,000-image set (~1,000,000 words)
    python benchmarks/bench_scale.py --runs 7 --only deteval --skip-dense

All figures are whole processes (``detlens eval --metric M --quiet``, byte code cached,
``PYTHONDONTWRITEBYTECODE`` removed), measured in this run, medians of ``--runs``:

1. Dense sets (``../shared/data/dense`` W50 / W200 / W1000, 20,000 GT words each, and a
   generated W250 of the same layout, ``gen_sets.dense``): every metric that reads quads,
   and DetEval on the same sets as axis-aligned boxes (``gen_sets.as_ltrb``). Target: each
   <= 3 s. Growth of the time per instance (GT + detections) from W250 to W1000; target <=
   1.2 (1.0 = linear in words per image). The growth of the in-process time (reading +
   evaluation, no interpreter start) is printed beside it.
2. A TextOCR-size set (``gen_sets.textocr``; quick: 2,500 images, ``--full``: 25,000 with
   about 1,000,000 GT words, about 1 % of the images over 500 words): every metric with
   ``--workers 1`` and ``--workers 2`` (``--pairs`` alternated pairs of runs, medians:
   3 on the quick set, 1 with ``--full`` where each run is long), the wall time, the
   peak memory of the whole process tree (the sum of the proportional set sizes of the
   process and its workers, so pages a forked worker shares are not counted twice, sampled
   every 20 ms from /proc; ``getrusage(RUSAGE_CHILDREN)`` gives the
   largest single process, printed too), the CPU time (user + system) of the process tree
   and the speed-up, each with its target and met / MISSED. Targets (``--full``): <= 60 s
   with two workers, <= 4 GB, speed-up >= 1.6. On a shared machine the wall-time speed-up
   is low when the other core is busy: ``par`` (CPU time / wall time of the two-worker run)
   says how much of the second core the run got, and the load average is printed.
3. The viewer on that set (``benchmarks/probe_viewer.py``, offscreen): time to the first table rows
   (target 5 s), to the shown metric's results, and the longest stall of the UI thread
   (target 100 ms).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import gen_sets  # noqa: E402

SHARED = Path(os.environ.get("DETLENS_SHARED", ROOT.parent / "shared"))
QUAD_METRICS = (
    "ic15_iou",
    "siou",
    "tiou",
    "tedeval",
    "cleval_det",
    "cleval_legacy_det",
    "paddleocr_det_iou",
)
LTRB_METRICS = ("deteval",)
DENSE_TARGET = 3.0
GROWTH_TARGET = 1.2
TEXTOCR_TARGET, MEMORY_TARGET, SPEEDUP_TARGET = 60.0, 4.0, 1.6


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPATH"] = str(ROOT)
    return env


def _own(pid: int) -> int:
    """Proportional set size of one process, bytes (pages shared with forked workers are
    split between them, not counted twice as resident sets would be); else its VmRSS."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def _tree_rss(pid: int) -> int:
    """Memory of ``pid`` and all its descendants (sum of proportional set sizes), bytes."""
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        try:
            total += _own(p)
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as f:
                    todo.extend(int(c) for c in f.read().split())
        except (OSError, ValueError):
            continue
    return total


def timed(cmd: list[str]) -> tuple[float, int]:
    """Wall time and peak resident set of the process tree (sampled every 20 ms)."""
    wall, peak, _ = timed_cpu(cmd)
    return wall, peak


def _cpu() -> float:
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    return use.ru_utime + use.ru_stime


def timed_cpu(cmd: list[str]) -> tuple[float, int, float]:
    """Wall time, peak resident set of the process tree (sampled every 20 ms) and the CPU
    time (user + system) of the whole tree (the process and its workers, all waited for)."""
    peak = [0]
    c0 = _cpu()
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        cmd, env=_env(), cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )

    def sample() -> None:
        while proc.poll() is None:
            peak[0] = max(peak[0], _tree_rss(proc.pid))
            time.sleep(0.02)

    watcher = threading.Thread(target=sample, daemon=True)
    watcher.start()
    _, err = proc.communicate()
    elapsed = time.perf_counter() - t0
    watcher.join()
    if proc.returncode != 0:
        raise SystemExit(f"failed ({proc.returncode}): {' '.join(cmd)}\n{err.decode()[-2000:]}")
    return elapsed, peak[0], _cpu() - c0


def _eval(folder: Path, metric: str, *extra: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "metrics.cli",
        "eval",
        "--gt",
        str(folder / "gt.zip"),
        "--det",
        str(folder / "det.zip"),
        "--metric",
        metric,
        "-q",
        *extra,
    ]


def in_process(folder: Path, metric: str) -> float:
    """Reading + evaluation inside one process (no interpreter start), median of 3."""
    code = (
        "import sys, time\n"
        "from metrics.io.reader import load_dataset\n"
        "from metrics.catalogue.registry import resolve\n"
        "from metrics.run.runner import run\n"
        "spec = resolve(sys.argv[3]); ts = []\n"
        "for _ in range(3):\n"
        "    t0 = time.perf_counter(); run(load_dataset(sys.argv[1], sys.argv[2]), [spec])\n"
        "    ts.append(time.perf_counter() - t0)\n"
        "print(sorted(ts)[1])\n"
    )
    cmd = [sys.executable, "-c", code, str(folder / "gt.zip"), str(folder / "det.zip"), metric]
    out = subprocess.run(cmd, env=_env(), cwd=ROOT, capture_output=True, text=True, check=True)
    return float(out.stdout.strip())


def dense_sets() -> dict[str, Path]:
    out = {}
    for w in (50, 200, 250, 1000):
        shared = SHARED / f"data/dense/W{w}"
        out[f"W{w}"] = shared if (shared / "det.zip").exists() else gen_sets.dense(w)
    return out


def dense_section(runs: int, only: set[str]) -> None:
    sets = dense_sets()
    print(
        f"== Dense sets, 20,000 GT words each (whole process, median of {runs}; "
        f"target <= {DENSE_TARGET:.0f} s each, growth W250 -> W1000 <= {GROWTH_TARGET}) =="
    )
    for name, folder in sets.items():
        n = gen_sets.counts(folder)
        print(f"   {name}: {folder} ({n[0]} images, {n[1]} GT, {n[2]} det)")
    names = list(sets)
    print(
        f"   {'metric':<20}" + "".join(f"{n:>8}" for n in names) + f"{'growth':>8}"
        f"{'in-proc':>9}  target"
    )
    metrics = [m for m in (*QUAD_METRICS, *LTRB_METRICS) if not only or m in only]
    for metric in metrics:
        folders = {
            n: gen_sets.as_ltrb(f, f"dense-{n}") if metric in LTRB_METRICS else f
            for n, f in sets.items()
        }
        times = {}
        for n, f in folders.items():
            cmd = _eval(f, metric)
            timed(cmd)  # warm-up
            times[n] = statistics.median(timed(cmd)[0] for _ in range(runs))
        inst = {n: sum(gen_sets.counts(folders[n])[1:3]) for n in ("W250", "W1000")}
        growth = (times["W1000"] / inst["W1000"]) / (times["W250"] / inst["W250"])
        inner = {n: in_process(folders[n], metric) / inst[n] for n in ("W250", "W1000")}
        g_in = inner["W1000"] / inner["W250"]
        ok = max(times.values()) <= DENSE_TARGET and growth <= GROWTH_TARGET
        print(
            f"   {metric:<20}" + "".join(f"{times[n]:>7.2f}s" for n in names) + f"{growth:>8.2f}"
            f"{g_in:>9.2f}  {'met' if ok else 'MISSED'}",
            flush=True,
        )


def _mark(ok: bool) -> str:
    return "met" if ok else "MISSED"


def textocr_section(images: int, full: bool, only: set[str], pairs: int) -> None:
    t0 = time.perf_counter()
    folder = gen_sets.textocr(images)
    n = gen_sets.counts(folder)
    print(
        f"\n== TextOCR-size set: {n[0]} images, {n[1]} GT words, {n[2]} detections, "
        f"{n[3]} images over 500 words ({folder}, ready in {time.perf_counter() - t0:.0f} s) =="
    )
    scale = images / 25_000
    limit = TEXTOCR_TARGET * scale
    print(
        f"   targets{'' if full else f' (time scaled to {scale:.0%} of the full set)'}: "
        f"<= {limit:.1f} s with --workers 2, peak tree <= {MEMORY_TARGET} GB, "
        f"speed-up >= {SPEEDUP_TARGET}x\n"
        "   cpu = user+sys of the process tree; par = cpu/wall of --workers 2 (2.0 = both "
        "cores busy all along); load = 1-min load average before the runs; "
        f"medians of {pairs} alternated pair(s) of runs, the peaks their largest"
    )
    print(
        f"   {'metric':<18}{'load':>5}{'w1 wall':>8}{'w2 wall':>8}{'time':>7}{'w1 cpu':>7}"
        f"{'w2 cpu':>7}{'par':>5}{'speed-up':>9}{'':>7}{'peak w2':>8}{'w1':>7}{'':>7}"
    )
    for metric in (m for m in (*QUAD_METRICS,) if not only or m in only):
        load = os.getloadavg()[0]
        one, two = [], []
        for _ in range(pairs):  # alternated: a slow spell of the machine hits both sides
            one.append(timed_cpu(_eval(folder, metric, "--workers", "1")))
            two.append(timed_cpu(_eval(folder, metric, "--workers", "2")))
        t1, c1 = (statistics.median(r[k] for r in one) for k in (0, 2))
        t2, c2 = (statistics.median(r[k] for r in two) for k in (0, 2))
        m1, m2 = max(r[1] for r in one), max(r[1] for r in two)
        peak = max(m1, m2) / 2**30
        print(
            f"   {metric:<18}{load:>5.1f}{t1:>7.1f}s{t2:>7.1f}s{_mark(t2 <= limit):>7}"
            f"{c1:>6.1f}s{c2:>6.1f}s{c2 / t2:>5.2f}{t1 / t2:>8.2f}x"
            f"{_mark(t1 / t2 >= SPEEDUP_TARGET):>7}{m2 / 2**30:>6.2f}GB{m1 / 2**30:>5.2f}GB"
            f"{_mark(peak <= MEMORY_TARGET):>7}",
            flush=True,
        )
    child = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 2**20
    print(f"   largest single process of this run (getrusage RUSAGE_CHILDREN): {child:.2f} GB")
    viewer_section(folder)


def viewer_section(folder: Path) -> None:
    """``probe_viewer.py`` on the set: time to the first table rows and to the shown metric's
    results, the longest UI-thread stall (targets: rows <= 5 s, stall <= 100 ms)."""
    cmd = [
        sys.executable, str(ROOT / "benchmarks" / "probe_viewer.py"),
        "--gt", str(folder / "gt.zip"), "--det", str(folder / "det.zip"), "--limit", "900",
    ]  # fmt: skip
    env = {**_env(), "QT_QPA_PLATFORM": "offscreen"}
    load = os.getloadavg()[0]
    t0 = time.perf_counter()
    out = subprocess.run(cmd, env=env, cwd=ROOT, capture_output=True, text=True)
    if out.returncode != 0:
        print(f"   viewer probe failed ({out.returncode}): {out.stderr[-1000:]}")
        return
    got = json.loads(out.stdout.strip().splitlines()[-1])
    rows, stall = got["first_rows_s"], got["max_stall_ms"]
    print(
        f"   viewer (detlens view, offscreen, load {load:.1f}, {time.perf_counter() - t0:.0f} s "
        f"in all): table rows after {rows:.1f} s (target <= 5 s: {_mark(rows <= 5)}), "
        f"set read and shown after {got.get('loaded_s') or float('nan'):.1f} s, "
        f"{got['metric']} results after {got['evaluated_s'] or float('nan'):.1f} s, longest "
        f"UI-thread stall {stall:.0f} ms at {got['stall_at_s']:.1f} s (target <= 100 ms: "
        f"{_mark(stall <= 100)}), {got['stalls_over_100ms']} stall(s) over 100 ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--full", action="store_true", help="the 25,000-image TextOCR set")
    parser.add_argument("--runs", type=int, default=5, help="runs per dense figure (median)")
    parser.add_argument("--only", action="append", default=[], help="metric id (repeatable)")
    parser.add_argument(
        "--pairs", type=int, help="alternated --workers 1 / 2 runs per metric (3; --full: 1)"
    )
    parser.add_argument("--skip-dense", action="store_true")
    parser.add_argument("--skip-textocr", action="store_true")
    args = parser.parse_args()
    if args.pairs is not None and args.pairs < 1:
        parser.error("--pairs: give 1 or more")
    load = os.getloadavg()
    print(f"load average at start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    if not args.skip_dense:
        dense_section(args.runs, set(args.only))
    if not args.skip_textocr:
        pairs = args.pairs or (1 if args.full else 3)
        textocr_section(25_000 if args.full else 2_500, args.full, set(args.only), pairs)
    load = os.getloadavg()
    print(f"load average at end: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main()
