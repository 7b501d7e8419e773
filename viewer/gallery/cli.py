"""``detlens gallery``: the failure gallery headless, as contact sheets (PNG) and an HTML page.

Every crop of the chosen verdict classes across the whole dataset (``viewer.scene.gallery``),
each drawn with its box and partners in the canvas's styles (``viewer.gallery.crops``) and its
one-line verdict under it; with two ``--det``, A's and B's crops, and the classes
``a_only`` / ``b_only`` (GT found by one side only).
"""

from __future__ import annotations

import argparse
import html
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from metrics.catalogue.registry import default_metric, resolve
from metrics.cli.commands import Subcommands
from metrics.cli.coverage import detector_names, need_gt_lines, say_skipped
from metrics.cli.format_options import (
    add_policy_option,
    add_side_options,
    add_workers_option,
    read_sets,
)
from metrics.core.model import InputError
from metrics.run.runner import plan_all, run
from viewer.app.interrupts import Interrupts, guarded, headless_qt
from viewer.scene.gallery import (
    CLASSES,
    COMPARE_CLASSES,
    SORTS,
    Crop,
    SideInput,
    build,
    caption,
    order,
    select,
)

if TYPE_CHECKING:
    from PySide6.QtGui import QFont

COLUMNS = 6
CAPTION_H = 34


def add_gallery_command(sub: Subcommands) -> None:
    p = sub.add_parser(
        "gallery",
        help="a contact sheet of instance crops across the dataset, by verdict (headless)",
        description="Crops of every instance of the chosen verdicts across the dataset, "
        "with its box, partners and one-line verdict: contact sheets (PNG) and an HTML page.",
    )
    add_side_options(p, lines_and_images=True, two_dets=True, box_type=True)
    p.add_argument("--metric", help="metric id (default: as the viewer, TIoU or curved TIoU)")
    add_policy_option(p, default="skip_sample")
    add_workers_option(p)
    p.add_argument(
        "--verdict",
        default="missed",
        help=f"classes, comma-separated (default missed): {', '.join(CLASSES)}",
    )
    p.add_argument("--filter", default="", help="part of a sample id or text, or name=value")
    p.add_argument("--sort", default="credit", choices=list(SORTS), help="default credit")
    p.add_argument("--side", default="both", choices=["a", "b", "both"], help="with two --det")
    p.add_argument("--max", type=int, default=600, help="crops at most (default 600)")
    p.add_argument("--out", required=True, help="output folder (created)")
    p.set_defaults(func=cmd_gallery)


def cmd_gallery(args: argparse.Namespace) -> int:
    return guarded(lambda interrupts: _gallery(args, interrupts))


def _check(args: argparse.Namespace) -> list[str]:
    if args.gt is None or not args.det:
        raise InputError([], "give --gt and one or two --det")
    if len(args.det) > 2:
        raise InputError([], "give one or two --det")
    classes = [c.strip() for c in args.verdict.split(",") if c.strip()]
    wrong = [c for c in classes if c not in CLASSES]
    if wrong:
        raise InputError([], f"--verdict {wrong[0]}: not one of {', '.join(CLASSES)}")
    two = [c for c in classes if c in COMPARE_CLASSES]
    if two and len(args.det) < 2:
        said = ", ".join(COMPARE_CLASSES)
        raise InputError([], f"--verdict {two[0]}: {said} need two --det (one given)")
    if args.side != "both" and len(args.det) < 2:
        raise InputError([], f"--side {args.side} goes with two --det (one given)")
    if args.max < 1:
        raise InputError([], "--max must be 1 or more")
    return classes


