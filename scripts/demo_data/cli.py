"""Command line of the demo data generator: ``[--check] [--out DIR]``."""

from __future__ import annotations

import argparse
from pathlib import Path

from .check import self_check
from .config import DEFAULT_OUT
from .writer import build_scenes, write_dataset

DESCRIPTION = "Generate the bundled detlens demo dataset into ``resources/demo/``."


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=DESCRIPTION)
    parser.add_argument("--check", action="store_true", help="print the self-check")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output folder")
    args = parser.parse_args(argv)
    scenes = build_scenes()
    write_dataset(args.out, scenes)
    print(f"wrote {len(scenes)} samples to {args.out}")
    return self_check(scenes, args.out) if args.check else 0
