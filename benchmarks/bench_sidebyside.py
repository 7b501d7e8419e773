"""Whole-process ratios against the official scripts, side by side, in one run.

    python benchmarks/bench_sidebyside.py                       # every row, medians of 5
    python benchmarks/bench_sidebyside.py --official /src --runs 7
    python benchmarks/bench_sidebyside.py --only tedeval --only all

For one reference file per metric x data set of ``../shared/reference`` on IC15 PixelLink,
IC13, Total-Text and CTW1500 (the word + text-line pair included; the toolkits' protocols on
the scored detections of the same images), plus ``--metric all`` on IC15 PixelLink, this
runs alternately, in one loop so that the machine's state is shared:

- ``detlens eval --gt G --det D [--gt-lines L] --metric M --quiet`` as a whole process
  (interpreter start, imports, reading, evaluation), byte code cached
  (``PYTHONDONTWRITEBYTECODE`` removed, one warm-up run first);
- the **floor**: a process that imports numpy and shapely and reads the same input files'
  bytes, doing nothing else;
- the **official** command line, when its code is found under ``--official DIR`` (or
  ``$DETLENS_OFFICIAL``): ``DIR/TIoU-metric`` (``script.py``, ``Word_Text-Line/script.py``,
  ``curved-tiou/script.py``, run with ``--python2``), ``DIR/TedEval/script.py``,
  ``DIR/CLEval/script.py`` (the paper-era code), ``DIR/deteval/script.py`` (RRC TL2p) and the
  ``cleval`` command (pip ``cleval`` 0.1.1) on ``PATH``, as in ``TIMINGS.md``. Each runs
  with the reference file's own ``command`` (IC13's ``-p='{"LTRB": true}'``, CLEval's
  ``--E2E`` and ``--BOX_TYPE`` included), its ``shared/...`` paths made absolute. The
  protocols whose reference came from a conversion step or a toolkit's evaluator called in
  process (Total-Text DetEval / VOC, CTW1500, MMOCR, PaddleOCR) have no plain command line.

Where the official code is not found, it says so ("official code not found: ...");
where an official command fails, it prints "official command failed (row): exit N: <its
last line>" and goes on. Such rows use the documented figures instead, labelled:
``TIMINGS.md`` (whole process, median of 3, on the reference machine) where the file has one,
else the reference's ``runtime_s`` (the official evaluation call alone, no interpreter start,
so the harder comparison for detlens).

Per row it prints the medians, detlens / floor (a ratio within the run, robust to the
machine's load), the ratio official / detlens, the target max(official / 5, 1.5 x floor) and
whether it was met; ``--metric all`` on IC15 has the fixed target 1.2 s. The documented
official figures were taken on an idle machine: compare them only with an idle run.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_protocols import FLOOR, _env  # noqa: E402  (one floor script, one environment)

SHARED = Path(os.environ.get("DETLENS_SHARED", ROOT.parent / "shared"))
DATASETS = {"ic15": "pixellink", "ic13": "original", "totaltext": "baseline", "ctw1500": "det"}
SCORED = "scored"  # MMOCR / PaddleOCR run on the scored detections of the same images
ALL_TARGET = 1.2  # s, ``--metric all`` on IC15 PixelLink (issue 11)

# TIMINGS.md, "Process wall time of the plain official command line", medians of 3
TIMINGS = {
    ("ic15", "pixellink", "ic15_iou"): 1.48,
    ("ic15", "pixellink", "siou"): 1.48,
    ("ic15", "pixellink", "tiou"): 1.48,
    ("ic15", "pixellink", "wordline_iou"): 2.02,
    ("ic15", "pixellink", "wordline_tiou"): 2.02,
    ("ic15", "pixellink", "tedeval"): 0.88,
    ("ic15", "pixellink", "cleval_det"): 5.54,
    ("ic15", "pixellink", "cleval_legacy_det"): 1.29,
    ("ic13", "original", "deteval"): 0.23,
    ("totaltext", "baseline", "curved_iou"): 1.88,
    ("totaltext", "baseline", "curved_siou"): 1.88,
    ("totaltext", "baseline", "curved_tiou"): 1.88,
    ("ctw1500", "det", "curved_iou"): 4.17,
    ("ctw1500", "det", "curved_siou"): 4.17,
    ("ctw1500", "det", "curved_tiou"): 4.17,
}

# Where each official implementation lives under --official DIR (TIMINGS.md's folders); the
# command line itself is the reference file's own ``command`` (its parameters included, e.g.
# IC13's ``-p='{"LTRB": true}'`` or CLEval's ``--E2E``), with its paths made absolute.
FOLDERS = {
    "ic15_iou": "TIoU-metric",
    "siou": "TIoU-metric",
    "tiou": "TIoU-metric",
    "wordline_iou": "TIoU-metric/Word_Text-Line",
    "wordline_tiou": "TIoU-metric/Word_Text-Line",
    "curved_iou": "TIoU-metric",
    "curved_siou": "TIoU-metric",
    "curved_tiou": "TIoU-metric",
    "tedeval": "TedEval",
    "deteval": "deteval",
    "cleval_det": "",
    "cleval_e2e": "",
    "cleval_legacy_det": "CLEval",
    "cleval_legacy_e2e": "CLEval",
}
# the curved script finds its dataset by the GT file's name: "cd <dir containing G as 'N'> && "
_LINKED = re.compile(r"^cd <dir containing (\S+) as '([^']+)'> && ")


@dataclass
class Row:
    label: str
    dataset: str
    metric: str  # detlens id (or "all")
    inputs: dict[str, str]
    runtime_s: float | None = None
    command: str = ""  # the reference file's official command line
    official_cmd: tuple[list[str], str] | None = None  # argv, cwd
    official_failed: str = ""  # why the official command could not be timed
    times: dict[str, list[float]] = field(default_factory=dict)


def _time(cmd: list[str], cwd: Path | str = ROOT) -> float:
    t0 = time.perf_counter()
    done = subprocess.run(cmd, env=_env(), capture_output=True, text=True, cwd=cwd)
    elapsed = time.perf_counter() - t0
    if done.returncode != 0:
        raise SystemExit(f"failed ({done.returncode}): {' '.join(cmd)}\n{done.stderr[-2000:]}")
    return elapsed


def _path(rel: str) -> str:
    return str(SHARED.parent / rel)


def rows(only: set[str]) -> list[Row]:
    """One reference per metric x data set (the main detections first), then ``all``."""
    out: dict[tuple[str, str], Row] = {}
    sys.path.insert(0, str(ROOT))
    from metrics.catalogue.registry import resolve  # light: the catalogue only

    for f in sorted((SHARED / "reference").glob("*.json")):
        dataset, detset, _ = f.name.removesuffix(".json").split("__")
        if f.name.endswith(".FAILED.json") or dataset not in DATASETS:
            continue
        ref = json.loads(f.read_text())
        try:
            metric = resolve(ref["metric"]).id
        except KeyError:
            continue
        main_set = detset == DATASETS[dataset] or (
            metric.startswith(("mmocr", "paddle")) and detset.startswith(SCORED)
        )
        if metric.startswith("hiertext") or (only and metric not in only):
            continue
        key = (dataset, metric)
        if key in out and not main_set:
            continue
        inputs = {k: v for k, v in ref["inputs"].items() if not k.endswith("md5")}
        out[key] = Row(
            f"{dataset}/{detset}",
            dataset,
            metric,
            inputs,
            ref.get("runtime_s"),
            str(ref.get("command") or ""),
        )
        out[key].label += f" {metric}"
    found = sorted(out.values(), key=lambda r: (list(DATASETS).index(r.dataset), r.metric))
    if not only or "all" in only:
        ic15 = {"gt": "shared/data/ic15/gt.zip", "det": "shared/data/ic15/det_pixellink.zip"}
        found.append(Row("ic15/pixellink --metric all", "ic15", "all", ic15))
    return found


def official_command(
    row: Row, root: Path | None, py2: str, py3: str, scratch: Path
) -> tuple[list[str], str] | str:
    """The official argv and folder to run it in (the reference's own command line, its
    paths made absolute), or what was not found."""
    if row.metric not in FOLDERS:
        return "no plain command line for this protocol (see the reference's command)"
    command, gt_link = row.command, None
    linked = _LINKED.match(command)
    if linked:
        command, gt_link = command[linked.end() :], linked.groups()
    if not command or any(c in command for c in ("&&", "(", "<")):
        return f"no plain command line in the reference ({row.metric}: {command!r})"
    argv = shlex.split(command)
    found = _program(argv, FOLDERS[row.metric], root, py2, py3)
    if isinstance(found, str):
        return found
    argv[0], cwd = found[0], found[1] or str(scratch)
    if gt_link is not None:
        source, name = gt_link
        link = scratch / name
        if not link.exists():
            link.symlink_to(_path(source))
        argv = [a.replace(f"={name}", f"={link}") for a in argv]
    return [_absolute(a) for a in argv], cwd


def _program(
    argv: list[str], folder: str, root: Path | None, py2: str, py3: str
) -> tuple[str, str] | str:
    """The executable and the folder to run in ("" for a scratch folder), or what is missing."""
    if argv[0] == "cleval":
        exe = shutil.which("cleval")
        return (exe, "") if exe else "the cleval command (pip cleval 0.1.1) on PATH"
    if root is None:
        return f"{folder}/ (give --official DIR or set DETLENS_OFFICIAL)"
    interpreter = py2 if argv[0].startswith("python2") else py3
    if shutil.which(interpreter) is None:
        return f"the interpreter {interpreter} (give --python2 / --python3)"
    script = root / folder / argv[1]
    return (interpreter, str(root / folder)) if script.is_file() else str(script)


def _absolute(arg: str) -> str:
    """``-g=shared/data/x.zip`` or ``shared/data/x.zip`` with the shared folder's real path."""
    head, sep, tail = arg.partition("=")
    if sep and tail.startswith("shared/"):
        return f"{head}={_path(tail)}"
    return _path(arg) if arg.startswith("shared/") else arg


