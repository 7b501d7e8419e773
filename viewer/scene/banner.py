"""Texts over the canvas: the tag in its corner (which detector and metric it shows), the
banner (why the image is not evaluated, or that it has no picture) and an instance's tooltip
(its labels and how its credit comes about)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Protocol

from metrics.catalogue.catalog import BY_ID
from metrics.catalogue.registry import resolve
from metrics.core.model import Sample
from metrics.core.protocols import Params
from metrics.core.results import SampleResult
from viewer.scene.items import DrawItem, Ref


class _Side(Protocol):
    metric: str | None

    def skip_reason(self, sample_id: str | None, metric: str | None = None) -> str | None: ...

    def result(self, sample_id: str | None, metric: str | None = None) -> SampleResult | None: ...

    def sample(self, sample_id: str | None) -> Sample | None: ...

    def failure(self, metric: str | None = None) -> str | None: ...

    def is_busy(self) -> bool: ...


class _Named(Protocol):
    name: str
    metric: str | None

    def params(self, metric: str | None = None) -> Params | None: ...


def side_tag(side: _Named | None, *, named: bool) -> str:
    """What a canvas says in its top left corner: the detector's name when ``named`` (a
    comparison), the metric it shows and the parameter values that are not the metric's
    defaults, such as a fallback the plan switched on ("det_a · curved_tiou ·
    auto_orient=true"); the metric was named only in the Metric tab."""
    if side is None:
        return ""
    parts = [side.name] if named and side.name else []
    if side.metric and side.metric not in parts:
        parts.append(side.metric)
    changed = changed_params(side.metric, side.params())
    return " · ".join([*parts, changed] if changed else parts)


def changed_params(metric: str | None, params: Params | None) -> str:
    """``key=value`` of each parameter that differs from the metric's default, or ""."""
    if metric is None or params is None or not dataclasses.is_dataclass(params):
        return ""
    defaults = dataclasses.asdict(resolve(metric).params_type())
    now = dataclasses.asdict(params)
    return ", ".join(f"{k}={_value(v)}" for k, v in now.items() if defaults.get(k, v) != v)


def _value(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return f"{v:g}" if isinstance(v, float) else str(v)


def banner_text(side: _Side | None, sample_id: str | None, has_image: bool) -> str:
    """Empty when there is nothing to say; else the reasons, joined."""
    if side is None or sample_id is None:
        return ""
    parts = []
    reason = side.skip_reason(sample_id)
    if reason:
        parts.append(f"Not evaluated by {side.metric}: {reason}")
    elif side.result(sample_id) is None and side.metric is not None:
        parts.append(_no_result(side))
    if side.sample(sample_id) is not None and not has_image:
        parts.append("no image: the frame is the extent of the boxes")
    return "   ·   ".join(parts)


def _no_result(side: _Side) -> str:
    """Why the shown metric has no result for this image: failed, cancelled, running or not
    started (never "evaluating…" when nothing runs)."""
    failure = side.failure()
    if failure == "cancelled":
        return f"{side.metric}: not evaluated (cancelled; Apply runs it again)"
    if failure:
        return f"{side.metric}: not evaluated: {failure}"
    if side.is_busy():
        return f"{side.metric}: evaluating…"
    return f"{side.metric}: not evaluated yet (Apply in the Metric panel runs it)"


def label_tooltip(items: Sequence[DrawItem], ref: Ref | None, metric: str | None) -> str:
    """The labels of instance ``ref`` (score, cut, outlier, text) and the credit formula."""
    if ref is None:
        return ""
    texts = [
        text
        for it in items
        if it.shape == "texts"
        for r, text in zip(it.data["refs"], it.data["texts"], strict=True)
        if r == ref
    ]
    who = f"{'GT' if ref[0] == 'gt' else 'detection'} {ref[1] + 1}"
    lines = [f"{who}: {', '.join(texts)}" if texts else who]
    card = BY_ID.get(metric or "")
    formula = card.credit if card is not None else ""
    if formula:
        lines.append(f"{metric}: {formula}")
    return "\n".join(lines)
