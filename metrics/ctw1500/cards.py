"""SCUT-CTW1500's card: what the metric is, before any of its code is imported."""

from __future__ import annotations

from metrics.declare.card import Card
from metrics.declare.offers import ctw1500_like

CARDS: tuple[Card, ...] = (
    Card(
        id="ctw1500_eval",
        title="SCUT-CTW1500 eval",
        family="metrics.ctw1500",
        params="Ctw1500Params",
        aliases=("ctw1500", "ctw"),
        applies=ctw1500_like,
        what="SCUT-CTW1500's VOC-style polygon matching: IoU > 0.5 against the best GT, in file "
        "order; self-intersecting detections skipped; its AP over the file order as an extra "
        "figure (ap_file_order)",
        source="Curve-Text-Detector tools/ctw1500_evaluation",
        datasets="SCUT-CTW1500 (the dataset's own protocol)",
        credit="credit 1 when matched: IoU > 0.5 with the best GT, which must be free",
        canvas="GT and detections coloured by verdict; a line joins each matched pair (IoU on "
        "it). A missed GT or false positive is labelled with its best IoU (the near miss). "
        "Skipped (invalid) detections are drawn as not evaluated.",
    ),
)
