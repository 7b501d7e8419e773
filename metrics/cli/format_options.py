"""``--gt-format`` / ``--det-format``, without importing the readers (``eval --help`` stays
light): the names are spelled out here and a test checks them against
``metrics.io.formats.BY_NAME``."""

from __future__ import annotations

import argparse
from typing import TypedDict

FORMAT_NAMES = (
    "json",
    "mlt",
    "rctw",
    "totaltext",
    "ctw1500_txt",
    "ctw1500_32",
    "ctw1500_xml",
    "msra_td500",
    "paddle",
    "mmocr",
    "mmocr_pred",
    "paddle_res",
    "cocotext",
    "hiertext",
    "rects",
    "art",
    "doctr",
    "icdar",
    "hiertext_line",
    "hiertext_paragraph",
)


CONVERT_HELP = "convert GT and/or detections to an ICDAR zip or detlens JSON"


def add_side_options(p: argparse.ArgumentParser, *, lines_and_images: bool = False) -> None:
    """``--gt``, ``--det`` (with ``--gt-lines`` and ``--images`` for ``eval``) and the
    options forcing their formats."""
    p.add_argument("--gt", help="GT file, folder or zip in any known format (README: Formats)")
    p.add_argument("--det", help="detection file, folder or zip in any known format")
    if lines_and_images:
        p.add_argument("--gt-lines", help="text-line GT (wordline_* metrics), any GT format")
        p.add_argument("--images", help="image folder (optional; paired by image name or id)")
    add_format_options(p)


class FormatChoices(TypedDict):
    gt_format: str | None
    det_format: str | None


def format_choices(args: argparse.Namespace) -> FormatChoices:
    """The ``LoadOptions`` keywords of the format options."""
    return {"gt_format": args.gt_format, "det_format": args.det_format}


def add_format_options(p: argparse.ArgumentParser) -> None:
    """Force a side's file format instead of detecting it from the content."""
    p.add_argument(
        "--gt-format",
        choices=FORMAT_NAMES,
        metavar="NAME",
        help=f"GT format (default: detected from content): {', '.join(FORMAT_NAMES)}",
    )
    p.add_argument(
        "--det-format",
        choices=FORMAT_NAMES,
        metavar="NAME",
        help="detection format (default: detected from content)",
    )