def official_figure(row: Row) -> tuple[float | None, str]:
    """Measured median, else TIMINGS.md, else the reference's runtime_s; with its label."""
    if row.times.get("official"):
        return statistics.median(row.times["official"]), "measured"
    _, detset = row.label.split(" ")[0].split("/")
    documented = TIMINGS.get((row.dataset, detset, row.metric))
    if documented is not None:
        return documented, "TIMINGS.md"
    if row.runtime_s:
        return float(row.runtime_s), "runtime_s"
    return None, "-"


def _commands(row: Row) -> tuple[list[str], list[str]]:
    gt, det = _path(row.inputs["gt"]), _path(row.inputs["det"])
    ours = [sys.executable, "-m", "metrics.cli", "eval", "--gt", gt, "--det", det, "-q"]
    files = [gt, det]
    if "gt_textline" in row.inputs:
        ours += ["--gt-lines", _path(row.inputs["gt_textline"])]
        files.append(_path(row.inputs["gt_textline"]))
    ours += ["--metric", row.metric]
    return ours, [sys.executable, "-c", FLOOR, *files]


def _failed(cmd: list[str], cwd: str) -> str:
    """Run the official command once (its warm-up); why it failed, or ""."""
    try:
        done = subprocess.run(cmd, env=_env(), capture_output=True, text=True, cwd=cwd)
    except OSError as exc:
        return f"{cmd[0]}: {exc.strerror}"
    if done.returncode == 0:
        return ""
    last = (done.stderr.strip() or done.stdout.strip() or "no output").splitlines()[-1]
    return f"exit {done.returncode}: {last[:160]}"


