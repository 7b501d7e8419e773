"""Which rule refused a match, with the value and the limit (no Qt here).

The viewer computes no metric: the values come from the engine's results (near misses,
TedEval's multiline tests) and the limits from the metric's parameters, read by name.
"""

from __future__ import annotations

from metrics.core.results import InstanceResult, SampleResult

# The parameter holding each measure's limit, by metric family (the first one present).
LIMITS = {
    "iou": ("iou_threshold", "match_iou_thr", "iou_constraint"),
    "area_recall": ("area_recall", "tr"),
    "area_precision": ("area_precision", "tp", "area_precision_constraint"),
}
MEASURE = {"iou": "IoU", "area_recall": "area recall", "area_precision": "area precision"}


def limit_of(params: object, measure: str) -> float | None:
    """The limit a measure must pass under these parameters, or None if not known."""
    for name in LIMITS.get(measure, ()):
        value = getattr(params, name, None)
        if isinstance(value, int | float):
            return float(value)
    return None


def below_limit(measure: str, value: float, params: object, *, digits: int = 2) -> str | None:
    """ "IoU 0.49 ≤ 0.5", "area precision 0.38 < 0.4" when the value fails its limit (IoU
    must exceed it, the area measures reach it), else None; the value with ``digits``
    decimals (2 on the canvas's labels, 4 in the inspector's sentences)."""
    limit = limit_of(params, measure)
    if limit is None:
        return None
    name = MEASURE.get(measure, measure.replace("_", " "))
    if measure == "iou" and value <= limit:
        return f"{name} {_shown(value, limit, digits, strict=False)} ≤ {limit:g}"
    if measure != "iou" and value < limit:
        return f"{name} {_shown(value, limit, digits, strict=True)} < {limit:g}"
    return None


def _shown(value: float, limit: float, digits: int, *, strict: bool) -> str:
    """The value with ``digits`` decimals, or as many more as it takes for the shown number
    to stay on its side of the limit: 0.3999 against 0.4 reads "0.3999 < 0.4", never
    "0.40 < 0.4"; an IoU reads as the limit itself only when it is (a tie fails too)."""
    for d in range(digits, 10):
        text = f"{value:.{d}f}"
        shown = float(text)
        if shown < limit or (not strict and shown == limit == value):
            return text
    return repr(value)


def multiline_rejection(result: SampleResult, side: str, index: int, params: object) -> str | None:
    """ "merge rejected: angle 48.0° ≥ 45°" when a rejected TedEval multiline test held this
    instance, else None."""
    limit = getattr(params, "multiline_angle", None)
    for g in result.evidence.multiline_tests() if result.evidence is not None else ():
        if not g.rejected or index not in (g.gt if side == "gt" else g.det):
            continue
        what = "merge" if g.kind == "MO" else "split"
        bad = next((p for p in g.pairs if not p.passed), None)
        if bad is None:
            return f"{what} rejected by the multiline test"
        tail = f" ≥ {limit:g}°" if isinstance(limit, int | float) else ""
        return f"{what} rejected: angle {bad.angle:.1f}°{tail}"
    return None


def refusal(
    result: SampleResult, side: str, r: InstanceResult, params: object, *, digits: int = 2
) -> str | None:
    """The rule that refused an unmatched instance's best candidate, or None (its value
    with ``digits`` decimals)."""
    rejected = multiline_rejection(result, side, r.index, params)
    if rejected is not None:
        return rejected
    nm = r.near_miss
    return None if nm is None else below_limit(nm.measure, nm.value, params, digits=digits)


def multiline_lines(result: SampleResult, params: object) -> list[tuple[str, str, bool]]:
    """One (short, long, rejected) line per TedEval multiline test of this image: which GTs
    and detections, passed or the rejecting pair's angle against the limit (the pair
    matrix lists them under its table)."""
    limit = getattr(params, "multiline_angle", None)
    tail = f" ≥ {limit:g}°" if isinstance(limit, int | float) else ""
    out = []
    for g in result.evidence.multiline_tests() if result.evidence is not None else ():
        what = "merge" if g.kind == "MO" else "split"
        who = (
            f"{what} GT {', '.join(str(i + 1) for i in g.gt)} × det "
            f"{', '.join(str(j + 1) for j in g.det)}"
        )
        bad = next((p for p in g.pairs if not p.passed), None)
        if g.rejected and bad is not None:
            short = f"{who}: rejected, angle {bad.angle:.1f}°{tail}"
            why = f"multiline test: pair ({bad.a + 1}, {bad.b + 1}) at {bad.angle:.1f}°{tail}"
        else:
            worst = max((p.angle for p in g.pairs), default=0.0)
            short = f"{who}: passed, largest angle {worst:.1f}°"
            why = f"multiline test: every pair below {limit:g}°" if tail else short
        out.append((short, why, g.rejected))
    return out
