"""The analysis options of ``detlens eval`` (--sweep, --attribution, --instances): their
arguments only, so that building the parser imports none of the analysis
(``metrics.cli.analysis`` runs them)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from metrics.cli.commands import int_in

__all__ = ["SCORE_KEY", "add_arguments", "names_score_threshold"]

# ``--set [METRIC.]score_threshold=X`` keeps the detections of confidence >= X (the loaded
# path, ``metrics.analysis.threshold.KEY``; a test keeps the two names the same)
SCORE_KEY = "score_threshold"


def names_score_threshold(items: Sequence[str]) -> bool:
    """Whether a ``--set`` item sets a score threshold (without importing the analyses: the
    loaded path reads and checks its value)."""
    return any(
        sep and key.strip().rpartition(".")[2] == SCORE_KEY
        for key, sep, _ in (item.partition("=") for item in items)
    )


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
