"""Overlay building: from a sample and a metric's result to draw items. No Qt here.

The viewer never computes a score: every colour and number below is read from the engine's
``SampleResult`` (verdicts, credits, match records, evidence). This module only decides what
to draw where, so it can be tested without a display and shared by the window and exports.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from metrics.check import Finding
from metrics.core.model import Problem, Sample
from metrics.core.results import MatchKind, MatchRecord, SampleResult, Verdict
from metrics.shapes.anchors import link_ends
from viewer.scene.checks import finding_items
from viewer.scene.items import DrawItem, Ref, bboxes, sample_boxes
from viewer.scene.palette import (
    MATCH_KIND,
    PCC_STATE,
    STATE_STYLE,
    TIOU_REGION,
    TIOU_TEXT,
    StyleKey,
    verdict_key,
)
from viewer.scene.texts import label_items, text_items, texts_item


def _verdicts(result: SampleResult | None, side: str, n: int) -> list[Any]:
    if result is None:
        return [None] * n
    items = result.gt if side == "gt" else result.det
    return [r.verdict for r in items]


def _partners(result: SampleResult | None) -> dict[Ref, tuple[Ref, ...]]:
    """Each matched instance's partners (the other instances of its matches), in order."""
    out: dict[Ref, list[Ref]] = {}
    if result is None:
        return {}
    for m in result.matches:
        refs = [("gt", i) for i in m.gt] + [("det", j) for j in m.det]
        if len(refs) == 2:  # one-to-one, most matches: each the other's partner
            a, b = refs
            if a != b:
                out.setdefault(a, []).append(b)
                out.setdefault(b, []).append(a)
            continue
        for r in refs:
            out.setdefault(r, []).extend(x for x in refs if x != r)
    return {k: tuple(dict.fromkeys(v)) if len(v) > 1 else tuple(v) for k, v in out.items()}


def instance_items(sample: Sample, result: SampleResult | None) -> list[DrawItem]:
    """GT and detection outlines, coloured by the metric's verdict (or by what the evidence
    says beyond it: skipped, under the score threshold, best GT taken)."""
    partners = _partners(result)
    ev = result.evidence if result is not None else None
    states = ev.instance_states() if ev is not None else ({}, {})
    items = []
    none: tuple[Ref, ...] = ()
    for side, insts, state in (("gt", sample.gt, states[0]), ("det", sample.det, states[1])):
        verdicts = _verdicts(result, side, len(insts))
        verdicts += [None] * (len(insts) - len(verdicts))
        if side == "gt":
            dc = Verdict.DONT_CARE
            verdicts = [dc if g.dont_care else v for g, v in zip(insts, verdicts, strict=False)]
        styles: dict[tuple[str, Any], StyleKey] = {}  # a few distinct ones per page
        for k, (inst, v) in enumerate(zip(insts, verdicts, strict=False)):
            key = (state.get(k, ""), v) if state else ("", v)
            style = styles.get(key)
            if style is None:
                style = styles[key] = STATE_STYLE.get((side, key[0]), verdict_key(side, v))
            ref = (side, k)
            items.append(
                DrawItem(side, "polygon", inst.points, style, "", ref, partners.get(ref, none))
            )
    return items


def link_items(sample: Sample, result: SampleResult) -> list[DrawItem]:
    """Lines from each matched GT to each of its detections, one batch per match kind,
    between points inside the two instances (the engine's ``link_ends``: the centre of a
    curved word's box lies outside the word, and a link between such centres floated in the
    empty inside of the curve); of no length where the GT's point lies in the detection."""
    ng, nd = len(sample.gt), len(sample.det)
    batches: dict[StyleKey, tuple[list[int], list[int], list[str]]] = {}
    for m in result.matches:
        gts, dets, texts = batches.setdefault(MATCH_KIND[m.kind], ([], [], []))
        label = _match_label(result.metric, m)
        for i in m.gt:
            if i >= ng:
                continue
            for j in m.det:
                if j < nd:
                    gts.append(i)
                    dets.append(j)
                    texts.append(label)
    return [
        DrawItem(
            "links",
            "lines",
            link_ends([sample.gt[i].points for i in gts], [sample.det[j].points for j in dets]),
            style,
            data={
                "texts": texts,
                "refs": [("det", j) for j in dets],
                "related": [("gt", i) for i in gts],
            },
        )
        for style, (gts, dets, texts) in batches.items()
    ]


