"""``detlens`` command line: ``detlens eval`` over the metric engine.

Other packages add subcommands through the ``detlens.commands`` entry-point group (the viewer
adds ``view``), so the engine never imports them. Start-up is kept short: this module imports
no metric family, numpy or shapely (``cmd_eval`` imports the engine when it runs), other
subcommands are registered by name and imported when they run
(``metrics.cli.commands.add_command``), and the entry points are only looked up when the
command asked for is not one of the engine's own.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import os
import sys
from collections.abc import Sequence
from typing import TextIO

from metrics.catalogue.registry import METRICS
from metrics.cli.analysis_args import add_arguments as add_analysis_arguments
from metrics.cli.commands import (
    CommandParser,
    Subcommands,
    UserError,
    add_command,
    add_plugins,
    input_error,
)
from metrics.cli.format_options import (
    CONVERT_HELP,
    CSV_HELP,
    add_policy_option,
    add_set_option,
    add_side_options,
    add_workers_option,
)
from metrics.core.logs import configure_later
from metrics.run.interrupts import interrupted

# metrics.core.model.BoxType's values, spelled out so that ``eval --help`` needs no numpy (a test
# checks that they agree)
BOX_TYPES = ("LTRB", "QUAD", "POLY")


def _add_eval(sub: Subcommands) -> None:
    p = sub.add_parser(
        "eval",
        help="evaluate detections against GT with one or more metrics",
        description="Evaluate detections against ground truth. Without --gt and "
        "--det the bundled demo data is used (detector B, the one with failures to show).",
    )
    add_side_options(p, lines_and_images=True, box_type=True)
    p.add_argument(
        "--metric",
        action="append",
        default=None,
        help="metric id or alias, repeatable or comma-separated; 'all' (default) "
        f"runs every metric that applies. Ids: {', '.join(METRICS)}",
    )
    add_set_option(p)
    add_policy_option(p)
    p.add_argument("--json", help="write the results as JSON to this file")
    p.add_argument("--csv", help=CSV_HELP)
    p.add_argument(
        "--evidence",
        action="store_true",
        help="with --json: also write the per-instance evidence (verdicts, matches, regions, "
        "metric-specific evidence such as PCC)",
    )
    add_analysis_arguments(p)
    add_workers_option(p)
    p.add_argument("--quiet", "-q", action="store_true", help="no table, no warnings")
    p.add_argument(
        "--list-metrics",
        action="store_true",
        help="list every metric: what it computes, the official code it reproduces and the "
        "datasets papers use it on; then exit",
    )
    p.add_argument(
        "--describe",
        metavar="ID",
        help="print a metric's card (what it computes, its source, credit formula, inputs) "
        "and each parameter with its default, accepted values and meaning; then exit",
    )
    p.set_defaults(func=cmd_eval)


def cmd_eval(args: argparse.Namespace) -> int:
    """``detlens eval`` (``metrics.cli.eval_cmd``, imported when it runs)."""
    if args.list_metrics or args.describe:
        from metrics.cli.describe import describe, list_metrics

        if args.describe:
            describe(args.describe)
        else:
            list_metrics()
        return 0
    from metrics.cli.eval_cmd import cmd_eval as run

    return run(args)


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The ``detlens`` parser. Subcommands other than ``eval``: one ``add_command`` line each
    (``metrics.cli.commands``), imported only when they run; the plugins' entry points are
    looked up unless ``argv`` names one of the commands added here."""
    parser = CommandParser(
        prog="detlens",
        description="Scene-text detection metrics with the evidence behind every number.",
    )
    parser.add_argument("--verbose", "-v", action="store_true", help="debug logging")
    sub = parser.add_subparsers(dest="command", required=True)
    _add_eval(sub)
    add_command(
        sub,
        "compare",
        "metrics.cli.compare:add_compare_command",
        help="per-image differences of two detectors (or of two metrics on one detector)",
    )
    add_command(
        sub,
        "check",
        "metrics.cli.check:add_check_command",
        help="check a dataset (GT, detections, images) for what makes metrics fail or lie",
    )
    add_command(sub, "convert", "metrics.cli.convert:add_convert_command", help=CONVERT_HELP)
    add_plugins(sub, "detlens.commands", argv)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    quiet = getattr(args, "quiet", False)  # eval --quiet: no warnings either
    level = "DEBUG" if args.verbose else ("ERROR" if quiet else "WARNING")
    if args.verbose:
        _setup_logging(level)
    else:  # a run without warnings never imports logging (metrics.core.logs)
        configure_later(functools.partial(_setup_logging, level))
    shown, sys.stdout = sys.stdout, _ReaderMayLeave(sys.stdout)  # type: ignore[assignment]
    try:
        return int(args.func(args))
    except Exception as exc:
        if interrupted():  # Ctrl-C in an extension's start may come out as another error
            print("detlens: interrupted", file=sys.stderr)
            return 130
        return _failed(exc)
    except KeyboardInterrupt:
        print("detlens: interrupted", file=sys.stderr)
        return 130
    finally:
        if isinstance(sys.stdout, _ReaderMayLeave):
            sys.stdout.finish()
        sys.stdout = shown


class _ReaderMayLeave:
    """Standard output whose reader may stop reading (``detlens eval --json OUT | head``):
    what is printed after that is dropped, so the command still writes its ``--json``,
    ``--csv`` or pictures and ends as it would have, instead of failing on a broken pipe."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self.gone = False

    def write(self, text: str) -> int:
        if not self.gone:
            try:
                return self._stream.write(text)
            except BrokenPipeError:
                self.gone = True
        return len(text)

    def flush(self) -> None:
        if not self.gone:
            try:
                self._stream.flush()
            except BrokenPipeError:
                self.gone = True

    def finish(self) -> None:
        """Flush; after a broken pipe point the descriptor at the null device, so that the
        interpreter's last flush of what is still buffered says nothing either."""
        self.flush()
        if self.gone:
            with contextlib.suppress(OSError, ValueError, AttributeError):
                os.dup2(os.open(os.devnull, os.O_WRONLY), self._stream.fileno())

    def __getattr__(self, name: str) -> object:
        return getattr(self._stream, name)


def _failed(exc: Exception) -> int:
    """Exit code 2 with one line for a user's mistake or bad input; anything else raised."""
    if isinstance(exc, (UserError, KeyError, ValueError, OSError)):  # OSError: a full disk
        msg = exc.args[0] if exc.args and not isinstance(exc, OSError) else str(exc)
        print(f"detlens: error: {_printable(str(msg))}", file=sys.stderr)
        return 2
    return input_error(exc)


def _setup_logging(level: str) -> None:
    """Warnings as ``LEVEL: message`` on standard error, with the control characters of
    file names and ids as escapes."""
    import logging

    class _Printable(logging.Formatter):
        def format(self, record: logging.LogRecord) -> str:
            return _printable(super().format(record))

    logging.basicConfig(level=getattr(logging, level), format="%(levelname)s: %(message)s")
    for handler in logging.getLogger().handlers:
        if type(handler) is logging.StreamHandler:  # basicConfig's (not a test's capture)
            handler.setFormatter(_Printable("%(levelname)s: %(message)s"))


def _printable(text: str) -> str:
    """Control characters of a message (a file name from the input) as escapes."""
    from metrics.core.model import printable  # loaded by then: the command has run

    return printable(text)


if __name__ == "__main__":
    sys.exit(main())
