"""The overlay layers the viewer knows: key, title, shortcut, and what each one shows."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class LayerInfo:
    key: str
    title: str
    shortcut: str
    description: str
    default: bool = True


LAYERS: tuple[LayerInfo, ...] = (
    LayerInfo("image", "Image", "I", "the photograph"),
    LayerInfo("gt", "GT boxes", "G", "ground truth coloured by verdict"),
    LayerInfo("det", "Detections", "T", "detections coloured by verdict"),
    LayerInfo("links", "Match links", "L", "lines joining matched GT and detections"),
    LayerInfo("labels", "Scores", "S", "per-instance recall / precision credit"),
    LayerInfo("text", "Transcriptions", "X", "GT text and detected text", default=False),
    LayerInfo("dont_care", "Don't care", "C", "don't-care regions (hatched)"),
    LayerInfo("tiou", "TIoU regions", "U", "cut (GT outside det) and outlier (other GTs in det)"),
    LayerInfo(
        "pcc", "Characters (PCC)", "P", "pseudo character centres: missed, counted, overlapped"
    ),
    LayerInfo("multiline", "Multiline", "M", "TedEval multiline pivots and angles"),
    LayerInfo(
        "warnings",
        "Warnings",
        "W",
        "reader warnings and dataset-check findings (bow-tie crossings, parts outside the "
        "image, duplicates)",
    ),
)

LAYER_KEYS = tuple(layer.key for layer in LAYERS)
DEFAULT_LAYERS = frozenset(layer.key for layer in LAYERS if layer.default)
