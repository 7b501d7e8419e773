"""The metric catalogue without the metrics: one light entry per metric (id, family module,
title, aliases, ``applies`` predicate, whether it needs text-line GT).

Importing this imports no metric family, no numpy and no shapely, so ``detlens --help``,
``--list-metrics``, ``--metric`` lookups and the ``--metric all`` plan are cheap;
``metrics.registry.METRICS`` imports a family the first time one of its specs is asked for.
A new metric gets a line here and its spec in its family's ``SPECS``
(``tests/metrics/test_catalog.py`` checks that the two agree entry by entry).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from metrics.offers import (
    always,
    ctw1500_like,
    hierarchical,
    ltrb_only,
    polygon_data,
    quad_data,
    totaltext_like,
    transcribed,
    with_confidences,
    with_gt_lines,
)

if TYPE_CHECKING:
    from metrics.core.model import Dataset, Facts


@dataclass(frozen=True, slots=True)
class Entry:
    """What is known of a metric before its family is imported."""

    id: str
    family: str  # the module whose SPECS holds the spec
    title: str
    aliases: tuple[str, ...] = ()
    applies: Callable[[Dataset | Facts], bool] = always
    needs_gt_lines: bool = False


_ICDAR, _CLEVAL, _HT = "metrics.icdar", "metrics.cleval", "metrics.hiertext"

ENTRIES: tuple[Entry, ...] = (
    Entry("ic15_iou", _ICDAR, "ICDAR15 IoU", ("iou", "ic15"), quad_data),
    Entry("siou", _ICDAR, "SIoU", (), quad_data),
    Entry("tiou", _ICDAR, "TIoU", (), quad_data),
    Entry("curved_iou", _ICDAR, "curved IoU", ("ciou",), polygon_data),
    Entry("curved_siou", _ICDAR, "curved SIoU", ("csiou",), polygon_data),
    Entry("curved_tiou", _ICDAR, "curved TIoU", ("ctiou",), polygon_data),
    Entry("wordline_iou", _ICDAR, "Word&Text-Line IoU", ("wl_iou",), with_gt_lines, True),
    Entry("wordline_tiou", _ICDAR, "Word&Text-Line TIoU", ("wl_tiou",), with_gt_lines, True),
    Entry(
        "totaltext_deteval",
        "metrics.totaltext",
        "Total-Text DetEval",
        ("tt_deteval",),
        totaltext_like,
    ),
    Entry(
        "totaltext_voc", "metrics.totaltext", "Total-Text Pascal VOC", ("tt_voc",), totaltext_like
    ),
    Entry("ctw1500_eval", "metrics.ctw1500", "SCUT-CTW1500 eval", ("ctw1500", "ctw"), ctw1500_like),
    Entry("deteval", "metrics.deteval", "ICDAR13 DetEval", ("ic13", "deteval13"), ltrb_only),
    Entry("tedeval", "metrics.tedeval", "TedEval", ("ted",), quad_data),
    Entry("cleval_det", _CLEVAL, "CLEval", ("cleval", "cleval_det_polyfix"), always),
    Entry("cleval_e2e", _CLEVAL, "CLEval end-to-end", ("cleval_e2e_polyfix",), transcribed),
    Entry(
        "cleval_legacy_det",
        _CLEVAL,
        "CLEval (paper-era code)",
        ("cleval_legacy", "cleval_legacy_det_polyfix"),
        always,
    ),
    Entry("cleval_legacy_e2e", _CLEVAL, "CLEval end-to-end (paper-era code)", (), transcribed),
    Entry("mmocr_hmean_iou", "metrics.mmocr", "MMOCR hmean-iou", ("mmocr",), with_confidences),
    Entry(
        "mmocr_hmean_iou_maxmatch",
        "metrics.mmocr",
        "MMOCR hmean-iou (max_matching)",
        ("mmocr_maxmatch",),
        with_confidences,
    ),
    Entry(
        "paddleocr_det_iou",
        "metrics.paddleocr",
        "PaddleOCR DetMetric",
        ("paddleocr", "paddle"),
        always,
    ),
    Entry("hiertext_word", _HT, "HierText word PQ", ("hiertext_words", "ht_word"), hierarchical),
    Entry("hiertext_line", _HT, "HierText line PQ", ("hiertext_lines", "ht_line"), hierarchical),
    Entry(
        "hiertext_paragraph",
        _HT,
        "HierText paragraph PQ",
        ("hiertext_paragraphs", "ht_paragraph"),
        hierarchical,
    ),
)

BY_ID: dict[str, Entry] = {e.id: e for e in ENTRIES}


def entry(name: str) -> Entry:
    """Entry by id or alias (case-insensitive, ``-`` read as ``_``); KeyError naming the
    known ids otherwise."""
    key = name.strip().lower().replace("-", "_")
    found = BY_ID.get(key) or next((e for e in ENTRIES if key in e.aliases), None)
    if found is None:
        raise KeyError(f"unknown metric {name!r}; known: {', '.join(BY_ID)}")
    return found
