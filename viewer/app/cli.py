"""Registers the viewer's subcommands with ``detlens`` (entry point ``detlens.commands``).

By name only: the viewer's modules (and Qt) are imported when ``view`` or ``export`` runs,
never for ``detlens eval`` or ``detlens --help`` (``metrics.cli.commands``).
"""

from __future__ import annotations

from metrics.cli.commands import Subcommands, add_command


def register(sub: Subcommands) -> None:
    add_command(
        sub,
        "view",
        "viewer.app.view:add_view_command",
        help="open the viewer (bundled demo data without arguments)",
    )
    add_command(
        sub,
        "export",
        "viewer.export.cli:add_export_command",
        help="render annotated images of samples (headless) with a CSV/HTML index",
    )
    add_command(
        sub,
        "report",
        "viewer.analysis.report_cli:add_report_command",
        help="write an HTML report: summary, analysis plots, worst images (headless)",
    )
    add_command(
        sub,
        "gallery",
        "viewer.gallery.cli:add_gallery_command",
        help="contact sheets of instance crops across the dataset, by verdict (headless)",
    )
