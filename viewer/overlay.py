"""Overlay building: from a sample and a metric's result to draw items. No Qt here.

The viewer never computes a score: every colour and number below is read from the engine's
``SampleResult`` (verdicts, credits, match records, evidence). This module only decides what
to draw where, so it can be tested without a display and shared by the window and exports.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from metrics.geometry import rings_of
from metrics.model import Problem, Sample
from metrics.results import MatchKind, MatchRecord, SampleResult, Verdict

Ref = tuple[str, int]  # ("gt", i) or ("det", j)


@dataclass(frozen=True)
class DrawItem:
    """One thing to draw, in image coordinates.

    shape: "polygon" (closed ring), "line" (polyline), "points", "text", "arc".
    style: a key of ``viewer.style.STYLES`` (colour, fill, pen).
    ref: the instance it belongs to (for picking); related: instances to light up with it.
    """

    layer: str
    shape: str
    coords: np.ndarray
    style: str
    text: str = ""
    ref: Ref | None = None
    related: tuple[Ref, ...] = ()
    extra: Mapping[str, float] = field(default_factory=dict)


def verdict_style(side: str, verdict: Verdict | None) -> str:
    return f"{side}.{verdict.value if verdict is not None else 'none'}"


def _verdicts(result: SampleResult | None, side: str, n: int) -> list[Any]:
    if result is None:
        return [None] * n
    items = result.gt if side == "gt" else result.det
    return [r.verdict for r in items]


def _partners(result: SampleResult | None) -> dict[Ref, tuple[Ref, ...]]:
    out: dict[Ref, list[Ref]] = {}
    if result is None:
        return {}
    for m in result.matches:
        refs = [("gt", i) for i in m.gt] + [("det", j) for j in m.det]
        for r in refs:
            out.setdefault(r, []).extend(x for x in refs if x != r)
    return {k: tuple(dict.fromkeys(v)) for k, v in out.items()}


def instance_items(sample: Sample, result: SampleResult | None) -> list[DrawItem]:
    """GT and detection outlines, coloured by the metric's verdict."""
    partners = _partners(result)
    items = []
    for side, insts in (("gt", sample.gt), ("det", sample.det)):
        verdicts = _verdicts(result, side, len(insts))
        for k, inst in enumerate(insts):
            ref = (side, k)
            v = verdicts[k] if k < len(verdicts) else None
            if side == "gt" and inst.dont_care:
                v = Verdict.DONT_CARE
            items.append(
                DrawItem(
                    side,
                    "polygon",
                    inst.points,
                    verdict_style(side, v),
                    ref=ref,
                    related=partners.get(ref, ()),
                )
            )
    return items


def _centroid(points: np.ndarray) -> np.ndarray:
    return np.asarray(points, dtype=float).mean(axis=0)


def link_items(sample: Sample, result: SampleResult) -> list[DrawItem]:
    """A line from each matched GT to each of its detections, styled by the match kind."""
    items = []
    for m in result.matches:
        style = f"link.{m.kind.value}"
        label = _match_label(result.metric, m)
        for i in m.gt:
            for j in m.det:
                if i >= len(sample.gt) or j >= len(sample.det):
                    continue
                a, b = _centroid(sample.gt[i].points), _centroid(sample.det[j].points)
                items.append(
                    DrawItem(
                        "links",
                        "line",
                        np.stack([a, b]),
                        style,
                        text=label,
                        ref=("det", j),
                        related=(("gt", i),),
                    )
                )
    return items


def _match_label(metric: str, m: MatchRecord) -> str:
    kind = {MatchKind.ONE_TO_ONE: "", MatchKind.SPLIT: "split ", MatchKind.MERGE: "merge "}[m.kind]
    v = m.values
    if "iou" in v:
        return f"{kind}IoU {v['iou']:.2f}"
    if "recall" in v and "precision" in v:
        return f"{kind}R {v['recall']:.2f} P {v['precision']:.2f}"
    return kind.strip() or m.label


def label_items(sample: Sample, result: SampleResult) -> list[DrawItem]:
    """Per-instance credit: recall credit on GTs, precision credit on detections."""
    items = []
    for side, insts, res in (("gt", sample.gt, result.gt), ("det", sample.det, result.det)):
        for r in res:
            if r.index >= len(insts) or r.verdict is Verdict.DONT_CARE:
                continue
            pts = insts[r.index].points
            corner = (
                pts[np.argmin(pts[:, 0] + pts[:, 1])]
                if side == "gt"
                else pts[np.argmax(pts[:, 0] + pts[:, 1])]
            )
            name = "R" if side == "gt" else "P"
            items.append(
                DrawItem(
                    "labels",
                    "text",
                    np.asarray([corner], float),
                    f"label.{side}",
                    text=f"{name} {r.credit:.2f}",
                    ref=(side, r.index),
                )
            )
    return items


def dont_care_items(sample: Sample) -> list[DrawItem]:
    return [
        DrawItem("dont_care", "polygon", g.points, "dont_care", ref=("gt", k))
        for k, g in enumerate(sample.gt)
        if g.dont_care
    ]


def tiou_items(sample: Sample, result: SampleResult) -> list[DrawItem]:
    """Cut regions (GT minus detection) and outlier regions, with Ct/|G| and Ot/|D|."""
    items = []
    for m in result.matches:
        refs = tuple(("gt", i) for i in m.gt) + tuple(("det", j) for j in m.det)
        for name, ratio_key in (("cut", "ct_ratio"), ("outlier", "ot_ratio")):
            region = m.regions.get(name)
            if region is None:
                continue
            rings = rings_of(region)
            for ring in rings:
                items.append(
                    DrawItem("tiou", "polygon", ring, f"tiou.{name}", ref=refs[0], related=refs[1:])
                )
            ratio = m.values.get(ratio_key, 0.0)
            factor = m.values.get("f_ct" if name == "cut" else "f_ot", 1.0)
            if rings and ratio > 0 and factor < 1.0:
                where = max(rings, key=len).mean(axis=0)
                what = "Ct/|G|" if name == "cut" else "Ot/|D|"
                items.append(
                    DrawItem(
                        "tiou",
                        "text",
                        np.asarray([where]),
                        f"tiou.{name}.text",
                        text=f"{what} {ratio:.2f}",
                        ref=refs[0],
                    )
                )
    return items


