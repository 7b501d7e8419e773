""" "Why is everything 0?": detections on another scale or offset than the GT, normalised
(0-1) coordinates, x and y swapped, nothing paired, nothing detected.

Each guess is tested, not assumed: a quick score (share of care GTs whose bounding box has
IoU > 0.5 with some detection's bounding box) is computed as given and with the suspected
transform undone; a guess is reported only when undoing it lifts the score clearly.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

import numpy as np

from metrics.check.findings import Finding, Level
from metrics.core.model import Dataset, FloatArray, Sample
from metrics.core.records import dataclass
from metrics.io.icdar.plan import GT_AS_DET

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


@dataclass(frozen=True)
class Guess:
    """A suspected transform of the detections: what it is, what undoes it in the files,
    and the detections' bounds with it undone (per sample)."""

    what: str
    fix: str
    fixed: list[FloatArray]


def _extent(bs: Sequence[FloatArray]) -> tuple[float, float]:
    """The largest x and y of a side's boxes (the GT's: about the image size)."""
    stacked = [b for b in bs if len(b)]
    if not stacked:
        return 0.0, 0.0
    a = np.concatenate(stacked)
    return float(a[:, 2].max()), float(a[:, 3].max())


_UNIT = "normalised to 0-1"
_UNIT_FIX = "multiply x by the image width and y by its height before evaluating"


def _unit_guesses(b: Boxes, sizes: dict[str, tuple[int, int]]) -> list[Guess]:
    """Detections in 0-1: multiplied back by each image's size (``--images``) or by the GT
    extent (the largest GT x and y of the set: about the image size)."""
    out = []
    if sizes:
        fixed = [_scale(d, *sizes.get(s.id, (1, 1))) for s, d in zip(b.samples, b.det, strict=True)]
        out.append(Guess(f"{_UNIT} (multiplied back by the image sizes)", _UNIT_FIX, fixed))
    w, h = _extent(b.gt)
    if w > 1.5 and h > 1.5:
        what = f"{_UNIT} (multiplied back by the GT extent, {w:.0f}x{h:.0f})"
        out.append(Guess(what, _UNIT_FIX, [_scale(d, w, h) for d in b.det]))
    return out


def _scale_guesses(b: Boxes, unit: bool) -> list[Guess]:
    """Detections on another scale: the ratio of the median box sizes and of the extents."""
    out = []
    gs, ds = np.median(_sizes(b.gt), axis=0), np.median(_sizes(b.det), axis=0)
    (gw, gh), (dw, dh) = _extent(b.gt), _extent(b.det)
    sized = np.all(ds > 0) and np.all(gs > 0)  # zero-area or one-point boxes: no ratio
    ratios = [(float(gs[0] / ds[0]), float(gs[1] / ds[1]))] if sized else []
    if dw > 0 and dh > 0 and gw > 0 and gh > 0 and not unit:
        ratios.append((gw / dw, gh / dh))
    for sx, sy in ratios:
        if not (0.8 < sx < 1.25 and 0.8 < sy < 1.25):
            what = _UNIT if unit else "on another scale"
            out.append(
                Guess(
                    f"{what} (about x {1 / sx:.3g}, y {1 / sy:.3g} of the GT's)",
                    f"multiply x by {sx:.4g} and y by {sy:.4g} (detections made on resized "
                    "images?)",
                    [_scale(d, sx, sy) for d in b.det],
                )
            )
    return out


def guesses(b: Boxes, sizes: dict[str, tuple[int, int]]) -> list[Guess]:
    """Candidate repairs of the detections."""
    out = [
        Guess("x and y swapped", "swap x and y in the detection files", [_swap(d) for d in b.det])
    ]
    if not any(len(g) for g in b.gt) or not any(len(d) for d in b.det):
        return out  # no box on one side (only don't-care points, say): no size to compare
    dets = [d for d in b.det if len(d)]
    unit = bool(dets) and float(np.max(np.abs(np.concatenate(dets)))) <= 1.5
    if unit:
        out.extend(_unit_guesses(b, sizes))
    out.extend(_scale_guesses(b, unit))
    gc, dc = np.median(_centres(b.gt), axis=0), np.median(_centres(b.det), axis=0)
    dx, dy = float(gc[0] - dc[0]), float(gc[1] - dc[1])
    if max(abs(dx), abs(dy)) >= 2:
        out.append(
            Guess(
                f"shifted by ({-dx:+.0f}, {-dy:+.0f}) px",
                f"add ({dx:+.0f}, {dy:+.0f}) to the detections (cropped or padded images?)",
                [_shift(d, dx, dy) for d in b.det],
            )
        )
    return out


def gt_as_det(ds: Dataset) -> Iterator[Finding]:
    """The reader's "--det looks like a GT set" with a quick box-match rate: an error when
    it does not fit this GT (another dataset's GT: every score near 0), a warning when it
    does (two annotations compared, or the GT with itself)."""
    said = next((p for p in ds.problems if p.message.startswith(GT_AS_DET)), None)
    if said is None:
        return
    b = boxes(ds)
    rate = hit_rate(b.gt, b.det)
    fits = rate >= 0.2
    yield Finding(
        Level.WARNING if fits else Level.ERROR,
        "det_is_gt",
        f"{said.message}; a quick box-match rate with this GT is {rate:.2f}"
        + ("" if fits else ": the GT of other images or of another dataset?"),
        said.source,
    )


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
    sizes = {s.id: sizes[s.id] for s in b.samples if s.id in sizes}
    scored = [(hit_rate(b.gt, g.fixed), -k, g) for k, g in enumerate(guesses(b, sizes))]
    score, _, best = max(scored, key=lambda t: t[:2], default=(0.0, 0, None))
    if best is not None and score >= 0.2 and score > 2 * base + 0.1:
        yield Finding(
            Level.ERROR,
            "det_transform",
            f"detections look {best.what}: a quick box-match rate is {base:.2f} as given "
            f"and {score:.2f} with that undone; {best.fix}",
            ds.det_path,
        )
