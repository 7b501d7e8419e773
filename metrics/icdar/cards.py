"""The ICDAR IoU family's cards: what each metric is, before any of its code is imported."""

from __future__ import annotations

from metrics.declare.card import Card
from metrics.declare.offers import polygon_data, quad_data, with_gt_lines

_F = "metrics.icdar"
_TIOU_SRC = "TIoU-metric script.py"
_CURVED_SRC = "TIoU-metric curved-tiou/script.py"
_WL_SRC = "TIoU-metric Word_Text-Line/script.py"
_WL_DATA = "ICDAR 2015 with text-line GT"
_CURVED_DATA = "Total-Text, CTW1500"
IOU_CANVAS = (
    "GT and detections coloured by verdict; a line joins each matched pair (IoU on it). "
    "A missed GT or false positive is labelled with its best IoU (the near miss)."
)
TIOU_CANVAS = (
    IOU_CANVAS + " Hatched: the cut (GT outside its detection, 'cut 28 %' of the GT) and the "
    "outliers (other GTs inside the detection, 'outlier 22 %' of the detection)."
)
_IOU_CREDIT = "credit 1 when matched: IoU = |G ∩ D| / |G ∪ D| > 0.5, greedy, one-to-one"
_SIOU_CREDIT = "credit = IoU of the matched pair"
_TIOU_CREDIT = (
    "recall credit = IoU × f(Ct/|G|), cut Ct = |G \\ D|; precision credit = IoU × "
    "f(Ot/|D|), outlier Ot = other GTs inside D; f(x) = 1 − x (1 up to the tolerance)"
)
_WL_CREDIT = (
    "; a detection matching a text line (IoU > 0.5) credits the line's member words it "
    "covers, the other words are matched as words"
)

CARDS: tuple[Card, ...] = (
    Card(
        id="ic15_iou",
        title="ICDAR15 IoU",
        family=_F,
        params="IouParams",
        aliases=("iou", "ic15"),
        applies=quad_data,
        what="ICDAR 2015 IoU: one-to-one greedy matching at IoU > 0.5; don't-care absorbs dets",
        source="RRC 4.1 script (TIoU-metric 'Origin')",
        datasets="ICDAR 2015, 2013, MLT, COCO-Text; most quad detectors",
        credit=_IOU_CREDIT,
        canvas=IOU_CANVAS,
    ),
    Card(
        id="siou",
        title="SIoU",
        family=_F,
        params="TiouParams",
        applies=quad_data,
        what="SIoU: IoU matching, credit = IoU of the pair",
        source=_TIOU_SRC,
        datasets="ICDAR 2015 (TIoU paper)",
        credit=_SIOU_CREDIT,
        canvas=IOU_CANVAS,
    ),
    Card(
        id="tiou",
        title="TIoU",
        family=_F,
        params="TiouParams",
        applies=quad_data,
        what="TIoU: IoU matching, credit penalised by the cut-off part of the GT (recall) and "
        "by other GTs inside the detection (precision)",
        source=_TIOU_SRC,
        datasets="ICDAR 2015 (TIoU paper, CVPR 2019)",
        credit=_TIOU_CREDIT,
        canvas=TIOU_CANVAS,
    ),
    Card(
        id="curved_iou",
        title="curved IoU",
        family=_F,
        params="CurvedParams",
        aliases=("ciou",),
        applies=polygon_data,
        what="IoU matching of polygons (float32 vertices, clockwise rings)",
        source=_CURVED_SRC,
        datasets=_CURVED_DATA,
        credit="credit 1 when matched: IoU > 0.5, greedy, one-to-one",
        canvas=IOU_CANVAS,
    ),
    Card(
        id="curved_siou",
        title="curved SIoU",
        family=_F,
        params="CurvedParams",
        aliases=("csiou",),
        applies=polygon_data,
        what="SIoU of polygons",
        source=_CURVED_SRC,
        datasets=_CURVED_DATA,
        credit=_SIOU_CREDIT,
        canvas=IOU_CANVAS,
    ),
    Card(
        id="curved_tiou",
        title="curved TIoU",
        family=_F,
        params="CurvedParams",
        aliases=("ctiou",),
        applies=polygon_data,
        what="TIoU of polygons",
        source=_CURVED_SRC,
        datasets="Total-Text, CTW1500 (TIoU paper)",
        credit="recall credit = IoU × f(Ct/|G|), precision credit = IoU × f(Ot/|D|)",
        canvas=TIOU_CANVAS,
    ),
    Card(
        id="wordline_iou",
        title="Word&Text-Line IoU",
        family=_F,
        params="WordlineParams",
        aliases=("wl_iou",),
        applies=with_gt_lines,
        needs_gt_lines=True,
        what="IoU against word and text-line GT jointly: a line detection may match a line GT",
        source=_WL_SRC,
        datasets=_WL_DATA,
        credit="credit 1 when matched: IoU > 0.5, greedy, one-to-one" + _WL_CREDIT,
        canvas=IOU_CANVAS,
    ),
    Card(
        id="wordline_tiou",
        title="Word&Text-Line TIoU",
        family=_F,
        params="WordlineParams",
        aliases=("wl_tiou",),
        applies=with_gt_lines,
        needs_gt_lines=True,
        what="TIoU against word and text-line GT jointly",
        source=_WL_SRC,
        datasets=_WL_DATA,
        credit="TIoU credits (IoU × f(cut) for recall, IoU × f(outliers) for precision)"
        + _WL_CREDIT,
        canvas=TIOU_CANVAS,
    ),
)
