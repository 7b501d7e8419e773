"""The palette: one typed style key per state the canvas draws, mapped to plain colours.

``StyleKey`` names every state (each verdict on each side, each match kind, don't-care, the
TIoU cut and outlier, the PCC states, the multiline pivots, selection, hover, the A/B
difference ring, reader warnings, ...); ``PALETTE`` gives each one a ``Style`` of RGBA values.
No Qt here: ``viewer.paint.style`` turns these into pens and brushes.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

from metrics.core.results import MatchKind, Verdict


class Rgba(NamedTuple):
    """A colour: red, green, blue, alpha, each 0-255."""

    r: int
    g: int
    b: int
    a: int = 255

    @classmethod
    def of(cls, text: str) -> Rgba:
        """From ``#rrggbb`` or ``#aarrggbb`` (alpha first, as Qt and SVG tools write it)."""
        h = text.removeprefix("#")
        if len(h) == 6:
            return cls(int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16))
        if len(h) == 8:
            return cls(int(h[2:4], 16), int(h[4:6], 16), int(h[6:8], 16), int(h[0:2], 16))
        raise ValueError(f"not a colour: {text!r}")


@dataclass(frozen=True)
class Style:
    stroke: Rgba | None  # outline (None: no outline)
    fill: Rgba | None = None  # None: no fill
    width: float = 2.0  # screen pixels, whatever the zoom
    dash: bool = False
    hatch: bool = False
    radius: float = 4.0  # point markers, screen pixels
    label: str = ""  # legend text
    marker: str = "circle"  # point markers: "circle", "square", "diamond" or "cross"
    dot: bool = False  # dotted outline (dash: dashed)
    dashes: tuple[float, ...] = ()  # an outline pattern of its own (dash, gap, ... in widths)

    def look(self) -> tuple[object, ...]:
        """What the style looks like on screen (everything but the legend text)."""
        return (
            self.stroke,
            self.fill,
            self.width,
            self.dash,
            self.hatch,
            self.radius,
            self.marker,
            self.dot,
            self.dashes,
        )

    def channel(self) -> tuple[object, ...]:
        """What tells this style apart without its hue: outline pattern, width, fill and,
        for point styles, the marker's shape."""
        shape = self.marker if self.radius else None
        return (self.dash, self.dot, self.dashes, self.width, self.hatch, self.fill is None, shape)


class StyleKey(StrEnum):
    GT_MATCHED = "gt.matched"
    GT_PARTIAL = "gt.partial"
    GT_MISSED = "gt.missed"
    GT_DONT_CARE = "gt.dont_care"
    GT_NONE = "gt.none"  # not evaluated (yet)
    DET_MATCHED = "det.matched"
    DET_PARTIAL = "det.partial"
    DET_FALSE_POSITIVE = "det.false_positive"
    DET_DONT_CARE = "det.dont_care"
    DET_NONE = "det.none"  # not evaluated (yet)
    DET_BELOW_THRESHOLD = "det.below_threshold"  # a swept metric's det under the threshold
    DET_FP_GT_TAKEN = "det.fp_gt_taken"  # VOC: false positive because its best GT was taken
    LINK_ONE_TO_ONE = "link.one_to_one"
    LINK_SPLIT = "link.split"
    LINK_MERGE = "link.merge"
    LABEL_GT = "label.gt"
    LABEL_DET = "label.det"
    TEXT_GT = "text.gt"  # a GT's transcription
    TEXT_DET = "text.det"  # a detection's transcription
    DONT_CARE_REGION = "dont_care"
    TIOU_CUT = "tiou.cut"
    TIOU_OUTLIER = "tiou.outlier"
    TIOU_CUT_TEXT = "tiou.cut.text"
    TIOU_OUTLIER_TEXT = "tiou.outlier.text"
    PCC_MISSED = "pcc.missed"
    PCC_COUNTED = "pcc.counted"
    PCC_OVERLAPPED = "pcc.overlapped"
    MULTILINE_ACCEPTED = "multiline.accepted"
    MULTILINE_REJECTED = "multiline.rejected"
    WARNING = "warning"
    CHECK_CROSSING = "check.crossing"  # where a bow-tie's edges cross (detlens check)
    CHECK_OUTSIDE = "check.outside"  # the part of a box outside its image
    CHECK_DUPLICATE = "check.duplicate"  # a box repeating an earlier one of its file
    HOVER = "highlight"
    SELECTED = "selected"
    COMPARE_DIFF = "compare.diff"


