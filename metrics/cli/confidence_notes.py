"""What ``eval`` says about detection confidences: which metrics rank detections by them,
which report an AP and in which order, whose official AP is withheld. Everything is derived
from the metrics' own declarations (``MetricSpec.confidences``), never from a list here."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from metrics.core.protocols import Params
from metrics.declare.spec import AP_FILE_ORDER

if TYPE_CHECKING:
    from metrics.declare.spec import MetricSpec


def confidence_warning(
    specs: Sequence[MetricSpec[Params]], params: Mapping[str, Params]
) -> str | None:
    """The warning for detections that all carry a confidence (None: nothing to say).

    ``params`` holds each spec's parameters by id, overrides applied."""
    used = [(s, s.confidences) for s in specs if s.confidences is not None]
    ranked = [(s, u) for s, u in used if u.ranks(params[s.id])]
    parts = []
    for switch in dict.fromkeys(u.switch for _, u in ranked):
        group = [(s, u) for s, u in ranked if u.switch == switch]
        why = "the official scripts' CONFIDENCES=True; " if switch == "confidences" else ""
        parts.append(
            f"{_ids(group)} rank{_s(group)} them by confidence before matching ({why}"
            f"{_setting(group[0][0], switch, 'false')} keeps file order)"
        )
    with_ap = [(s, u) for s, u in ranked if u.ap]
    if with_ap:
        parts.append(f"{_ids(with_ap)} report{_s(with_ap)} AP over that ranking")
    for s, u in used:
        if u.ap == "any_order" and not u.ranks(params[s.id]):
            on = _setting(s, u.switch, "true", own=True)
            parts.append(
                f"{s.id} reports AP over the detections in file order, as its official script "
                f"does ({AP_FILE_ORDER}; {on} ranks by confidence)"
            )
    parts.extend(f"{s.id}: {u.no_ap}" for s, u in ranked if u.no_ap)
    return "detections carry confidences: " + "; ".join(parts) if parts else None


def extra_hint(spec: MetricSpec[Params] | None, key: str, has_confidences: bool) -> str:
    """What follows an extra in the notes column: its unit when the metric names one
    (``MetricSpec.extra_units``: CLEval's characters and detections); for a file-order AP
    over detections that carry confidences, the switch that ranks them."""
    if spec is not None and spec.extra_units and key in spec.extra_units:
        return f" {spec.extra_units[key]}"
    if spec is None or spec.confidences is None or key != AP_FILE_ORDER or not has_confidences:
        return ""
    switch = _setting(spec, spec.confidences.switch, "true", own=True)
    return f" ({switch} ranks by confidence)"


def _setting(spec: MetricSpec[Params], switch: str, value: str, own: bool = False) -> str:
    """``--set confidences=VALUE`` (the shared name: every metric that has it) or, for a
    metric's own name or ``own``, ``--set ID.SWITCH=VALUE``."""
    if switch == "confidences" and not own:
        return f"--set {switch}={value}"
    return f"--set {spec.id}.{switch}={value}"


def _ids(items: Sequence[tuple[MetricSpec[Params], Any]]) -> str:
    return ", ".join(s.id for s, _ in items)


def _s(items: Sequence[object]) -> str:
    return "s" if len(items) == 1 else ""