def _match_label(metric: str, m: MatchRecord) -> str:
    kind = {MatchKind.ONE_TO_ONE: "", MatchKind.SPLIT: "split ", MatchKind.MERGE: "merge "}[m.kind]
    v = m.values
    if "iou" in v:
        return f"{kind}IoU {v['iou']:.2f}"
    if "recall" in v and "precision" in v:
        return f"{kind}R {v['recall']:.2f} P {v['precision']:.2f}"
    return kind.strip() or m.label


def dont_care_items(sample: Sample) -> list[DrawItem]:
    return [
        DrawItem("dont_care", "polygon", g.points, StyleKey.DONT_CARE_REGION, ref=("gt", k))
        for k, g in enumerate(sample.gt)
        if g.dont_care
    ]


def tiou_items(sample: Sample, result: SampleResult) -> list[DrawItem]:
    """Cut regions (GT minus detection) and outlier regions, with Ct/|G| and Ot/|D| labels
    where the TIoU penalty applies."""
    items: list[DrawItem] = []
    labels: dict[str, tuple[list[np.ndarray], list[str], list[int], list[tuple[Ref, ...]]]] = {}
    for m in result.matches:
        regions = m.regions
        if not regions:
            continue
        refs: tuple[Ref, ...] | None = None
        for name, ratio_key, factor_key in _TIOU_PARTS:
            region = regions.get(name)
            if region is None or not region.rings:
                continue
            if refs is None:
                refs = tuple(("gt", i) for i in m.gt) + tuple(("det", j) for j in m.det)
            owner, related, style = refs[0], refs[1:], TIOU_REGION[name]
            items.extend(
                [
                    DrawItem("tiou", "polygon", ring, style, "", owner, related)
                    for ring in region.rings
                ]
            )
            v = m.values
            ratio = v.get(ratio_key, 0.0)
            if ratio > 0 and v.get(factor_key, 1.0) < 1.0:
                rings, texts, gts, owners = labels.setdefault(name, ([], [], [], []))
                rings.append(max(region.rings, key=len))
                texts.append(f"{name} {100 * ratio:.0f} %")
                gts.append(m.gt[0] if m.gt else -1)
                owners.append(refs)  # the label may cover its match's instances
    if labels:
        items.extend(_tiou_labels(sample, labels))
    return items


_TIOU_PARTS = (("cut", "ct_ratio", "f_ct"), ("outlier", "ot_ratio", "f_ot"))


def _tiou_labels(
    sample: Sample,
    labels: dict[str, tuple[list[np.ndarray], list[str], list[int], list[tuple[Ref, ...]]]],
) -> list[DrawItem]:
    """The Ct/|G| and Ot/|D| labels at their regions' centres, sized by their GT's height."""
    gb, _ = sample_boxes(sample)
    items = []
    for name, (rings, texts, gts, owners) in labels.items():
        lengths = np.fromiter((len(r) for r in rings), dtype=np.intp, count=len(rings))
        starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
        centres = np.add.reduceat(np.concatenate(rings), starts, axis=0) / lengths[:, None]
        idx = np.asarray(gts, dtype=np.intp)
        sizes = (
            np.where(idx >= 0, gb[idx, 3] - gb[idx, 1], 1e9) if len(gb) else np.full(len(idx), 1e9)
        )
        items.append(
            texts_item(
                "tiou",
                TIOU_TEXT[name],
                texts,
                [o[0] for o in owners],
                bboxes(rings),
                anchors=centres,
                sizes=sizes,
                owners=owners,
            )
        )
    return items


def pcc_items(result: SampleResult, sample: Sample | None = None) -> list[DrawItem]:
    """Pseudo character centres in three states: missed (0), counted (1), overlapped (2+);
    ``extra["size"]`` is the word's height (the painter shrinks the dots of small words)."""
    ev = result.evidence.pcc_evidence() if result.evidence is not None else None
    if ev is None:
        return []
    heights = (
        (sample_boxes(sample)[0][:, 3] - sample_boxes(sample)[0][:, 1])
        if sample is not None
        else None
    )
    items = []
    for i, (pts, h) in enumerate(zip(ev.points, ev.hits, strict=False)):
        pts = np.asarray(pts, dtype=float).reshape(-1, 2)
        h = np.asarray(h).reshape(-1)
        extra = {"size": float(heights[i])} if heights is not None and i < len(heights) else {}
        for state, mask in (("missed", h == 0), ("counted", h == 1), ("overlapped", h >= 2)):
            if np.any(mask):
                items.append(
                    DrawItem(
                        "pcc", "points", pts[mask], PCC_STATE[state], ref=("gt", i), extra=extra
                    )
                )
    return items


