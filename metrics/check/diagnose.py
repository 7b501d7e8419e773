""" "Why is everything 0?": detections on another scale or offset than the GT, normalised
(0-1) coordinates, x and y swapped, nothing paired, nothing detected.

Each guess is tested, not assumed: a quick score (share of care GTs whose bounding box has
IoU > 0.5 with some detection's bounding box) is computed as given and with the suspected
transform undone; a guess is reported only when undoing it lifts the score clearly.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from metrics.check.findings import Finding, Level
from metrics.model import Dataset, FloatArray, Sample

Transform = Callable[[FloatArray, Sample], FloatArray]


@dataclass(frozen=True)
class Boxes:
    """Axis-aligned bounds (n, 4) of the care GTs and of the detections, per sample."""

    samples: tuple[Sample, ...]
    gt: tuple[FloatArray, ...]
    det: tuple[FloatArray, ...]


def _bounds(items: Sequence[FloatArray]) -> FloatArray:
    if not items:
        return np.zeros((0, 4))
    return np.array([[*p.min(axis=0), *p.max(axis=0)] for p in items], dtype=np.float64)


def boxes(ds: Dataset) -> Boxes:
    used = tuple(s for s in ds if s.det and any(not g.dont_care for g in s.gt))
    return Boxes(
        used,
        tuple(_bounds([g.points for g in s.gt if not g.dont_care]) for s in used),
        tuple(_bounds([d.points for d in s.det]) for s in used),
    )


def hit_rate(gt: Sequence[FloatArray], det: Sequence[FloatArray]) -> float:
    """Share of GT boxes with bounding-box IoU > 0.5 against some detection."""
    hits = total = 0
    for g, d in zip(gt, det, strict=True):
        total += len(g)
        if not len(g) or not len(d):
            continue
        iw = np.minimum(g[:, None, 2], d[None, :, 2]) - np.maximum(g[:, None, 0], d[None, :, 0])
        ih = np.minimum(g[:, None, 3], d[None, :, 3]) - np.maximum(g[:, None, 1], d[None, :, 1])
        inter = np.clip(iw, 0, None) * np.clip(ih, 0, None)
        ga = (g[:, 2] - g[:, 0]) * (g[:, 3] - g[:, 1])
        da = (d[:, 2] - d[:, 0]) * (d[:, 3] - d[:, 1])
        union = ga[:, None] + da[None, :] - inter
        iou = np.divide(inter, union, out=np.zeros_like(inter), where=union > 0)
        hits += int(np.sum(iou.max(axis=1) > 0.5))
    return hits / total if total else 0.0


def _swap(b: FloatArray) -> FloatArray:
    return b[:, [1, 0, 3, 2]]


def _scale(b: FloatArray, sx: float, sy: float) -> FloatArray:
    out: FloatArray = b * np.array([sx, sy, sx, sy])
    return out


def _shift(b: FloatArray, dx: float, dy: float) -> FloatArray:
    out: FloatArray = b + np.array([dx, dy, dx, dy])
    return out


def _centres(bs: Sequence[FloatArray]) -> FloatArray:
    stacked = [b for b in bs if len(b)]
    if not stacked:
        return np.zeros((0, 2))
    a = np.concatenate(stacked)
    return np.stack([(a[:, 0] + a[:, 2]) / 2, (a[:, 1] + a[:, 3]) / 2], axis=1)


def _sizes(bs: Sequence[FloatArray]) -> FloatArray:
    stacked = [b for b in bs if len(b)]
    if not stacked:
        return np.ones((1, 2))
    a = np.concatenate(stacked)
    return np.stack([a[:, 2] - a[:, 0], a[:, 3] - a[:, 1]], axis=1)


def guesses(b: Boxes, sizes: dict[str, tuple[int, int]]) -> list[tuple[str, list[FloatArray]]]:
    """Candidate repairs of the detections: (what they undo, repaired bounds per sample)."""
    out: list[tuple[str, list[FloatArray]]] = [("x and y swapped", [_swap(d) for d in b.det])]
    dets = [d for d in b.det if len(d)]
    unit = bool(dets) and float(np.max(np.abs(np.concatenate(dets)))) <= 1.5
    if unit and sizes:
        fixed = [_scale(d, *sizes.get(s.id, (1, 1))) for s, d in zip(b.samples, b.det, strict=True)]
        out.append(("normalised to 0-1 (multiplied back by the image size)", fixed))
    gs, ds = np.median(_sizes(b.gt), axis=0), np.median(_sizes(b.det), axis=0)
    if np.all(ds > 0):
        sx, sy = float(gs[0] / ds[0]), float(gs[1] / ds[1])
        if not (0.8 < sx < 1.25 and 0.8 < sy < 1.25):
            what = "normalised to 0-1" if unit else "on another scale"
            out.append(
                (
                    f"{what} (about x {1 / sx:.3g}, y {1 / sy:.3g} of the GT's)",
                    [_scale(d, sx, sy) for d in b.det],
                )
            )
    gc, dc = np.median(_centres(b.gt), axis=0), np.median(_centres(b.det), axis=0)
    dx, dy = float(gc[0] - dc[0]), float(gc[1] - dc[1])
    if max(abs(dx), abs(dy)) >= 2:
        out.append((f"shifted by ({-dx:+.0f}, {-dy:+.0f}) px", [_shift(d, dx, dy) for d in b.det]))
    return out


def why_zero(ds: Dataset, sizes: dict[str, tuple[int, int]]) -> Iterator[Finding]:
    """Dataset-level findings on detections that cannot score."""
    if ds.det_path is None:
        return
    if not any(s.det_source for s in ds):
        yield Finding(
            Level.ERROR,
            "no_pairs",
            "no detection file pairs with a GT file "
            "(compare the file names: gt_img_1.txt ~ res_img_1.txt ~ img_1.txt)",
            ds.det_path,
        )
        return
    if not any(s.det for s in ds):
        yield Finding(Level.ERROR, "no_detections", "every detection file is empty", ds.det_path)
        return
    gts = [g for s in ds for g in s.gt]
    if gts and all(g.text is None for g in gts) and any(d.text for s in ds for d in s.det):
        yield Finding(
            Level.ERROR,
            "gt_det_swapped",
            "the GT files carry no transcription and the detection files do: --gt and --det "
            "look swapped",
            ds.gt_path,
        )
    b = boxes(ds)
    base = hit_rate(b.gt, b.det)
    scored = [
        (hit_rate(b.gt, fixed), what)
        for what, fixed in guesses(b, {s.id: sizes[s.id] for s in b.samples if s.id in sizes})
    ]
    score, what = max(scored, default=(0.0, ""))
    if score >= 0.2 and score > 2 * base + 0.1:
        yield Finding(
            Level.ERROR,
            "det_transform",
            f"detections look {what}: a quick "
            f"box-match rate is {base:.2f} as given and {score:.2f} with that "
            "undone",
            ds.det_path,
        )
