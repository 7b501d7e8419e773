"""Every metric as a whole process within 1.5x the floor, alternating with a previous commit.

    python benchmarks/bench_vs_base.py                    # against HEAD~1, medians of 5
    python benchmarks/bench_vs_base.py --base main --runs 7 --only tiou --only deteval

For one reference per metric x data set on IC15 PixelLink, IC13, Total-Text and CTW1500
(``bench_sidebyside.rows``: the word + text-line pair included, ``--metric all`` left out),
this runs in turn, in one loop so that the machine's state is shared:

- the **floor**: a process that imports numpy and shapely and reads the input files' bytes;
- ``detlens eval --gt G --det D [--gt-lines L] --metric M -q`` of this tree;
- the same command of ``--base`` (a commit, branch or ``HEAD~N``), checked out in a
  temporary git worktree (removed at the end);

each a whole process with byte code cached (one warm-up run of each first), all with this
interpreter. Per row it
prints the medians, this tree / floor, base / floor, this tree / base, and "met" when this
tree's median is at most ``1.5 x`` the floor's (issue 27), else "MISSED". The ratios are
taken within the run, so a loaded machine moves them less than the seconds. The load
average is printed at the start and the end.

With ``pip install -e`` every start of this interpreter (the floor's too) imports the
editable install's finder from a ``.pth`` file (pathlib, re, urllib.parse: about 10 ms of
CPU); a plain ``pip install .`` has none. It is said at the start when it is there: it adds
the same time to the floor and to detlens, so a non-editable install lowers the floor and
raises the ratios a little (measured: IC15 ``tiou`` 2.20x -> 2.63x wall, 2.55x -> 2.73x CPU
in one loaded run).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_sidebyside import Row, _commands, rows  # noqa: E402  (one list of rows)

TARGET = 1.5  # x the floor


def _env(tree: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # byte code cached, as a user runs it
    env["PYTHONPATH"] = str(tree)
    return env


def _time(cmd: list[str], tree: Path) -> float:
    t0 = time.perf_counter()
    done = subprocess.run(cmd, env=_env(tree), capture_output=True, text=True, cwd=tree)
    elapsed = time.perf_counter() - t0
    if done.returncode not in (0, 1):  # 1: a metric scored no image (still a whole run)
        raise SystemExit(f"failed ({done.returncode}): {' '.join(cmd)}\n{done.stderr[-2000:]}")
    return elapsed


def measure(row: Row, base: Path, runs: int) -> dict[str, float]:
    """Medians of the floor, this tree's and the base's command, run in turn."""
    ours, floor = _commands(row)
    runs_of: dict[str, tuple[list[str], Path]] = {
        "floor": (floor, ROOT),
        "ours": (ours, ROOT),
        "base": (ours, base),
    }
    for cmd, tree in runs_of.values():
        _time(cmd, tree)  # warm-up: byte code, file cache
    times: dict[str, list[float]] = {name: [] for name in runs_of}
    for _ in range(runs):
        for name, (cmd, tree) in runs_of.items():
            times[name].append(_time(cmd, tree))
    return {name: statistics.median(t) for name, t in times.items()}


def report(row: Row, m: dict[str, float]) -> bool:
    ok = m["ours"] <= TARGET * m["floor"]
    print(
        f"{row.label:<40}{m['floor']:>7.2f}s{m['ours']:>7.2f}s{m['base']:>7.2f}s"
        f"{m['ours'] / m['floor']:>7.2f}{m['base'] / m['floor']:>7.2f}"
        f"{m['ours'] / m['base']:>7.2f}  {'met' if ok else 'MISSED'}",
        flush=True,
    )
    return ok


def _say_setting() -> None:
    load = os.getloadavg()
    print(f"load average: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}", flush=True)
    if any(m.startswith("__editable__") for m in sys.modules):
        print(
            "editable install: its import finder starts with every process (the floor's too)",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", default="HEAD~1", help="the commit to alternate with")
    parser.add_argument("--runs", type=int, default=5, help="runs per command (median)")
    parser.add_argument("--only", action="append", default=[], help="metric id (repeatable)")
    args = parser.parse_args()
    todo = [r for r in rows(set(args.only)) if r.metric != "all"]
    rev = subprocess.run(
        ["git", "rev-parse", "--short", args.base], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    if not rev:
        raise SystemExit(f"--base {args.base}: not a commit of this repository")
    with tempfile.TemporaryDirectory(prefix="detlens-base-") as scratch:
        base = Path(scratch) / "tree"
        subprocess.run(
            ["git", "worktree", "add", "--detach", str(base), rev],
            cwd=ROOT,
            check=True,
            capture_output=True,
        )
        try:
            print(f"this tree against {args.base} ({rev}); medians of {args.runs}", flush=True)
            _say_setting()
            print(
                f"{'row':<40}{'floor':>8}{'ours':>8}{'base':>8}{'/floor':>7}{'b/floor':>7}"
                f"{'/base':>7}",
                flush=True,
            )
            met = sum(report(row, measure(row, base, args.runs)) for row in todo)
        finally:
            subprocess.run(
                ["git", "worktree", "remove", "--force", str(base)], cwd=ROOT, check=False
            )
    print(f"\n{met} of {len(todo)} within {TARGET} x the floor (whole process, byte code cached)")
    _say_setting()


if __name__ == "__main__":
    main()
