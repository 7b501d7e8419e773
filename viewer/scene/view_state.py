"""The view state written beside every export and read back by ``detlens view --state``.

Dataset paths, metric and parameters, sample, layers, the comparison (second detector or
second metric, the two names), the zoom, the selected instance and the Analysis panel's
score threshold. Plain data and JSON; no
Qt, no session: the window fills it from its session (``viewer.export.window``), the command
line reads it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from metrics.core.model import InputError


def absolute(path: str) -> str:
    return str(Path(path).resolve())


@dataclass(frozen=True)
class ViewState:
    gt: str | None = None
    det: tuple[str, ...] = ()  # A's detections, then B's when comparing two detectors
    images: str | None = None
    gt_lines: str | None = None
    metric: str | None = None
    compare_metric: str | None = None
    names: tuple[str, ...] | None = None  # A's and B's display names while comparing
    params: Mapping[str, Any] = field(default_factory=dict)
    sample: str | None = None
    layers: tuple[str, ...] = ()
    zoom: float | None = None  # view pixels per image pixel; None: fit the window
    select: str | None = None  # the selected instance as --select writes it ("gt:3", from 1)
    score_threshold: float | None = None  # Analysis: detections with confidence >= it

    def to_json(self) -> dict[str, Any]:
        return {
            "gt": self.gt,
            "det": list(self.det),
            "images": self.images,
            "gt_lines": self.gt_lines,
            "metric": self.metric,
            "compare_metric": self.compare_metric,
            "names": list(self.names) if self.names is not None else None,
            "params": dict(self.params),
            "sample": self.sample,
            "layers": sorted(self.layers),
            "zoom": self.zoom if self.zoom is not None else "fit",
            "select": self.select,
            "score_threshold": self.score_threshold,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ViewState:
        zoom = data.get("zoom")
        names = data.get("names")
        return cls(
            gt=data.get("gt"),
            det=tuple(data.get("det") or ()),
            images=data.get("images"),
            gt_lines=data.get("gt_lines"),
            metric=data.get("metric"),
            compare_metric=data.get("compare_metric"),
            names=tuple(names) if names is not None else None,
            params=dict(data.get("params") or {}),
            sample=data.get("sample"),
            layers=tuple(data.get("layers") or ()),
            zoom=float(zoom) if isinstance(zoom, int | float) else None,
            select=data.get("select") if isinstance(data.get("select"), str) else None,
            score_threshold=_number(data.get("score_threshold")),
        )


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def state_json(state: ViewState) -> bytes:
    return (json.dumps(state.to_json(), indent=1) + "\n").encode()


def read_state(path: str | Path) -> ViewState:
    """The state in a file; ``InputError`` if it cannot be read."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InputError([], f"cannot read state file {path}: {exc}") from exc
    if not isinstance(data, dict):
        raise InputError([], f"cannot read state file {path}: not a JSON object")
    return ViewState.from_json(data)


def layers_option(layers: Sequence[str]) -> str | None:
    """The ``--layers`` value of a state's layers (None: the default layers)."""
    return ",".join(layers) or None
