"""Non-integer coordinates: what ``--floats`` makes of them, in every command and metric.

Real predictions carry float coordinates (MMOCR, DBNet, PaddleOCR, docTR write them), while
the official ICDAR-family scripts, DetEval, TedEval, CLEval's QUAD/LTRB grammar and the
Total-Text scripts accept integers only. detlens evaluates them **as given** by default and
says so once per run (``float_note``); ``--floats`` chooses another rule:

``as-given``
    every metric evaluates the coordinates as written (the default);
``refuse``
    the official refusal: metrics whose official script reads integers only report each
    non-integer line as an error (their ``allow_float`` parameter set to false);
``round`` / ``truncate``
    coordinates are rounded to the nearest integer (half away from zero: ``np.rint`` ties to
    even are not what people expect of pixel coordinates) or truncated toward zero as the
    scripts' ``int()`` does, when the files are read, so every metric sees integers.

Whatever the mode but ``refuse``, a value within ``SNAP`` of an integer *is* that integer: a
format's scaling (docTR's relative geometry x page size: 370 / 720 * 720 =
369.99999999999994) must not turn an integer box into a float one. ``refuse`` judges what
was written, as the official scripts do. ``Instance.integer`` keeps saying whether the
coordinates were integers as read (after that snapping), also where ``round`` or
``truncate`` made them integers: the metrics look at it only to refuse (``refuse``), and
the run's note (``float_note``, from ``Facts``) counts it in every mode.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import Literal

import numpy as np

from metrics.core.model import Instance, Sample

FloatMode = Literal["as-given", "refuse", "round", "truncate"]
FLOAT_MODES: tuple[FloatMode, ...] = ("as-given", "refuse", "round", "truncate")
DEFAULT_FLOATS: FloatMode = "as-given"
SNAP = 1e-6

FLOATS_HELP = (
    "non-integer coordinates (what MMOCR, DBNet, PaddleOCR and docTR write): 'as-given' "
    "evaluates them as written (default), 'refuse' reports them as errors like the official "
    "scripts, which accept integers only, 'round' / 'truncate' make them integers when read"
)

REFUSED = (
    "coordinates must be integers: the official script accepts integers only "
    "(--floats refuse); --floats as-given evaluates them as written"
)


def check_mode(mode: str) -> FloatMode:
    """``mode`` when it is one of ``FLOAT_MODES``; ValueError otherwise."""
    for m in FLOAT_MODES:
        if m == mode:
            return m
    raise ValueError(f"--floats must be one of {', '.join(FLOAT_MODES)}, not {mode!r}")


def _settled(inst: Instance, mode: FloatMode) -> Instance:
    raw = np.asarray(inst.points, dtype=np.float64)
    near = np.rint(raw)
    p = np.where(np.abs(raw - near) <= SNAP, near, raw)
    # snapped to integers: integer; written as decimals that are whole ("1.0"): as written
    integer = bool(np.all(p == near)) and not np.array_equal(p, raw)
    if mode == "round":
        p = np.where(p < 0, -np.floor(-p + 0.5), np.floor(p + 0.5))
    elif mode == "truncate":
        p = np.trunc(p)
    return dataclasses.replace(inst, points=p, integer=integer)


def _settle_all(items: tuple[Instance, ...], mode: FloatMode) -> tuple[Instance, ...]:
    if all(i.integer for i in items):
        return items
    return tuple(i if i.integer else _settled(i, mode) for i in items)


def settle(samples: Sequence[Sample], mode: FloatMode) -> list[Sample]:
    """The samples with their non-integer coordinates made what ``mode`` says (module
    docstring); samples with integer coordinates only are returned as they are."""
    if mode == "refuse":
        return list(samples)
    out = []
    for s in samples:
        gt, det = _settle_all(s.gt, mode), _settle_all(s.det, mode)
        lines = None if s.gt_lines is None else _settle_all(s.gt_lines, mode)
        if gt is s.gt and det is s.det and lines is s.gt_lines:
            out.append(s)
        else:
            out.append(dataclasses.replace(s, gt=gt, det=det, gt_lines=lines))
    return out


def count_floats(instances: Iterable[Instance]) -> int:
    """How many of ``instances`` have a non-integer coordinate."""
    return sum(not i.integer for i in instances)


def float_note(n_gt: int, n_det: int, n_total_det: int, mode: FloatMode) -> str | None:
    """The once-per-run sentence on non-integer coordinates (None when there are none)."""
    if not (n_gt or n_det):
        return None
    parts = []
    if n_det:
        parts.append(f"{n_det} of {n_total_det} detections")
    if n_gt:
        parts.append(f"{n_gt} GT boxes")
    what = " and ".join(parts)
    if mode == "as-given":
        return (
            f"{what} have non-integer coordinates: evaluated as given (the official ICDAR, "
            "DetEval, TedEval, CLEval and Total-Text scripts accept integers only; "
            "--floats refuse|round|truncate)"
        )
    if mode == "refuse":
        return (
            f"{what} have non-integer coordinates: refused by the metrics whose official "
            "script accepts integers only (--floats refuse); --floats as-given evaluates them"
        )
    done = "rounded to the nearest integer" if mode == "round" else "truncated toward zero"
    return f"{what} had non-integer coordinates: {done} when read (--floats {mode})"


__all__ = [
    "DEFAULT_FLOATS",
    "FLOATS_HELP",
    "FLOAT_MODES",
    "REFUSED",
    "SNAP",
    "FloatMode",
    "check_mode",
    "count_floats",
    "float_note",
    "settle",
]