K = StyleKey
GREEN, ORANGE, RED = Rgba.of("#22c55e"), Rgba.of("#f59e0b"), Rgba.of("#ef4444")
BLUE, GREY, PURPLE = Rgba.of("#3b82f6"), Rgba.of("#9ca3af"), Rgba.of("#a855f7")
CYAN, MAGENTA, DARK_GREY = Rgba.of("#06b6d4"), Rgba.of("#ec4899"), Rgba.of("#6b7280")
SLATE, TEAL, BROWN = Rgba.of("#cbd5e1"), Rgba.of("#0d9488"), Rgba.of("#92400e")
DIFF_BLUE = Rgba.of("#1e40ff")  # apart from every verdict colour (CIEDE2000 > 11)
TEXT_BOX = Rgba.of("#e6ffffff")  # the light box under every text

# Verdict colours, safe for colour-vision deficiencies (issue 28): under normal vision and
# simulated protanopia, deuteranopia and tritanopia (Machado et al. 2009, severity 1) any
# two verdicts of one side differ by a CIEDE2000 of at least 15, a GT verdict and a
# detection verdict by at least 10 (tests/viewer/test_colour_vision.py). Each verdict also
# has its own outline (solid: credited, dash-dot: partly, dashed: no credit, dotted: its GT
# was taken), so none is told by hue alone.
V_GT_MATCHED, V_GT_PARTIAL, V_GT_MISSED = "#33ffbb", "#d9ca26", "#ec2513"
V_DET_MATCHED, V_DET_PARTIAL = "#7dc4e8", "#a666ff"
V_DET_FALSE_POSITIVE, V_DET_FP_GT_TAKEN = "#e60099", "#e8987d"
DASH_DOT = (5.0, 2.0, 1.0, 2.0)  # partly credited
LONG_DASH = (7.0, 4.0)  # don't care
DASH_DOT_DOT = (4.0, 2.0, 1.0, 2.0, 1.0, 2.0)  # under the score threshold


def _fill(colour: str, alpha: str) -> Rgba:
    return Rgba.of(f"#{alpha}{colour.removeprefix('#')}")


