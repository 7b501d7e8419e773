"""Registers the viewer's subcommands with ``detlens`` (entry point ``detlens.commands``)."""

from __future__ import annotations

import argparse

from viewer.analysis.report_cli import add_report_command
from viewer.app import add_view_command
from viewer.export.cli import add_export_command


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    add_view_command(sub)
    add_export_command(sub)
    add_report_command(sub)
