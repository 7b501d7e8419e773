"""The view state written beside every export and read back by ``detlens view --state``.

Dataset paths, metric and parameters, sample, layers, the comparison (second detector or
second metric, the two names), the zoom, the selected instance, the Analysis panel's
score threshold and the failure gallery's filters and sort. Plain data and JSON; no
Qt, no session: the window fills it from its session (``viewer.export.window``), the command
line reads it.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from metrics.core.jsonvalue import JSONObject, JSONValue
from metrics.core.model import InputError
from metrics.io.jsonload import JsonError, loads
from viewer.scene.gallery_state import GalleryView, check_gallery


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
    params: Mapping[str, JSONValue] = field(default_factory=dict)
    sample: str | None = None
    layers: tuple[str, ...] = ()
    zoom: float | None = None  # view pixels per image pixel; None: fit the window
    select: str | None = None  # the selected instance as --select writes it ("gt:3", from 1)
    score_threshold: float | None = None  # Analysis: detections with confidence >= it
    gallery: GalleryView | None = None  # the gallery's filters and sort; None: its defaults

    def to_json(self) -> JSONObject:
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
            "gallery": self.gallery.to_json() if self.gallery is not None else None,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, JSONValue]) -> ViewState:
        zoom, names, gallery = data.get("zoom"), data.get("names"), data.get("gallery")
        select = data.get("select")
        return cls(
            gt=cast("str | None", data.get("gt")),
            det=tuple(cast("Sequence[str]", data.get("det") or ())),
            images=cast("str | None", data.get("images")),
            gt_lines=cast("str | None", data.get("gt_lines")),
            metric=cast("str | None", data.get("metric")),
            compare_metric=cast("str | None", data.get("compare_metric")),
            names=tuple(cast("Sequence[str]", names)) if names is not None else None,
            params=dict(cast("Mapping[str, JSONValue]", data.get("params") or {})),
            sample=cast("str | None", data.get("sample")),
            layers=tuple(cast("Sequence[str]", data.get("layers") or ())),
            zoom=float(zoom) if isinstance(zoom, int | float) else None,
            select=select if isinstance(select, str) else None,
            score_threshold=_number(data.get("score_threshold")),
            gallery=GalleryView.from_json(gallery) if isinstance(gallery, dict) else None,
        )


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def state_json(state: ViewState) -> bytes:
    return (json.dumps(state.to_json(), indent=1) + "\n").encode()


MAX_STATE_BYTES = 1 << 20  # a state written by an export is well under 1 kB

_TEXT = ("gt", "images", "gt_lines", "metric", "compare_metric", "sample", "select")
_LISTS = {"det": 2, "names": 2, "layers": 64}  # lists of text, at most this long
_NUMBERS = ("zoom", "score_threshold")
KEYS = (*_TEXT, *_LISTS, *_NUMBERS, "params", "gallery")


def read_state(path: str | Path) -> ViewState:
    """The state in a file, checked as ``--set`` items are (``check_state``); ``InputError``
    (one line naming the file) if it cannot be read or holds what no export writes."""
    try:
        raw = _read_bounded(Path(path))
        data = loads(raw.decode("utf-8"), raw)  # bounded nesting and digits (issue 30)
    except JsonError as exc:
        where = f"line {exc.line}: " if exc.line is not None else ""
        raise InputError([], f"cannot read state file {path}: {where}{exc}") from None
    except UnicodeDecodeError as exc:
        raise InputError(
            [], f"cannot read state file {path}: not UTF-8 (byte {exc.start})"
        ) from None
    except OSError as exc:
        raise InputError([], f"cannot read state file {path}: {exc}") from None
    if not isinstance(data, dict):
        raise InputError([], f"cannot read state file {path}: not a JSON object")
    problem = check_state(data)
    if problem is not None:
        raise InputError([], f"state file {path}: {problem}")
    return ViewState.from_json(data)


def _read_bounded(path: Path) -> bytes:
    """The file's bytes; a pipe, a device or a file above ``MAX_STATE_BYTES`` is refused
    before it is opened (a FIFO would block the command)."""
    if not path.is_file():
        raise OSError("not a regular file" if path.exists() else "no such file")
    if path.stat().st_size > MAX_STATE_BYTES:
        raise OSError(f"larger than {MAX_STATE_BYTES >> 10} kB: not a view state")
    return path.read_bytes()


def check_state(data: Mapping[str, JSONValue]) -> str | None:
    """What is wrong with a state's keys and values (None: nothing): unknown keys are named,
    each value must have its type (text, a list of text, a finite number)."""
    unknown = sorted(set(data) - set(KEYS))
    if unknown:
        return f"unknown key(s) {', '.join(map(repr, unknown))}; known: {', '.join(KEYS)}"
    for key, value in data.items():
        problem = _check_value(key, value)
        if problem is not None:
            return f"{key}: {problem}, got {json.dumps(value)[:60]}"
    return None


def _check_value(key: str, value: Any) -> str | None:
    if value is None:
        return None
    if key in _TEXT:
        return None if isinstance(value, str) else "expected text or null"
    if key in _LISTS:
        ok = isinstance(value, list) and all(isinstance(v, str) for v in value)
        return None if ok and len(value) <= _LISTS[key] else f"expected at most {_LISTS[key]} names"
    if key == "params":
        return None if isinstance(value, dict) else "expected an object of parameters"
    if key == "gallery":
        return check_gallery(value)
    if key == "zoom" and value == "fit":
        return None
    if not _finite(value) or (key == "zoom" and not 0 < value <= 1000):
        return "expected a finite number" + (' in (0, 1000] or "fit"' if key == "zoom" else "")
    if key == "score_threshold" and not 0 <= value <= 1:
        return "a confidence threshold is from 0 to 1"
    return None


def _finite(value: Any) -> bool:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:  # an integer beyond any float
        return False


def state_params(metric: str | None, params: Mapping[str, JSONValue]) -> dict[str, object]:
    """A state's parameters of ``metric`` checked and converted as ``--set`` values are
    (``metrics.catalogue.registry.make_params``: names, types, ranges, choices); ValueError naming
    the first problem."""
    from metrics.catalogue.registry import make_params, resolve

    if not params:
        return {}
    if metric is None:
        raise ValueError("params given without a metric")
    items = {k: _as_set_value(k, v) for k, v in params.items()}
    try:
        prm = make_params(resolve(metric), items)
    except KeyError as exc:  # an unknown metric or parameter, named
        raise ValueError(exc.args[0]) from None
    return {k: getattr(prm, k) for k in items}


def _as_set_value(key: str, value: Any) -> str:
    """A JSON value as the ``--set`` text it stands for (lists and objects are refused)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    if isinstance(value, int | float | str):
        return str(value)
    kind = type(value).__name__
    raise ValueError(f"{key}: expected a number, text, true/false or null, got a {kind}")


def layers_option(layers: Sequence[str]) -> str | None:
    """The ``--layers`` value of a state's layers (None: the default layers)."""
    return ",".join(layers) or None