def angle_text(kind: str, angle: float, passed: bool, limit: float | None) -> str:
    """A multiline pair's angle with the rule it met or broke ("merge rejected: angle
    48.0° ≥ 45°"; TedEval rejects a pair whose angle reaches the limit)."""
    what = "merge" if kind == "MO" else "split"
    if limit is None:
        return f"{angle:.1f}°" if passed else f"{what} rejected: angle {angle:.1f}°"
    if passed:
        return f"angle {angle:.1f}° < {limit:g}°"
    return f"{what} rejected: angle {angle:.1f}° ≥ {limit:g}°"


def multiline_items(result: SampleResult, limit: float | None = None) -> list[DrawItem]:
    """TedEval multiline test: pivots (left and centre) and the angle of each tested pair,
    with its label placed like the score labels (against the limit when known)."""
    items = []
    labels: dict[StyleKey, tuple[list[str], list[Ref], list[np.ndarray], list[tuple[Ref, ...]]]]
    labels = {}
    for group in result.evidence.multiline_tests() if result.evidence is not None else ():
        side = "gt" if group.kind == "MO" else "det"
        pivots = group.pivots
        style = StyleKey.MULTILINE_REJECTED if group.rejected else StyleKey.MULTILINE_ACCEPTED
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
        for pair in group.pairs:
            a, b = pair.a, pair.b
            if a not in pivots or b not in pivots:
                continue
            cb = np.asarray(pivots[b][1], float)
            ca, la = np.asarray(pivots[a][1], float), np.asarray(pivots[a][0], float)
            key = StyleKey.MULTILINE_ACCEPTED if pair.passed else StyleKey.MULTILINE_REJECTED
            text = angle_text(group.kind, pair.angle, pair.passed, limit)
            ring = np.stack([cb, ca, la])
            items.append(
                DrawItem(
                    "multiline", "arc", ring, key, text=text, ref=(side, a), related=((side, b),)
                )
            )
            texts, refs, boxes, owners = labels.setdefault(key, ([], [], [], []))
            texts.append(text)
            refs.append((side, a))
            boxes.append(np.concatenate([ring.min(axis=0), ring.max(axis=0)]))
            owners.append(((side, a), (side, b)))
    for key, (texts, refs, boxes, owners) in labels.items():
        big = np.full(len(texts), 1e9)  # shown at any zoom, like the arcs
        rects = np.asarray(boxes, float).reshape(-1, 4)
        items.append(texts_item("multiline", key, texts, refs, rects, sizes=big, owners=owners))
    return items


def warning_items(sample: Sample, problems: Iterable[Problem]) -> list[DrawItem]:
    """Reader warnings drawn at the instance they concern (matched by source and line)."""
    problems = list(problems)
    if not problems:
        return []
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
                "warnings",
                "polygon",
                insts[ref[1]].points,
                StyleKey.WARNING,
                text=p.message,
                ref=ref,
            )
        )
    return items


def build_overlay(
    sample: Sample,
    result: SampleResult | None,
    problems: Sequence[Problem] = (),
    findings: Sequence[Finding] = (),
    *,
    params: object = None,
) -> list[DrawItem]:
    """Every draw item of a sample; the painter shows the layers that are switched on
    (``params``: the metric's, for the limits that labels name)."""
    items = dont_care_items(sample)
    if result is not None:
        items += tiou_items(sample, result)
    items += instance_items(sample, result)
    if result is not None:
        items += link_items(sample, result) + label_items(sample, result, params)
        limit = getattr(params, "multiline_angle", None)
        items += pcc_items(result, sample) + multiline_items(result, limit)
    items += text_items(sample)
    items += warning_items(sample, [p for p in problems if p.sample_id == sample.id])
    return items + finding_items(sample, findings)
