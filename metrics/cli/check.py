"""``detlens check``: report what in a dataset makes the official scripts fail or silently
changes the numbers, grouped by kind, each finding with file and 1-based line.

Exit status: 0 when nothing is above info, 1 when there are warnings or errors, 2 for a
mistake in the command line (or inputs that cannot be opened at all).
"""

from __future__ import annotations

import argparse
import json
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from metrics.check import Finding, Level, check_dataset, exit_code
from metrics.cli.commands import MAX_COUNT, Subcommands, int_in
from metrics.cli.format_options import IMAGES_HELP, add_side_options, load_options
from metrics.core.jsonvalue import JSONObject
from metrics.core.model import Dataset
from metrics.io.atomic import atomic_write, output_problem
from metrics.io.demo import demo_paths
from metrics.io.reader import load_dataset


def add_check_command(sub: Subcommands) -> None:
    p = sub.add_parser(
        "check",
        help="check a dataset (GT, detections, images) for what makes metrics fail or lie",
        description="Report, per file and line, everything that makes the official scripts "
        "fail or silently changes their numbers, and why detections might score 0. Without "
        "--gt the bundled demo data is checked. Exit status: 0 nothing above info, 1 "
        "warnings or errors found, 2 option mistakes.",
    )
    add_side_options(p, box_type=True)
    p.add_argument("--images", help=IMAGES_HELP)
    p.add_argument("--json", help="write every finding as JSON to this file")
    p.add_argument(
        "--show",
        type=int_in(0, MAX_COUNT),
        default=5,
        metavar="N",
        help="findings shown per kind (default 5)",
    )
    p.set_defaults(func=cmd_check)


def _load(args: argparse.Namespace) -> Dataset:
    gt, det, images = args.gt, args.det, args.images
    if gt is None and det is None:
        paths = demo_paths()
        gt, det, images = paths.gt, paths.det_b, images or paths.images
    elif gt is None:
        raise ValueError("--det given without --gt")
    return load_dataset(gt, det, images=images, options=load_options(args))


def cmd_check(args: argparse.Namespace) -> int:
    if args.show < 0:
        raise ValueError("--show must be 0 or more")
    if args.images and not Path(args.images).is_dir():
        raise ValueError(f"--images {args.images}: not a folder")
    if args.json:
        problem = output_problem(args.json, [args.gt, args.det, args.images])
        if problem:
            raise ValueError(problem)
    ds = _load(args)
    with warnings.catch_warnings():  # numpy's "Mean of empty slice" is no finding
        warnings.simplefilter("ignore", RuntimeWarning)
        findings = check_dataset(ds)
    print_report(ds, findings, show=args.show)
    if args.json:
        atomic_write(args.json, json.dumps(as_json(ds, findings), indent=1) + "\n")
    return exit_code(findings)


def as_json(ds: Dataset, findings: Sequence[Finding]) -> JSONObject:
    return {
        "gt": ds.gt_path,
        "det": ds.det_path,
        "images": ds.images_path,
        "counts": {lv.value: sum(f.level is lv for f in findings) for lv in Level},
        "exit_code": exit_code(findings),
        "findings": [f.as_dict() for f in findings],
    }


def print_report(
    ds: Dataset, findings: Sequence[Finding], *, show: int = 5, out: TextIO | None = None
) -> None:
    """Counts, then the findings grouped by kind (worst kind first), ``show`` of each."""
    out = out or sys.stdout
    n_gt = sum(len(s.gt) for s in ds)
    n_det = sum(len(s.det) for s in ds)
    counts = {lv: sum(f.level is lv for f in findings) for lv in Level}
    print(f"{len(ds)} images, {n_gt} GT boxes, {n_det} detections", file=out)
    print(", ".join(f"{n} {lv.value}(s)" for lv, n in counts.items()), file=out)
    groups: dict[tuple[Level, str], list[Finding]] = {}
    for f in findings:
        groups.setdefault((f.level, f.code), []).append(f)
    for (level, code), items in groups.items():
        files = len({f.source for f in items if f.source})
        where = f" in {files} file(s)" if files > 1 else ""
        print(f"\n{level.value} {code}: {len(items)}{where}", file=out)
        n = len(items) if code.startswith("metric") else show  # few, and all wanted
        for f in items[:n]:
            print(f"  {f}", file=out)
        if len(items) > n:
            print(f"  ... and {len(items) - n} more", file=out)