PALETTE: dict[StyleKey, Style] = {
    K.GT_MATCHED: Style(Rgba.of(V_GT_MATCHED), _fill(V_GT_MATCHED, "30"), 2.0, label="GT matched"),
    K.GT_PARTIAL: Style(
        Rgba.of(V_GT_PARTIAL),
        _fill(V_GT_PARTIAL, "30"),
        2.0,
        dashes=DASH_DOT,
        label="GT partly credited",
    ),
    K.GT_MISSED: Style(
        Rgba.of(V_GT_MISSED), _fill(V_GT_MISSED, "40"), 2.5, dash=True, label="GT missed"
    ),
    K.GT_DONT_CARE: Style(GREY, None, 1.5, dashes=LONG_DASH, label="GT don't care"),
    K.GT_NONE: Style(SLATE, None, 2.0, dot=True, label="GT not evaluated (skipped or pending)"),
    K.DET_MATCHED: Style(Rgba.of(V_DET_MATCHED), None, 2.0, label="detection matched"),
    K.DET_PARTIAL: Style(
        Rgba.of(V_DET_PARTIAL), None, 2.0, dashes=DASH_DOT, label="detection partly credited"
    ),
    K.DET_FALSE_POSITIVE: Style(
        Rgba.of(V_DET_FALSE_POSITIVE), None, 2.5, dash=True, label="false positive"
    ),
    K.DET_DONT_CARE: Style(  # a grey veil as well as the long dashes: seen in the legend
        DARK_GREY,
        _fill("#6b7280", "48"),
        2.0,
        dashes=LONG_DASH,
        label="detection absorbed by don't care",
    ),
    K.DET_NONE: Style(
        SLATE, None, 1.0, dot=True, label="detection not evaluated (skipped or pending)"
    ),
    K.DET_BELOW_THRESHOLD: Style(
        Rgba.of("#c4b5fd"),
        None,
        1.5,
        dashes=DASH_DOT_DOT,
        label="detection under the score threshold",
    ),
    K.DET_FP_GT_TAKEN: Style(
        Rgba.of(V_DET_FP_GT_TAKEN),
        None,
        3.0,
        dot=True,
        label="false positive: its best GT was already taken",
    ),
    K.LINK_ONE_TO_ONE: Style(BLUE, None, 1.5, label="one-to-one"),
    K.LINK_SPLIT: Style(ORANGE, None, 2.0, dash=True, label="split (1 GT, n dets)"),
    K.LINK_MERGE: Style(PURPLE, None, 2.0, dot=True, label="merge (n GTs, 1 det)"),
    K.LABEL_GT: Style(Rgba.of("#064e3b"), TEXT_BOX, label="recall credit"),
    K.LABEL_DET: Style(Rgba.of("#1e3a8a"), TEXT_BOX, label="precision credit"),
    K.TEXT_GT: Style(Rgba.of("#14532d"), Rgba.of("#e6dcfce7"), label="GT transcription"),
    K.TEXT_DET: Style(Rgba.of("#312e81"), Rgba.of("#e6e0e7ff"), label="detected text"),
    K.DONT_CARE_REGION: Style(
        GREY, Rgba.of("#50808080"), 1.0, hatch=True, label="don't-care region"
    ),
    K.TIOU_CUT: Style(
        BROWN, Rgba.of("#c092400e"), 1.0, hatch=True, label="cut: GT outside det (Ct)"
    ),
    K.TIOU_OUTLIER: Style(
        TEAL, Rgba.of("#c00d9488"), 1.0, hatch=True, label="outlier: other GT inside det (Ot)"
    ),
    K.TIOU_CUT_TEXT: Style(Rgba.of("#78350f"), TEXT_BOX, label="cut share of the GT"),
    K.TIOU_OUTLIER_TEXT: Style(Rgba.of("#134e4a"), TEXT_BOX, label="outlier share of the det"),
    # the GT verdict colours (safe for colour-vision deficiencies) and a shape per state
    K.PCC_MISSED: Style(
        Rgba.of(V_GT_MISSED),
        Rgba.of(V_GT_MISSED),
        1.0,
        radius=4.0,
        marker="cross",
        label="character missed (×)",
    ),
    K.PCC_COUNTED: Style(
        Rgba.of(V_GT_MATCHED), Rgba.of(V_GT_MATCHED), 1.0, radius=4.0, label="character counted (●)"
    ),
    K.PCC_OVERLAPPED: Style(
        Rgba.of(V_GT_PARTIAL),
        Rgba.of(V_GT_PARTIAL),
        1.0,
        radius=4.5,
        marker="square",
        label="character overlapped (■)",
    ),
    K.MULTILINE_ACCEPTED: Style(
        CYAN, CYAN, 1.5, radius=5.0, marker="diamond", label="pivot pair, same line"
    ),
    K.MULTILINE_REJECTED: Style(
        Rgba.of("#be185d"),
        Rgba.of("#be185d"),
        2.0,
        radius=5.0,
        marker="square",
        label="pivot pair, other line (rejected)",
    ),
    K.WARNING: Style(Rgba.of("#facc15"), None, 3.0, dot=True, label="reader warning"),
    K.CHECK_CROSSING: Style(
        Rgba.of("#dc2626"),
        Rgba.of("#dc2626"),
        1.5,
        radius=6.0,
        marker="cross",
        label="check: edges of a self-intersecting box cross here",
    ),
    K.CHECK_OUTSIDE: Style(
        Rgba.of("#dc2626"),
        Rgba.of("#a0dc2626"),
        1.5,
        hatch=True,
        label="check: part of a box outside its image",
    ),
    K.CHECK_DUPLICATE: Style(
        Rgba.of("#fb923c"), None, 5.0, dot=True, label="check: duplicate of an earlier box"
    ),
    K.HOVER: Style(Rgba.of("#ffffff"), None, 4.0, label="hovered"),
    K.COMPARE_DIFF: Style(DIFF_BLUE, None, 4.0, dot=True, label="A and B differ on this GT"),
    K.SELECTED: Style(Rgba.of("#ffffff"), None, 6.0, dash=True, label="selected"),
}

