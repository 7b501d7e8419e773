"""The analysis options of ``detlens eval`` (--sweep, --attribution, --instances): their
arguments only, so that building the parser imports none of the analysis
(``metrics.cli.analysis`` runs them)."""

from __future__ import annotations

import argparse

from metrics.cli.commands import int_in

__all__ = ["add_arguments"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--sweep",
        action="store_true",
        help="recall, precision and H-mean of every metric at many confidence thresholds, "
        "and the best one (chosen on the evaluated set itself)",
    )
    p.add_argument(
        "--sweep-points",
        type=int_in(0, 100_000),
        default=None,
        metavar="N",
        help="thresholds of --sweep: N spread over the distinct confidences (default 100; "
        "0 = every distinct confidence)",
    )
    p.add_argument(
        "--attribution",
        action="store_true",
        help="where the H-mean goes: each error class fixed by an oracle, the gain",
    )
    p.add_argument("--instances", help="write one row per GT and detection (.csv or .jsonl)")