def _gallery(args: argparse.Namespace, interrupts: Interrupts) -> int:
    if not headless_qt("gallery needs PySide6"):
        return 2
    classes = _check(args)
    from PySide6.QtWidgets import QApplication  # the viewer's tests share this process

    app = QApplication.instance() or QApplication(sys.argv[:1])
    del app
    named = resolve(args.metric) if args.metric else None
    need_gt_lines([named] if named else [], args.gt_lines)  # before reading
    with interrupts.direct():
        sets = read_sets(args, args.gt, args.det, gt_lines=args.gt_lines, images=args.images)
    spec = named or default_metric(sets[0])
    if spec is None:
        raise InputError([], "no metric applies to this dataset (see detlens check)")
    plan = plan_all(sets[0], [spec])  # the fallbacks the viewer switches on, said
    for note in plan.fallbacks.values():  # skipped images: said below, for each detector
        print(f"warning: {note}", file=sys.stderr)
    if not plan.specs:
        raise InputError([], f"{spec.id} left out: {plan.left_out.get(spec.id, '')}")
    with interrupts.direct():
        evs = [
            run(ds, [spec], plan.overrides, policy=args.policy, workers=args.workers)[0]
            for ds in sets
        ]
    for note in say_skipped(evs, sets, detector_names(args.det)):
        print(f"warning: {note}", file=sys.stderr)
    inputs = [SideInput(ds, ev, spec.view) for ds, ev in zip(sets, evs, strict=True)]
    crops = build(inputs)
    owners = {"a": (0,), "b": (1,), "both": (0, 1)}[args.side]
    chosen = order(select(crops, classes, args.filter, owners), args.sort)
    names = detector_names(args.det)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    shown = chosen[: args.max]
    write(out, shown, inputs, names, f"{spec.id}: {', '.join(CLASSES[c] for c in classes)}")
    more = f" (the first {len(shown)} of {len(chosen)})" if len(chosen) > len(shown) else ""
    print(f"wrote {out / 'index.html'} and {out / 'sheet.png'}: {len(shown)} crops{more}")
    return 0


def caption_rows(lines: list[str], width: int, font: QFont) -> list[int]:
    """The height of each sheet row's captions: its tallest caption wrapped at ``width``
    (at least ``CAPTION_H``), so no caption line is cut."""
    from PySide6.QtCore import QRect, Qt
    from PySide6.QtGui import QFontMetrics

    fm = QFontMetrics(font)
    flags = int(Qt.AlignmentFlag.AlignLeft | Qt.TextFlag.TextWordWrap)
    heights = [fm.boundingRect(QRect(0, 0, width, 10_000), flags, t).height() for t in lines]
    return [
        max([CAPTION_H, *heights[k : k + COLUMNS]]) for k in range(0, max(len(lines), 1), COLUMNS)
    ]


def write(
    out: Path, crops: list[Crop], inputs: list[SideInput], names: list[str], title: str
) -> None:
    """``sheet.png`` (every crop with its verdict line, each row as tall as its longest
    line needs), one PNG per crop and ``index.html``."""
    from PySide6.QtCore import QPointF, QRectF, Qt
    from PySide6.QtGui import QColor, QFont, QImage, QPainter

    from viewer.gallery.crops import TILE, render_crop

    font = QFont()
    font.setPixelSize(11)
    lines = [caption(c, names) for c in crops]
    rows = caption_rows(lines, TILE.width(), font)
    tops = [sum(TILE.height() + h + 8 for h in rows[:r]) for r in range(len(rows) + 1)]
    cell_w = TILE.width() + 8
    sheet = QImage(COLUMNS * cell_w, tops[-1], QImage.Format.Format_RGB32)
    sheet.fill(QColor("#ffffff"))
    painter = QPainter(sheet)
    painter.setFont(font)
    items = []
    for k, (c, line) in enumerate(zip(crops, lines, strict=True)):
        side = inputs[c.owner]  # the sample as the metric indexes it (its view)
        img = render_crop(c, side.sample(c.sample), side.evaluation.results.get(c.sample))
        name = f"crop_{k:05d}.png"
        img.save(str(out / name))
        x, y = (k % COLUMNS) * cell_w + 4, tops[k // COLUMNS] + 4
        painter.drawImage(QPointF(x, y), img)
        painter.setPen(QColor("#111111"))
        painter.drawText(
            QRectF(x, y + TILE.height() + 2, TILE.width(), rows[k // COLUMNS]),
            int(Qt.AlignmentFlag.AlignLeft | Qt.TextFlag.TextWordWrap),
            line,
        )
        items.append((name, line))
    painter.end()
    sheet.save(str(out / "sheet.png"))
    cells = "".join(
        f"<figure><img src='{html.escape(n)}' alt='{html.escape(t)}' width='{TILE.width()}' "
        f"height='{TILE.height()}' loading='lazy'><figcaption>{html.escape(t)}</figcaption>"
        "</figure>"
        for n, t in items
    )
    page = (
        "<!DOCTYPE html><html><head><meta charset='utf-8'><title>detlens gallery</title>"
        "<style>body{font-family:sans-serif;margin:1.5em}.grid{display:flex;flex-wrap:wrap;"
        "gap:8px}figure{margin:0;width:220px}figcaption{font-size:12px}</style></head><body>"
        f"<h1>{html.escape(title)}</h1><p>{len(items)} crops; "
        "<a href='sheet.png'>contact sheet</a></p>"
        f"<div class=grid>{cells}</div></body></html>\n"
    )
    (out / "index.html").write_text(page, encoding="utf-8")
