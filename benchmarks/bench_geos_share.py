"""How much of the 1.5 x floor budget the GEOS calls alone take, per row (issue 27, point 6).

    python benchmarks/bench_geos_share.py                        # every row, medians of 5
    python benchmarks/bench_geos_share.py --only curved_iou --runs 7

``bench_vs_base.py`` asks each whole ``detlens eval`` process to finish within 1.5 x the
floor (Python importing numpy and shapely and reading the two zips). What detlens may add
to the floor is then half of it. For each row of ``bench_sidebyside.rows`` this prints,
medians of ``--runs`` alternating runs:

- the floor's whole process (seconds) and the budget, 0.5 x the floor;
- inside one ``detlens eval ... -q`` process, the seconds spent in GEOS's set operations
  (``shapely.intersection``, ``union``, ``difference``) and validity tests
  (``shapely.is_valid``), timed by wrapping those functions before the engine is imported;
- that GEOS time as a share of the budget, and "over" where it alone exceeds the budget:
  such a row cannot meet 1.5 x the floor while its areas come from GEOS, whatever the rest
  of the engine costs;
- the rest: what detlens adds to the floor besides GEOS: the process's time after numpy and
  shapely are imported (the engine's own imports, reading, matching, printing; GEOS taken
  out), less the floor's own reading of the files (the floor's time less that of a process
  that only imports numpy and shapely), and its share of the budget. The wrapping adds a
  few microseconds a call (a vectorized engine makes few calls).

detlens reads at least the bytes the floor reads, so what it adds to the floor is at least
its GEOS time: a row whose GEOS share is above 1 cannot be within 1.5 x the floor.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_protocols import _env  # noqa: E402  (one environment)
from bench_sidebyside import Row, _commands, rows  # noqa: E402  (one list of rows)

WRAPPED = ("intersection", "union", "difference", "is_valid")

PROBE = """
import contextlib, io, sys, time
import shapely
spent = [0.0]
def wrap(name):
    f = getattr(shapely, name)
    def timed(*a, **k):
        t = time.perf_counter()
        try:
            return f(*a, **k)
        finally:
            spent[0] += time.perf_counter() - t
    setattr(shapely, name, timed)
    for mod in (shapely.set_operations, shapely.predicates):
        if hasattr(mod, name):
            setattr(mod, name, timed)
for name in sys.argv[1].split(","):
    wrap(name)
t0 = time.perf_counter()
from metrics.cli.main import main
with contextlib.redirect_stdout(io.StringIO()):
    try:
        main(sys.argv[2:])
    except SystemExit:
        pass
print(spent[0], time.perf_counter() - t0)
"""


def _wall(cmd: list[str]) -> float:
    t0 = time.perf_counter()
    done = subprocess.run(cmd, env=_env(), capture_output=True, text=True, cwd=ROOT)
    if done.returncode not in (0, 1):
        raise SystemExit(f"failed ({done.returncode}): {' '.join(cmd)}\n{done.stderr[-2000:]}")
    return time.perf_counter() - t0


def _geos(ours: list[str]) -> tuple[float, float]:
    args = ours[ours.index("metrics.cli") + 1 :]
    cmd = [sys.executable, "-c", PROBE, ",".join(WRAPPED), *args]
    done = subprocess.run(cmd, env=_env(), capture_output=True, text=True, cwd=ROOT)
    if done.returncode != 0:
        raise SystemExit(f"probe failed: {' '.join(args)}\n{done.stderr[-2000:]}")
    geos, engine = done.stdout.split()[-2:]
    return float(geos), float(engine)


IMPORTS = [sys.executable, "-c", "import numpy, shapely"]


def measure(row: Row, runs: int) -> tuple[float, float, float]:
    """Medians of the floor's whole process, of the GEOS seconds inside detlens and of the
    rest of what detlens adds to the floor (its time after numpy and shapely are imported,
    GEOS taken out, less the floor's reading of the files)."""
    ours, floor = _commands(row)
    _wall(floor)
    _geos(ours)  # warm-up: byte code, file cache
    floors, geos, rest = [], [], []
    for _ in range(runs):
        f, bare = _wall(floor), _wall(IMPORTS)
        floors.append(f)
        g, engine = _geos(ours)
        geos.append(g)
        rest.append(engine - g - max(f - bare, 0.0))
    return statistics.median(floors), statistics.median(geos), statistics.median(rest)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=5, help="alternating runs per row (default 5)")
    ap.add_argument("--only", action="append", default=[], help="a metric id (repeatable)")
    args = ap.parse_args(argv)
    todo = [r for r in rows(set(args.only)) if r.metric != "all"]
    print(f"{'row':<44}{'floor':>7}{'budget':>8}{'GEOS':>7}{'share':>7}{'rest':>8}{'share':>7}")
    over = rest_over = 0
    for row in todo:
        floor, geos, rest = measure(row, args.runs)
        budget = 0.5 * floor
        flag = "over" if geos > budget else ""
        over += bool(flag)
        rest_over += rest > budget
        print(
            f"{row.label:<44}{floor:>6.3f}s{budget:>7.3f}s{geos:>6.3f}s{geos / budget:>7.2f}"
            f"{rest:>7.3f}s{rest / budget:>7.2f}  {flag}",
            flush=True,
        )
    print(f"\n{over} of {len(todo)} rows: GEOS alone takes more than 0.5 x the floor")
    print(f"{rest_over} of {len(todo)} rows: the rest of what detlens adds takes more than that")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