def measure(row: Row, runs: int) -> None:
    ours, floor = _commands(row)
    _time(ours)  # warm-up: byte code caches, file cache
    if row.official_cmd:
        row.official_failed = _failed(*row.official_cmd)
        if row.official_failed:
            row.official_cmd = None
            print(f"official command failed ({row.label}): {row.official_failed}", flush=True)
    row.times = {"detlens": [], "floor": [], "official": []}
    for _ in range(runs):
        row.times["detlens"].append(_time(ours))
        row.times["floor"].append(_time(floor))
        if row.official_cmd:
            row.times["official"].append(_time(*row.official_cmd))


def report(row: Row) -> bool:
    ours = statistics.median(row.times["detlens"])
    floor = statistics.median(row.times["floor"])
    official, source = official_figure(row)
    if row.metric == "all":
        target = ALL_TARGET
        source, ratio = "fixed target", "-"
    else:
        target = max((official or 0.0) / 5, 1.5 * floor)
        ratio = f"{official / ours:.1f}x" if official else "-"
    ok = ours <= target
    off = f"{official:.2f}s" if official else "-"
    print(
        f"{row.label:<42}{ours:>8.2f}s{off:>9}{source:>12}{floor:>7.2f}s{ours / floor:>6.1f}"
        f"{ratio:>7}{target:>8.2f}s  {'met' if ok else 'MISSED'}",
        flush=True,
    )
    return ok


