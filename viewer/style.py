"""Colours and pens of every draw style, and the legend of each layer (no Qt objects here)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Style:
    stroke: str  # "#rrggbb" or "" for none
    fill: str = ""  # "#aarrggbb" or ""
    width: float = 2.0  # screen pixels, whatever the zoom
    dash: bool = False
    hatch: bool = False
    radius: float = 4.0  # point markers, screen pixels
    label: str = ""  # legend text


GREEN, ORANGE, RED, BLUE, GREY = "#22c55e", "#f59e0b", "#ef4444", "#3b82f6", "#9ca3af"
PURPLE, CYAN, MAGENTA = "#a855f7", "#06b6d4", "#ec4899"

STYLES: dict[str, Style] = {
    "gt.matched": Style(GREEN, "#3022c55e", 2.0, label="GT matched"),
    "gt.partial": Style(ORANGE, "#30f59e0b", 2.0, label="GT partly credited"),
    "gt.missed": Style(RED, "#40ef4444", 2.5, label="GT missed"),
    "gt.dont_care": Style(GREY, "", 1.5, dash=True, label="GT don't care"),
    "gt.none": Style(GREEN, "", 2.0, label="GT"),
    "det.matched": Style(BLUE, "", 2.0, label="detection matched"),
    "det.partial": Style(PURPLE, "", 2.0, label="detection partly credited"),
    "det.false_positive": Style(MAGENTA, "", 2.5, dash=True, label="false positive"),
    "det.dont_care": Style(GREY, "", 1.5, dash=True, label="detection absorbed by don't care"),
    "det.missed": Style(MAGENTA, "", 2.5, dash=True, label="false positive"),
    "det.none": Style(BLUE, "", 2.0, label="detection"),
    "link.one_to_one": Style(BLUE, "", 1.5, label="one-to-one"),
    "link.split": Style(ORANGE, "", 2.0, dash=True, label="split (1 GT, n dets)"),
    "link.merge": Style(PURPLE, "", 2.0, dash=True, label="merge (n GTs, 1 det)"),
    "label.gt": Style("#064e3b", "#e6ffffff", label="recall credit"),
    "label.det": Style("#1e3a8a", "#e6ffffff", label="precision credit"),
    "dont_care": Style(GREY, "#50808080", 1.0, hatch=True, label="don't-care region"),
    "tiou.cut": Style(RED, "#80ef4444", 1.0, hatch=True, label="cut: GT outside det (Ct)"),
    "tiou.outlier": Style(
        ORANGE, "#80f59e0b", 1.0, hatch=True, label="outlier: other GT inside det (Ot)"
    ),
    "tiou.cut.text": Style("#7f1d1d", "#e6ffffff"),
    "tiou.outlier.text": Style("#78350f", "#e6ffffff"),
    "pcc.missed": Style(RED, RED, 1.0, radius=4.0, label="character missed"),
    "pcc.counted": Style(GREEN, GREEN, 1.0, radius=4.0, label="character counted"),
    "pcc.overlapped": Style(ORANGE, ORANGE, 1.0, radius=5.0, label="character overlapped"),
    "multiline.accepted": Style(CYAN, CYAN, 1.5, radius=4.0, label="pivot pair, same line"),
    "multiline.rejected": Style(RED, RED, 2.0, radius=4.0, label="pivot pair, other line"),
    "warning": Style("#facc15", "", 3.0, dash=True, label="reader warning"),
    "highlight": Style("#ffffff", "", 4.0),
    "compare.diff": Style("#e879f9", "", 2.5, dash=True, label="A and B differ on this GT"),
    "selected": Style("#fde047", "", 4.5),
}

LAYER_LEGEND: dict[str, tuple[str, ...]] = {
    "gt": ("gt.matched", "gt.partial", "gt.missed", "gt.dont_care"),
    "det": ("det.matched", "det.partial", "det.false_positive", "det.dont_care"),
    "links": ("link.one_to_one", "link.split", "link.merge"),
    "labels": ("label.gt", "label.det"),
    "dont_care": ("dont_care",),
    "tiou": ("tiou.cut", "tiou.outlier"),
    "pcc": ("pcc.missed", "pcc.counted", "pcc.overlapped"),
    "multiline": ("multiline.accepted", "multiline.rejected"),
    "warnings": ("warning",),
}
