"""Subcommands registered by name, their modules imported only when they run.

``detlens --help`` lists every subcommand, but only the one being run (or whose ``--help``
is asked for) is imported. One line per subcommand in ``metrics.cli.main.build_parser``::

    add_command(sub, "check", "metrics.cli.check:add_check_command", help="check a dataset")

The target is a ``module:function`` string; the function is written as if the subparsers
action were passed to it directly (``add_X_command(sub)`` calling
``sub.add_parser("X", description=..., ...)``, adding arguments and
``set_defaults(func=...)``), and is called the first time the subcommand's parser is used.
Its ``add_parser`` keywords other than ``help`` (description, epilog, formatter_class, ...)
are applied then; the ``help`` line shown by ``detlens --help`` is the one given here, so
that listing the commands imports none of them. Plugins (the ``detlens.commands`` entry
points, e.g. the viewer's ``view`` and ``export``) register themselves the same way.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NoReturn, Protocol

from metrics.core.logs import logger

__all__ = [
    "CommandParser",
    "add_command",
    "add_plugins",
    "entry_points",
    "input_error",
    "int_in",
    "positive_int",
]

log = logger("detlens")


class UserError(Exception):
    """A mistake in the command line or the inputs: reported in one line, no traceback."""


MAX_COUNT = 1_000_000
"""Upper bound of ``positive_int`` (images or rows to list)."""
MAX_WORKERS = 64
"""Upper bound of ``--workers`` (each worker is a process with its own copy of a slice)."""


def positive_int(text: str) -> int:
    """An argparse ``type``: a whole number of 1 or more (a count of images, of rows)."""
    return int_in(1, MAX_COUNT)(text)


def int_in(low: int, high: int) -> Callable[[str], int]:
    """An argparse ``type``: a whole number from ``low`` to ``high`` (each numeric option has
    a documented upper bound: a count that large is a typo, and would take hours or all of
    the memory)."""

    def parse(text: str) -> int:
        shown = text if len(text) <= 20 else f"{text[:20]}..."
        try:
            value = int(text[:40])  # longer is out of range anyway (and int() of it slow)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{shown!r} is not a whole number") from None
        if len(text) > 40 or not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{shown}: give {low} to {high:,}")
        return value

    parse.__name__ = f"whole number from {low} to {high}"
    return parse


class CommandParser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose arguments may be added on first use (``setup``)."""

    def __init__(
        self,
        prog: str | None = None,
        *,
        description: str | None = None,
        setup: str | None = None,
    ) -> None:
        """``prog`` and ``description`` as ``ArgumentParser`` takes them (all that
        ``add_parser`` passes on: the subcommands' help and aliases stay with the action)."""
        super().__init__(prog, description=description)
        self._setup = setup

    def error(self, message: str) -> NoReturn:
        """An option mistake: one line and exit 2 (``--help`` shows the usage)."""
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")

    def _load(self) -> None:
        if self._setup is None:
            return
        target, self._setup = self._setup, None
        module, _, function = target.partition(":")
        getattr(importlib.import_module(module), function)(_Deferred(self))

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        self._load()
        return super().parse_known_args(args, namespace)

    def parse_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> argparse.Namespace:
        """The parsed command line; the command's modules are loaded by then, so Ctrl-C may
        interrupt from here on (``metrics.run.interrupts.interruptible``)."""
        parsed = super().parse_args(args, namespace)
        from metrics.run.interrupts import interruptible

        interruptible()
        return parsed

    def format_help(self) -> str:
        self._load()
        return super().format_help()

    def format_usage(self) -> str:
        self._load()
        return super().format_usage()


class Subcommands(Protocol):
    """What a command's ``add_*_command`` is given: the subparsers action of a
    ``CommandParser``, or the stand-in of a command whose arguments are added on first use."""

    def add_parser(
        self,
        name: str,
        *,
        help: str = ...,
        description: str | None = ...,
        setup: str | None = ...,
    ) -> CommandParser: ...


