"""The banner above the canvas: why the image is not evaluated, or that it has no picture."""

from __future__ import annotations

from typing import Protocol

from metrics.model import Sample
from metrics.results import SampleResult


class _Side(Protocol):
    metric: str | None

    def skip_reason(self, sample_id: str | None, metric: str | None = None) -> str | None: ...

    def result(self, sample_id: str | None, metric: str | None = None) -> SampleResult | None: ...

    def sample(self, sample_id: str | None) -> Sample | None: ...


def banner_text(side: _Side | None, sample_id: str | None, has_image: bool) -> str:
    """Empty when there is nothing to say; else the reasons, joined."""
    if side is None or sample_id is None:
        return ""
    parts = []
    reason = side.skip_reason(sample_id)
    if reason:
        parts.append(f"Not evaluated by {side.metric}: {reason}")
    elif side.result(sample_id) is None and side.metric is not None:
        parts.append(f"{side.metric}: evaluating…")
    if side.sample(sample_id) is not None and not has_image:
        parts.append("no image: the frame is the extent of the boxes")
    return "   ·   ".join(parts)
