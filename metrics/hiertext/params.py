"""HierText parameters (official defaults of ``HierTextEvaluator``). The bottom of the family."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class HierTextParams:
    """Official defaults (HIERTEXT.md sections 3-5).

    iou_threshold:
        A mutually best pair matches when its IoU is ``>=`` this value.
    filter_invalid_thr:
        A detection is don't-care when ``inter / (area + 1e-5) >=`` this value for one
        illegible GT.
    box_prefilter:
        Official rule (True): two masks intersect only when their boxes overlap with positive
        area, so boxes that merely touch give 0 although the masks share their border pixels.
        False gives the rule the prefilter stands for: every shared pixel counts.
    allow_float:
        Line and paragraph masks are drawn from the word vertices with OpenCV's fillPoly,
        which takes integers only: False refuses non-integer word vertices (the official
        rule, ``--floats refuse``), True (default) rasterises them at the nearest pixel.
    """

    iou_threshold: float = 0.5
    filter_invalid_thr: float = 0.5
    box_prefilter: bool = True
    allow_float: bool = True