# The state of an instance: its verdict under the metric (None: no result yet). A detection
# without a match is a false positive, whichever word the metric uses for it.
GT_VERDICT: dict[Verdict | None, StyleKey] = {
    Verdict.MATCHED: K.GT_MATCHED,
    Verdict.PARTIAL: K.GT_PARTIAL,
    Verdict.MISSED: K.GT_MISSED,
    Verdict.FALSE_POSITIVE: K.GT_NONE,  # no metric gives a GT this verdict
    Verdict.DONT_CARE: K.GT_DONT_CARE,
    None: K.GT_NONE,
}
DET_VERDICT: dict[Verdict | None, StyleKey] = {
    Verdict.MATCHED: K.DET_MATCHED,
    Verdict.PARTIAL: K.DET_PARTIAL,
    Verdict.MISSED: K.DET_FALSE_POSITIVE,
    Verdict.FALSE_POSITIVE: K.DET_FALSE_POSITIVE,
    Verdict.DONT_CARE: K.DET_DONT_CARE,
    None: K.DET_NONE,
}
MATCH_KIND: dict[MatchKind, StyleKey] = {
    MatchKind.ONE_TO_ONE: K.LINK_ONE_TO_ONE,
    MatchKind.SPLIT: K.LINK_SPLIT,
    MatchKind.MERGE: K.LINK_MERGE,
}
TIOU_REGION = {"cut": K.TIOU_CUT, "outlier": K.TIOU_OUTLIER}
TIOU_TEXT = {"cut": K.TIOU_CUT_TEXT, "outlier": K.TIOU_OUTLIER_TEXT}
PCC_STATE = {"missed": K.PCC_MISSED, "counted": K.PCC_COUNTED, "overlapped": K.PCC_OVERLAPPED}
INSTANCE_LABEL = {"gt": K.LABEL_GT, "det": K.LABEL_DET}
TEXT_LABEL = {"gt": K.TEXT_GT, "det": K.TEXT_DET}
# What the evidence says of an instance beyond its verdict (``Evidence.instance_states``)
STATE_STYLE = {
    ("gt", "skipped"): K.GT_NONE,
    ("det", "skipped"): K.DET_NONE,
    ("det", "below_threshold"): K.DET_BELOW_THRESHOLD,
    ("det", "gt_taken"): K.DET_FP_GT_TAKEN,
}


def verdict_key(side: str, verdict: Verdict | None) -> StyleKey:
    """The style of a GT (``side`` "gt") or a detection with this verdict."""
    return (GT_VERDICT if side == "gt" else DET_VERDICT)[verdict]


LAYER_LEGEND: dict[str, tuple[StyleKey, ...]] = {
    "gt": (K.GT_MATCHED, K.GT_PARTIAL, K.GT_MISSED, K.GT_DONT_CARE),
    "det": (
        K.DET_MATCHED,
        K.DET_PARTIAL,
        K.DET_FALSE_POSITIVE,
        K.DET_FP_GT_TAKEN,
        K.DET_DONT_CARE,
        K.DET_BELOW_THRESHOLD,
    ),
    "links": (K.LINK_ONE_TO_ONE, K.LINK_SPLIT, K.LINK_MERGE),
    "labels": (K.LABEL_GT, K.LABEL_DET),
    "text": (K.TEXT_GT, K.TEXT_DET),
    "dont_care": (K.DONT_CARE_REGION,),
    "tiou": (K.TIOU_CUT, K.TIOU_OUTLIER),
    "pcc": (K.PCC_MISSED, K.PCC_COUNTED, K.PCC_OVERLAPPED),
    "multiline": (K.MULTILINE_ACCEPTED, K.MULTILINE_REJECTED),
    "warnings": (K.WARNING, K.CHECK_CROSSING, K.CHECK_OUTSIDE, K.CHECK_DUPLICATE),
}

# Styles that are not a layer of their own but appear on the canvas (legend: "Canvas").
CANVAS_LEGEND: tuple[StyleKey, ...] = (K.GT_NONE, K.DET_NONE, K.SELECTED, K.HOVER, K.COMPARE_DIFF)
