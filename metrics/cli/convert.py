"""``detlens convert``: GT and/or detections in any readable format to the canonical forms.

``--to icdar`` writes one zip of ``gt_<id>.txt`` / ``res_<id>.txt`` files (what the official
scripts and the RRC take); ``--to json`` one detlens JSON. What the target cannot hold is
said: decimals in ICDAR txt are rounded (with the count), don't-care transcriptions become
``###``, attributes are dropped (per name, with counts), texts with line breaks are cut.
The output is written atomically and never onto an input.
"""

from __future__ import annotations

import argparse
import io
import re
import sys
import zipfile
from collections import Counter

import numpy as np

from metrics.cli.commands import Subcommands
from metrics.cli.format_options import add_side_options, load_options
from metrics.core.logs import logger
from metrics.core.model import BoxType, Dataset, Instance, Severity
from metrics.io.atomic import atomic_write, output_problem
from metrics.io.formats.canonical import document
from metrics.io.outnames import unique_names
from metrics.io.reader import load_dataset

log = logger("detlens")
_NUMERIC_START = re.compile(r"\s*[-+]?(?:\d|\.\d)")


def add_convert_command(sub: Subcommands) -> None:
    p = sub.add_parser(
        "convert",
        help="convert GT and/or detections to an ICDAR zip or detlens JSON",
        description="Read GT and/or detections in any known format and write them as an ICDAR "
        "zip (gt_<id>.txt / res_<id>.txt) or one detlens JSON, saying what the target "
        "cannot represent.",
    )
    add_side_options(p)
    p.add_argument("--to", choices=["icdar", "json"], required=True, help="target form")
    p.add_argument(
        "--side",
        choices=["both", "gt", "det"],
        default="both",
        help="what to write: GT and detections (default), GT only, or detections only "
        "(e.g. a res_<id>.txt zip to submit)",
    )
    p.add_argument("out", help="output file (.zip for icdar, .json for json)")
    p.set_defaults(func=cmd_convert)


class Losses:
    """What a conversion could not keep, counted."""

    def __init__(self) -> None:
        self.rounded = 0
        self.rounded_boxes = 0
        self.texts_replaced = 0
        self.texts_cut = 0
        self.texts_empty = 0
        self.renamed = 0
        self.attrs: Counter[str] = Counter()

    def lines(self) -> list[str]:
        out = []
        if self.rounded:
            out.append(
                f"{self.rounded} decimal coordinate(s) in {self.rounded_boxes} box(es) rounded "
                "to integers (ICDAR txt holds integers)"
            )
        if self.texts_replaced:
            out.append(
                f"{self.texts_replaced} don't-care box(es) had a transcription other than ###: "
                "written as ### (ICDAR txt marks don't-care by the text)"
            )
        if self.texts_empty:
            out.append(
                f"{self.texts_empty} detection(s) with an empty transcription: written with a "
                "trailing comma, read back as empty only where other detections of the set "
                "carry a transcription (else as none)"
            )
        if self.renamed:
            out.append(
                f"{self.renamed} sample id(s) that are no plain file name (a path, control "
                "characters) written with those characters replaced by _"
            )
        if self.texts_cut:
            out.append(f"{self.texts_cut} transcription(s) with line breaks: breaks replaced")
        for name, n in sorted(self.attrs.items()):
            out.append(f"attribute {name!r} dropped from {n} box(es) (ICDAR txt has no field)")
        return out


def _coord(v: float, losses: Losses) -> str:
    if float(v).is_integer():
        return str(int(v))
    losses.rounded += 1
    return str(int(np.floor(v + 0.5)))


def _text(inst: Instance, gt: bool, losses: Losses) -> str | None:
    text = inst.text
    if gt and inst.dont_care and text != "###":
        losses.texts_replaced += 1
        return "###"
    if text is None:
        return None
    if not gt and text == "":
        losses.texts_empty += 1
    if "\n" in text or "\r" in text:
        losses.texts_cut += 1
        text = text.replace("\r", " ").replace("\n", " ")
    needs_quotes = text != text.strip() or text.startswith('"') or _NUMERIC_START.match(text)
    if needs_quotes:
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return text


def icdar_line(inst: Instance, gt: bool, losses: Losses) -> str:
    """One ICDAR line: LTRB boxes as 4 numbers, others as their vertices."""
    before = losses.rounded
    if inst.box_type is BoxType.LTRB:
        xmin, ymin, xmax, ymax = inst.ltrb
        fields = [_coord(v, losses) for v in (xmin, ymin, xmax, ymax)]
    else:
        fields = [_coord(v, losses) for v in inst.points.ravel().tolist()]
    losses.rounded_boxes += losses.rounded > before
    if inst.confidence is not None and not gt:
        fields.append(repr(float(inst.confidence)))
    text = _text(inst, gt, losses)
    if text is not None:
        fields.append(text)
    for key in inst.attrs or {}:
        losses.attrs[key] += 1
    return ",".join(fields)


def icdar_zip(ds: Dataset, *, gt: bool, det: bool, losses: Losses) -> bytes:
    """The zip's members are named by ``safe_name`` (ids that are no plain file name are
    renamed, with a note; ids that cannot be made one are refused)."""
    names = unique_names([s.id for s in ds])
    losses.renamed = sum(names[s.id] != s.id for s in ds)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for s in ds:
            if gt:
                body = "".join(icdar_line(g, True, losses) + "\n" for g in s.gt)
                zf.writestr(f"gt_{names[s.id]}.txt", body)
            if det and s.det_source is not None:
                body = "".join(icdar_line(d, False, losses) + "\n" for d in s.det)
                zf.writestr(f"res_{names[s.id]}.txt", body)
    return buf.getvalue()


def cmd_convert(args: argparse.Namespace) -> int:
    if args.gt is None:
        raise ValueError("convert needs --gt (detections are paired with the GT images)")
    problem = output_problem(args.out, [args.gt, args.det])
    if problem:
        raise ValueError(problem)
    ds = load_dataset(args.gt, args.det, options=load_options(args))
    errors = [p for p in ds.problems if p.severity is Severity.ERROR]
    for p in errors[:20]:
        print(f"warning: not converted: {p}", file=sys.stderr)
    if len(errors) > 20:
        print(f"warning: ... and {len(errors) - 20} more not converted", file=sys.stderr)
    if args.side == "det" and args.det is None:
        raise ValueError("--side det needs --det")
    gt = args.side in ("both", "gt")
    det = args.det is not None and args.side in ("both", "det")
    losses = Losses()
    if args.to == "json":
        atomic_write(args.out, document(ds, gt=gt, det=det))
    else:
        atomic_write(args.out, icdar_zip(ds, gt=gt, det=det, losses=losses))
    if any(s.hierarchy is not None for s in ds):
        print("note: HierText lines and paragraphs are not kept (words only)", file=sys.stderr)
    for line in losses.lines():
        print(f"note: {line}", file=sys.stderr)
    written = [f"{sum(len(s.gt) for s in ds)} GT boxes"] if gt else []
    written += [f"{sum(len(s.det) for s in ds)} detections"] if det else []
    print(f"{args.out}: {len(ds)} images, {', '.join(written)} ({args.to})")  # what was written
    return 0