def pcc_items(result: SampleResult) -> list[DrawItem]:
    """Pseudo character centres in three states: missed (0), counted (1), overlapped (2+)."""
    ev = result.evidence
    pcc, hits = ev.get("pcc"), ev.get("pcc_hits")
    if pcc is None or hits is None:
        return []
    items = []
    for i, (pts, h) in enumerate(zip(pcc, hits, strict=False)):
        pts = np.asarray(pts, dtype=float).reshape(-1, 2)
        h = np.asarray(h).reshape(-1)
        for state, mask in (("missed", h == 0), ("counted", h == 1), ("overlapped", h >= 2)):
            if np.any(mask):
                items.append(DrawItem("pcc", "points", pts[mask], f"pcc.{state}", ref=("gt", i)))
    return items


def multiline_items(result: SampleResult) -> list[DrawItem]:
    """TedEval multiline test: pivots (left and centre) and the angle of each tested pair."""
    items = []
    for group in result.evidence.get("multiline", ()):
        side = "gt" if group.get("kind") == "MO" else "det"
        rejected = bool(group.get("rejected"))
        pivots = group.get("pivots", {})
        style = "multiline.rejected" if rejected else "multiline.accepted"
        for idx, (left, centre) in pivots.items():
            items.append(
                DrawItem(
                    "multiline",
                    "points",
                    np.asarray([left, centre], float),
                    style,
                    ref=(side, int(idx)),
                )
            )
        for pair in group.get("pairs", ()):
            a, b = int(pair["a"]), int(pair["b"])
            if a not in pivots or b not in pivots:
                continue
            cb = np.asarray(pivots[b][1], float)
            ca, la = np.asarray(pivots[a][1], float), np.asarray(pivots[a][0], float)
            bad = not pair.get("passed", True)
            items.append(
                DrawItem(
                    "multiline",
                    "arc",
                    np.stack([cb, ca, la]),
                    "multiline.rejected" if bad else "multiline.accepted",
                    text=f"{pair.get('angle', 0.0):.1f}°",
                    ref=(side, a),
                    related=((side, b),),
                )
            )
    return items


def warning_items(sample: Sample, problems: Iterable[Problem]) -> list[DrawItem]:
    """Reader warnings drawn at the instance they concern (matched by source and line)."""
    by_line: dict[tuple[str | None, int], tuple[str, int]] = {}
    for side, source, insts in (
        ("gt", sample.gt_source, sample.gt),
        ("det", sample.det_source, sample.det),
    ):
        for k, inst in enumerate(insts):
            by_line[(source, inst.line)] = (side, k)
    items = []
    for p in problems:
        ref = by_line.get((p.source, p.line or 0))
        if ref is None:
            continue
        insts = sample.gt if ref[0] == "gt" else sample.det
        items.append(
            DrawItem(
                "warnings", "polygon", insts[ref[1]].points, "warning", text=p.message, ref=ref
            )
        )
    return items


def build_overlay(
    sample: Sample, result: SampleResult | None, problems: Sequence[Problem] = ()
) -> list[DrawItem]:
    """Every draw item of a sample; the painter shows the layers that are switched on."""
    items = dont_care_items(sample)
    if result is not None:
        items += tiou_items(sample, result)
    items += instance_items(sample, result)
    if result is not None:
        items += link_items(sample, result) + label_items(sample, result)
        items += pcc_items(result) + multiline_items(result)
    items += warning_items(sample, [p for p in problems if p.sample_id == sample.id])
    return items


def bounds(sample: Sample) -> tuple[float, float, float, float]:
    """(xmin, ymin, xmax, ymax) of every box of the sample (for a canvas without image)."""
    pts = [i.points for i in (*sample.gt, *sample.det)]
    if not pts:
        return (0.0, 0.0, 640.0, 480.0)
    allp = np.concatenate(pts)
    return (
        float(allp[:, 0].min()),
        float(allp[:, 1].min()),
        float(allp[:, 0].max()),
        float(allp[:, 1].max()),
    )


def hit_test(items: Sequence[DrawItem], x: float, y: float, layers: Iterable[str]) -> Ref | None:
    """The instance under (x, y): the smallest visible GT/det polygon containing it."""
    visible = set(layers)
    best: tuple[float, Ref] | None = None
    for it in items:
        if it.ref is None or it.shape != "polygon" or it.layer not in ("gt", "det"):
            continue
        if it.layer not in visible or not _inside(it.coords, x, y):
            continue
        area = _area(it.coords)
        if best is None or area < best[0]:
            best = (area, it.ref)
    return None if best is None else best[1]


def _inside(poly: np.ndarray, x: float, y: float) -> bool:
    """Even-odd ray casting, for picking with the mouse."""
    px, py = poly[:, 0], poly[:, 1]
    qx, qy = np.roll(px, 1), np.roll(py, 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        cross = ((py > y) != (qy > y)) & (x < (qx - px) * (y - py) / (qy - py) + px)
    return bool(np.count_nonzero(cross) % 2)


def _area(poly: np.ndarray) -> float:
    x, y = poly[:, 0], poly[:, 1]
    return float(abs(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))) / 2)
