"""Every speed figure of issue 11 with its target, in one run, and a summary at the end.

    python benchmarks/bench_all.py                    # quick TextOCR-like set (2,500 images)
    python benchmarks/bench_all.py --full --runs 5    # the 25,000-image set (long)
    python benchmarks/bench_all.py --official DIR     # time the official scripts side by side
        [--python2 python2.7] [--python3 python3]     # their interpreters
    python benchmarks/bench_all.py --base main --section floor   # one section, another base

Runs, one after the other, each printing its figures with their targets:

1. ``bench_sidebyside.py``: ``detlens --help`` / ``eval --help``, then every metric on IC15
   PixelLink, IC13, Total-Text and CTW1500 (word + text-line included) and ``--metric all``
   as whole processes beside the floor process and the official figure;
2. ``bench_scale.py``: every metric on the dense sets W50 / W200 / W1000 (<= 3 s), growth of
   the time per instance W250 -> W1000 (<= 1.2), the TextOCR-size set with 1 and 2 workers
   (<= 60 s, <= 4 GB, >= 1.6x) and ``detlens view`` on it;
3. ``bench_viewer.py``: first visit to a 1,000-word image with every layer on (<= 50 ms) and
   the first window (<= 1.5 s);
4. ``bench_analysis.py``: the threshold sweep against one evaluation (<= 3x) and the paired
   bootstrap;
5. ``bench_vs_base.py`` (section ``floor``): every metric on IC15, IC13, Total-Text and
   CTW1500 as a whole process within 1.5x the floor (Python importing numpy + shapely and
   reading the input files, byte code cached), alternating with ``--base`` (default
   ``HEAD~1``, checked out in a temporary git worktree), with the ratios of both.

Each section's output is shown as it comes; the summary repeats every line that carries a
verdict ("met" or "MISSED"), grouped by section, with the counts. Say how loaded the machine
was: the load average is printed at the start and at the end (compare only idle runs with
the documented official figures).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VERDICT = re.compile(r"\b(met|MISSED)\b")
SECTIONS = ("side", "scale", "viewer", "analysis", "floor")  # --section names, in order


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # byte code cached, as a user runs it
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    return env


def section(title: str, argv: list[str]) -> list[str]:
    """Run one benchmark script, echo its output, return its lines that carry a verdict."""
    print(f"\n#### {title}: python {' '.join(argv)}", flush=True)
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, *argv],
        cwd=ROOT,
        env=_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert proc.stdout is not None
    found = []
    for line in proc.stdout:
        print(line, end="", flush=True)
        if VERDICT.search(line):
            found.append(line.rstrip())
    proc.wait()
    if proc.returncode != 0:
        found.append(f"{title}: the script failed (exit {proc.returncode}): MISSED")
    print(f"#### {title}: {time.perf_counter() - t0:.0f} s", flush=True)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per whole-process figure")
    parser.add_argument("--full", action="store_true", help="the 25,000-image TextOCR set")
    parser.add_argument("--official", help="folder holding the official implementations")
    parser.add_argument("--python2", help="interpreter of the official py2 scripts")
    parser.add_argument("--python3", help="interpreter of the official py3 scripts")
    parser.add_argument("--base", default="HEAD~1", help="commit the floor section alternates with")
    parser.add_argument(
        "--section",
        action="append",
        choices=SECTIONS,
        help="run only this section (repeatable; default: every one)",
    )
    args = parser.parse_args()
    load = os.getloadavg()
    print(f"load average at start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    side = ["benchmarks/bench_sidebyside.py", "--runs", str(args.runs)]
    for name in ("official", "python2", "python3"):
        if getattr(args, name):
            side += [f"--{name}", getattr(args, name)]
    scale = ["benchmarks/bench_scale.py", "--runs", str(args.runs)] + (
        ["--full"] if args.full else []
    )
    floor = ["benchmarks/bench_vs_base.py", "--runs", str(args.runs), "--base", args.base]
    sections = {
        "start-up and whole-process ratios": side,
        "dense sets and the TextOCR-size set": scale,
        "viewer": ["benchmarks/bench_viewer.py"],
        "analysis": ["benchmarks/bench_analysis.py"],
        "every metric within 1.5x the floor, against the base": floor,
    }
    chosen = [
        t for key, t in zip(SECTIONS, sections, strict=True) if key in (args.section or SECTIONS)
    ]
    verdicts = {title: section(title, sections[title]) for title in chosen}
    load = os.getloadavg()
    print("\n==== summary: every figure with a target ====")
    total = missed = 0
    for title, lines in verdicts.items():
        n_missed = sum("MISSED" in line for line in lines)
        total, missed = total + len(lines), missed + n_missed
        print(f"-- {title}: {len(lines) - n_missed} of {len(lines)} met")
        for line in lines:
            print(f"   {line.strip()}")
    print(
        f"\n{total - missed} of {total} figures within target. Load average at end: "
        f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
    )


if __name__ == "__main__":
    main()
