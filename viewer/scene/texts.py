"""Text draw items: per-instance score labels and transcriptions (no Qt here).

Labels say what they mean ("recall 0.72", "missed, best IoU 0.49"; under an end-to-end
metric the recognition: GT text, what was read, LCS) and carry their instance's box and
whether it lost credit, for ``viewer.scene.labels`` to place them.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from metrics.core.evidence import RecognitionStep
from metrics.core.model import Sample
from metrics.core.results import InstanceResult, SampleResult, Verdict
from viewer.scene.items import DrawItem, Ref, sample_boxes
from viewer.scene.palette import INSTANCE_LABEL, TEXT_LABEL, StyleKey
from viewer.scene.rules import refusal

_MEASURE = {"iou": "IoU", "area_recall": "area recall", "area_precision": "area precision"}


_TAKEN = (Verdict.MATCHED, Verdict.PARTIAL)


def instance_label(
    side: str,
    r: InstanceResult,
    result: SampleResult | None,
    params: object,
    others: Mapping[int, Verdict] | None = None,
) -> str:
    """What a score label says, the one wording of every picture (canvas, export, report,
    gallery): the credit by its name, or why there is none: the rule of the metric's
    ``params`` that refused the match with its value and limit ("missed: IoU 0.49 ≤ 0.5",
    "merge rejected: angle 48.0° ≥ 45°", ``viewer.scene.rules``), else (no rule known) the
    best candidate ("missed, best IoU 0.49"); numbers as the engine gives them. Where that
    best partner (``others``: the other side's verdicts by instance index, default from
    ``result``) is matched to another instance, the label says so ("missed, best area
    recall 1.00, det 2 matched elsewhere"): a good value alone read as if the metric had
    ignored it."""
    rule = None
    lost = r.verdict in (Verdict.MISSED, Verdict.FALSE_POSITIVE)
    if lost and result is not None and params is not None:
        rule = refusal(result, side, r, params)
    if others is None and result is not None:
        others = {o.index: o.verdict for o in (result.det if side == "gt" else result.gt)}
    if r.verdict is Verdict.MISSED or r.verdict is Verdict.FALSE_POSITIVE:
        word = "missed" if side == "gt" else "false positive"
        if rule is not None:
            return f"{word}: {rule}"
        nm = r.near_miss
        if nm is None or nm.value < 0.005:  # nothing overlaps it to speak of
            return word
        measure = _MEASURE.get(nm.measure, nm.measure.replace("_", " "))
        text = f"{word}, best {measure} {nm.value:.2f}"
        if others is not None and others.get(nm.partner) in _TAKEN:
            text += f", {'det' if side == 'gt' else 'GT'} {nm.partner + 1} matched elsewhere"
        return text
    return f"{'recall' if side == 'gt' else 'precision'} {r.credit:.2f}"


def recognition_label(sample: Sample, step: RecognitionStep) -> str:
    """End-to-end: the GT text, what its detections read (``step.text``: their characters
    still unconsumed, in PCC order) and how many characters agree (LCS)."""
    truth = sample.gt[step.gt].text or ""
    return f"“{truth}” read “{step.text}”, LCS {step.lcs_len}/{len(truth)}"


def _recognition(sample: Sample, result: SampleResult) -> dict[int, tuple[str, bool]]:
    """GT index -> (recognition label, lost) under an end-to-end metric, else empty."""
    ev = result.evidence
    steps = ev.recognition_steps() if ev is not None else ()
    return {
        st.gt: (recognition_label(sample, st), st.lcs_len < len(sample.gt[st.gt].text or ""))
        for st in steps
        if st.gt < len(sample.gt)
    }


def texts_item(
    layer: str,
    style: StyleKey,
    texts: list[str],
    refs: list[Ref],
    boxes: np.ndarray,
    *,
    lost: np.ndarray | None = None,
    anchors: np.ndarray | None = None,
    sizes: np.ndarray | None = None,
    owners: list[tuple[Ref, ...]] | None = None,
) -> DrawItem:
    """A batch of labels for the painter to place: one text per instance ``refs[k]`` with the
    box it belongs to, whether its instance lost credit (shown by default; all do unless
    said), its anchor (default: the box's top left), the size that decides whether it is
    big enough on screen (default: the box's height) and the instances it speaks of, which it
    may cover (``owners``, first its own ``refs[k]``; default: that one)."""
    b = np.asarray(boxes, dtype=float).reshape(-1, 4)
    data: dict[str, object] = {}
    if owners is not None:
        data["owners"] = owners
    return DrawItem(
        layer,
        "texts",
        b[:, :2] if anchors is None else np.asarray(anchors, dtype=float),
        style,
        data={
            "texts": texts,
            "sizes": b[:, 3] - b[:, 1] if sizes is None else np.asarray(sizes, dtype=float),
            "refs": refs,
            "boxes": b,
            "lost": np.ones(len(texts), dtype=bool) if lost is None else lost,
            **data,
        },
    )


def label_items(sample: Sample, result: SampleResult, params: object = None) -> list[DrawItem]:
    """Per-instance credit labels (recall credit on GTs, precision credit on detections),
    with each instance's box for placement and whether it lost credit (shown by default);
    under an end-to-end metric a GT's label is its recognition (read text and LCS)."""
    items = []
    gb, db = sample_boxes(sample)
    e2e = _recognition(sample, result)
    for side, boxes, res in (("gt", gb, result.gt), ("det", db, result.det)):
        keep = [r for r in res if r.index < len(boxes) and r.verdict is not Verdict.DONT_CARE]
        if not keep:
            continue
        idx = np.fromiter((r.index for r in keep), dtype=np.intp, count=len(keep))
        b = boxes[idx]
        rec = e2e if side == "gt" else {}
        others = {o.index: o.verdict for o in (result.det if side == "gt" else result.gt)}
        texts = [
            rec[r.index][0] if r.index in rec else instance_label(side, r, result, params, others)
            for r in keep
        ]
        lost = [rec[r.index][1] if r.index in rec else r.credit < 1.0 for r in keep]
        refs: list[Ref] = [(side, r.index) for r in keep]
        items.append(
            texts_item(
                "labels", INSTANCE_LABEL[side], texts, refs, b, lost=np.array(lost, dtype=bool)
            )
        )
    return items


def text_items(sample: Sample) -> list[DrawItem]:
    """The transcriptions of the GT and of the detections, placed like the labels."""
    items = []
    gb, db = sample_boxes(sample)
    for side, insts, boxes in (("gt", sample.gt, gb), ("det", sample.det, db)):
        keep = [k for k, inst in enumerate(insts) if inst.text]
        if not keep:
            continue
        b = boxes[np.asarray(keep, dtype=np.intp)]
        texts = [f"“{insts[k].text}”" for k in keep]
        refs: list[Ref] = [(side, k) for k in keep]
        items.append(texts_item("text", TEXT_LABEL[side], texts, refs, b))
    return items