class _Deferred:
    """Stands in for the subparsers action when a deferred command adds its parser: hands
    back the parser registered under that name, with the keywords applied."""

    _KEEP = ("help", "aliases")  # fixed at registration

    def __init__(self, parser: CommandParser) -> None:
        self._parser = parser

    def add_parser(
        self,
        name: str,
        *,
        help: str = "",
        description: str | None = None,
        setup: str | None = None,
    ) -> CommandParser:
        del name, help, setup  # fixed at registration
        if description is not None:
            self._parser.description = description
        return self._parser


def add_command(sub: Subcommands, name: str, target: str, *, help: str) -> CommandParser:
    """Register subcommand ``name``; ``target`` (``"module:function"``) adds its arguments
    the first time it is used. ``sub`` is the subparsers action of a ``CommandParser``."""
    parser: CommandParser = sub.add_parser(name, help=help, setup=target)
    return parser


def add_plugins(
    sub: argparse._SubParsersAction[CommandParser], group: str, argv: Sequence[str] | None = None
) -> None:
    """Subcommands of other packages (the ``group`` entry points, e.g. the viewer's), unless
    ``argv`` names a subcommand registered already (``detlens eval ...`` needs none)."""
    if next((a for a in argv or () if not a.startswith("-")), None) in sub.choices:
        return
    for name, load in entry_points(group):
        try:
            load()(sub)
        except Exception as exc:  # a broken plugin must not break `detlens eval`
            log.debug("command plugin %s not available: %s", name, exc)


def entry_points(group: str) -> Iterator[tuple[str, Callable[[], Callable[[Subcommands], None]]]]:
    """``(name, load)`` of the entry points in ``group`` of the installed distributions.

    The same answer as ``importlib.metadata.entry_points(group=...)`` for the
    ``entry_points.txt`` files of ``*.dist-info`` / ``*.egg-info`` folders on ``sys.path``
    (the first distribution of a name wins, as there), without importing
    ``importlib.metadata`` and the e-mail parser under it (most of ``detlens --help``).
    """
    seen: set[str] = set()
    for folder in sys.path:
        try:
            names = sorted(os.listdir(folder or "."))
        except OSError:
            continue
        for meta in names:
            stem, dot, kind = meta.rpartition(".")
            dist = stem.partition("-")[0].lower().replace("-", "_").replace(".", "_")
            if not dot or kind not in ("dist-info", "egg-info") or dist in seen:
                continue
            seen.add(dist)
            yield from _group(os.path.join(folder or ".", meta, "entry_points.txt"), group)


def _group(path: str, group: str) -> Iterator[tuple[str, Callable[[], Any]]]:
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError:
        return
    section = None
    for line in lines:
        text = line.strip()
        if text.startswith("[") and text.endswith("]"):
            section = text[1:-1].strip()
        elif section == group and "=" in text and not text.startswith(("#", ";")):
            name, _, value = text.partition("=")
            yield name.strip(), _loader(value.strip())


def _loader(value: str) -> Callable[[], Any]:
    def load() -> Any:
        module, _, attr = value.partition(":")
        obj: Any = importlib.import_module(module.strip())
        for part in attr.split("[")[0].strip().split(".") if attr else ():
            obj = getattr(obj, part)
        return obj

    return load


def input_error(exc: Exception) -> int:
    """Exit code 2 for bad input (``InputError``): its summary and first problem, then the
    others grouped by what they say (``metrics.cli.listing``), none when the summary says
    it all (``InputError.whole``); anything else is re-raised (imported here so that no
    command loads the model early)."""
    model = sys.modules.get("metrics.core.model")  # loaded already when one was raised
    if model is None or not isinstance(exc, model.InputError):
        raise exc
    from metrics.cli.listing import grouped, groups, more_like

    print(f"detlens: error: {model.printable(str(exc))}", file=sys.stderr)
    if exc.whole or not exc.problems:
        return 2
    found = groups(exc.problems)
    said = next((p for p in exc.problems if p.severity.value == "error"), None)
    if found[0][0] == said:  # the first problem is in the line above: only the like of it
        if more_like(found[0]):
            print(f"  {more_like(found[0])}", file=sys.stderr)
        found = found[1:]
    for line in grouped((p for g in found for p in g), 19):
        print(f"  {line}", file=sys.stderr)
    return 2
