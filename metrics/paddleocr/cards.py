"""PaddleOCR's card: what the metric is, before any of its code is imported."""

from __future__ import annotations

from metrics.declare.card import Card
from metrics.declare.offers import always

CARDS: tuple[Card, ...] = (
    Card(
        id="paddleocr_det_iou",
        title="PaddleOCR DetMetric",
        family="metrics.paddleocr",
        params="PaddleParams",
        aliases=("paddleocr", "paddle"),
        applies=always,
        what="PaddleOCR DetMetric: the ICDAR 2015 rule on polygons; invalid polygons skipped, "
        "images without GT dropped",
        source="PaddleOCR ppocr/metrics/eval_det_iou.py",
        datasets="what PaddleOCR training logs print",
        credit="credit 1 when matched: IoU > 0.5, greedy, one-to-one",
        canvas="GT and detections coloured by verdict; a line joins each matched pair (IoU on "
        "it). A missed GT or false positive is labelled with its best IoU (the near miss).",
    ),
)
