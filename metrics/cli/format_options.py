"""``--gt-format`` / ``--det-format``, without importing the readers (``eval --help`` stays
light): the names are spelled out here and a test checks them against
``metrics.io.formats.BY_NAME``."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, TypedDict

from metrics.cli.commands import MAX_WORKERS, int_in
from metrics.core.logs import logger

if TYPE_CHECKING:
    from collections.abc import Sequence

    from metrics.core.model import Dataset, Facts
    from metrics.io.icdar.plan import LoadOptions

log = logger("detlens")

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


GT_HELP = "GT file, folder or zip in any known format (README: Formats)"
DET_HELP = "detection file, folder or zip in any known format"
GT_LINES_HELP = "text-line GT (wordline_* metrics), any GT format"
IMAGES_HELP = "image folder (optional; paired by image name or id)"
FLOAT_MODES = ("as-given", "refuse", "round", "truncate")  # metrics.core.floats.FLOAT_MODES
FLOATS_HELP = (
    "non-integer coordinates (what MMOCR, DBNet, PaddleOCR and docTR write): 'as-given' "
    "evaluates them as written (default); 'refuse' reports them as errors like the official "
    "ICDAR, DetEval, TedEval, CLEval and Total-Text scripts, which read integers only; "
    "'round' / 'truncate' make them integers when read"
)
BOX_TYPES = ("LTRB", "QUAD", "POLY")


def add_side_options(
    p: argparse.ArgumentParser,
    *,
    lines_and_images: bool = False,
    two_dets: bool = False,
    box_type: bool = False,
) -> None:
    """``--gt``, ``--det`` (twice with ``two_dets``; with ``--gt-lines`` and ``--images``)
    and the reading options (``add_format_options``): the one declaration every command
    that reads a dataset takes."""
    p.add_argument("--gt", help=GT_HELP)
    if two_dets:
        p.add_argument(
            "--det", action="append", default=[], help=f"{DET_HELP}; a second --det compares"
        )
    else:
        p.add_argument("--det", help=DET_HELP)
    if lines_and_images:
        p.add_argument("--gt-lines", help=GT_LINES_HELP)
        p.add_argument("--images", help=IMAGES_HELP)
    add_format_options(p, box_type=box_type)


SET_HELP = "metric parameter, e.g. tolerance=0 or tiou.tolerance=0"
POLICIES = ("strict", "skip_sample")  # metrics.run.runner.Policy
CSV_HELP = "write per-image results as CSV to this file"


def add_set_option(p: argparse.ArgumentParser) -> None:
    """``--set [METRIC.]KEY=VALUE`` (repeatable), the same in every command."""
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help=SET_HELP)


def add_policy_option(p: argparse.ArgumentParser, *, default: str = "strict") -> None:
    """``--policy``: what bad input does to the run, the same words in every command that
    evaluates (``eval`` and ``compare`` refuse by default, the picture-making commands skip)."""
    p.add_argument(
        "--policy",
        choices=POLICIES,
        default=default,
        help="bad input: refuse everything (strict) or skip the bad samples and say which "
        f"(skip_sample); default {default}",
    )


workers_count = int_in(1, MAX_WORKERS)
"""The ``type`` of ``--workers`` (one object, so the declaration is the same everywhere)."""


def add_workers_option(p: argparse.ArgumentParser) -> None:
    """``--workers N``: the evaluation's processes, the same in every command that evaluates."""
    p.add_argument(
        "--workers",
        type=workers_count,
        default=1,
        help=f"worker processes (default 1, at most {MAX_WORKERS})",
    )


def _yes_no(value: str) -> bool:
    v = value.strip().lower()
    if v in ("yes", "true", "1"):
        return True
    if v in ("no", "false", "0"):
        return False
    raise argparse.ArgumentTypeError(f"expected yes or no, not {value!r}")


class FormatChoices(TypedDict):
    gt_format: str | None
    det_format: str | None
    det_confidence: bool | None
    det_transcription: bool | None


def format_choices(args: argparse.Namespace) -> FormatChoices:
    """The ``LoadOptions`` keywords of the format and detection-line options (``floats``
    and the box type are read by ``load_options``)."""
    return {
        "gt_format": getattr(args, "gt_format", None),
        "det_format": getattr(args, "det_format", None),
        "det_confidence": getattr(args, "det_confidence", None),
        "det_transcription": getattr(args, "det_transcription", None),
    }


def floats_mode(args: argparse.Namespace) -> str:
    """``--floats`` (``as-given`` where the command has no such option)."""
    return str(getattr(args, "floats", None) or "as-given")


def say_floats(facts: Facts, mode: str) -> str | None:
    """Say once per run how many boxes have non-integer coordinates and what ``--floats``
    made of them (a warning on the log); the sentence, or None when there are none."""
    from metrics.core.floats import check_mode, float_note

    note = float_note(facts.n_gt_float, facts.n_det_float, facts.n_det, check_mode(mode))
    if note:
        log.warning("%s", note)
    return note


def load_options(args: argparse.Namespace) -> LoadOptions:
    """The reader switches of the options ``add_side_options`` declared."""
    from metrics.core.floats import check_mode
    from metrics.core.model import BoxType
    from metrics.io.icdar.plan import LoadOptions

    bt = BoxType(args.box_type) if getattr(args, "box_type", None) else None
    return LoadOptions(
        gt_box_type=bt,
        det_box_type=bt,
        floats=check_mode(floats_mode(args)),
        **format_choices(args),
    )


def add_format_options(p: argparse.ArgumentParser, *, box_type: bool = False) -> None:
    """Force a side's file format instead of detecting it from the content; say what the
    detection lines carry and what non-integer coordinates become."""
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
    p.add_argument(
        "--det-confidence",
        type=_yes_no,
        metavar="yes|no",
        help="detection lines end in a confidence (default: decided from all of the set's "
        "lines: a trailing field that is not a valid confidence anywhere makes it text)",
    )
    p.add_argument(
        "--det-transcription",
        type=_yes_no,
        metavar="yes|no",
        help="detection lines end in a transcription (default: decided from the whole set)",
    )
    p.add_argument("--floats", choices=FLOAT_MODES, default="as-given", help=FLOATS_HELP)
    if box_type:
        p.add_argument(
            "--box-type",
            choices=BOX_TYPES,
            help="force the box type of every line (default: detected per line)",
        )


def read_sets(
    args: argparse.Namespace,
    gt: str,
    dets: Sequence[str],
    *,
    gt_lines: str | None = None,
    images: str | None = None,
) -> list[Dataset]:
    """The GT with each detection set, read with the command's reading options; the
    non-integer coordinates of each set said once (``say_floats``)."""
    from metrics.io.reader import load_dataset

    opts = load_options(args)
    out = [load_dataset(gt, d, gt_lines=gt_lines, images=images, options=opts) for d in dets]
    for ds in out:
        say_floats(ds.facts, floats_mode(args))
    if images is not None and out:
        say_misfit(out[0])
    return out


def say_misfit(ds: Dataset) -> None:
    """Warn, before the scores, where the image folder does not fit the GT (an image
    missing, boxes outside their image), each with its file."""
    from metrics.check import image_sizes
    from metrics.check.images import misfit

    for f in misfit(ds, image_sizes(ds)):
        log.warning("%s: %s", f.where(), f.message)