STARTUP = (("--help",), 0.15), (("eval", "--help"), 0.2), (("eval", "--list-metrics"), 0.2)


def startup(runs: int) -> None:
    """``detlens --help`` and ``eval --help``: whole process, medians (targets of issue 11),
    beside a bare interpreter and one that imports numpy and shapely."""
    bare = [sys.executable, "-c", "pass"]
    numpy = [sys.executable, "-c", "import numpy, shapely"]
    cmds = [[sys.executable, "-m", "metrics.cli", *argv] for argv, _ in STARTUP]
    for cmd in (*cmds, bare, numpy):
        _time(cmd)  # warm-up
    times: list[list[float]] = [[] for _ in range(len(cmds) + 2)]
    for _ in range(max(runs, 9)):
        for k, cmd in enumerate((*cmds, bare, numpy)):
            times[k].append(_time(cmd))
    med = [statistics.median(t) for t in times]
    print(
        f"start-up (medians of {max(runs, 9)}): python -c pass {med[-2]:.3f} s, "
        f"import numpy, shapely {med[-1]:.3f} s"
    )
    for (argv, target), m in zip(STARTUP, med, strict=False):
        print(
            f"   detlens {' '.join(argv):<22}{m:>7.3f} s  target {target} s  "
            f"{'met' if m <= target else 'MISSED'}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per command (median)")
    parser.add_argument("--only", action="append", default=[], help="metric id (repeatable)")
    parser.add_argument(
        "--official",
        default=os.environ.get("DETLENS_OFFICIAL"),
        help="folder holding the official implementations (or $DETLENS_OFFICIAL)",
    )
    parser.add_argument("--python2", default="python2.7", help="interpreter of the py2 scripts")
    parser.add_argument("--python3", default="python3", help="interpreter of the py3 scripts")
    parser.add_argument(
        "--no-startup", action="store_true", help="leave out the --help start-up figures"
    )
    args = parser.parse_args()
    if not (SHARED / "reference").is_dir():
        raise SystemExit(f"no reference folder at {SHARED} (set DETLENS_SHARED)")
    root = Path(args.official) if args.official else None
    if not args.no_startup:
        startup(args.runs)
    load = os.getloadavg()
    print(f"load average at start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; runs {args.runs}")
    with tempfile.TemporaryDirectory() as tmp:
        todo = rows(set(args.only))
        missing: dict[str, None] = {}
        for row in todo:
            found = official_command(row, root, args.python2, args.python3, Path(tmp))
            if isinstance(found, str):
                if row.metric != "all":
                    missing.setdefault(f"official code not found: {found} ({row.metric})")
            else:
                row.official_cmd = found
        for line in missing:
            print(line)
        print(
            f"\n{'data set / metric':<42}{'detlens':>9}{'official':>9}{'(source)':>12}"
            f"{'floor':>8}{'/floor':>6}{'ratio':>7}{'target':>9}"
        )
        met = 0
        for row in todo:
            measure(row, args.runs)
            met += report(row)
    load = os.getloadavg()
    print(
        f"\n{met} of {len(todo)} within target; target = max(official / 5, 1.5 x floor) "
        f"(--metric all: {ALL_TARGET} s). official source: measured here, else TIMINGS.md "
        "(whole process, reference machine), else runtime_s (official call alone, no "
        f"interpreter start). Load average at end: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
    )


if __name__ == "__main__":
    main()
