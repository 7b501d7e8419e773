"""What each metric is and what each parameter means, in a sentence: the text behind
``detlens eval --list-metrics``, the viewer's "what am I looking at" and its parameter
tooltips. Documentation only (no rule lives here); the numbers quoted are the official
defaults, which the params dataclasses hold.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MetricHelp:
    """One metric: what it computes, the official code it reproduces, where papers use it,
    and what the canvas shows under it."""

    what: str
    source: str
    datasets: str
    canvas: str


_IOU_CANVAS = (
    "GT and detections coloured by verdict; a line joins each matched pair (IoU on it). "
    "A missed GT or false positive is labelled with its best IoU (the near miss)."
)
_TIOU_CANVAS = (
    _IOU_CANVAS + " Hatched: the cut (GT outside its detection, 'cut 28 %' of the GT) and the "
    "outliers (other GTs inside the detection, 'outlier 22 %' of the detection)."
)
_PCC_CANVAS = (
    "Dots are pseudo character centres (PCC) of each GT: red missed, green counted once, "
    "orange counted by several detections. Links show one-to-one, split and merge groups."
)

METRIC_HELP: dict[str, MetricHelp] = {
    "ic15_iou": MetricHelp(
        "ICDAR 2015 IoU: one-to-one greedy matching at IoU > 0.5; don't-care absorbs dets",
        "RRC 4.1 script (TIoU-metric 'Origin')",
        "ICDAR 2015, 2013, MLT, COCO-Text; most quad detectors",
        _IOU_CANVAS,
    ),
    "siou": MetricHelp(
        "SIoU: IoU matching, credit = IoU of the pair",
        "TIoU-metric script.py",
        "ICDAR 2015 (TIoU paper)",
        _IOU_CANVAS,
    ),
    "tiou": MetricHelp(
        "TIoU: IoU matching, credit penalised by the cut-off part of the GT (recall) and "
        "by other GTs inside the detection (precision)",
        "TIoU-metric script.py",
        "ICDAR 2015 (TIoU paper, CVPR 2019)",
        _TIOU_CANVAS,
    ),
    "curved_iou": MetricHelp(
        "IoU matching of polygons (float32 vertices, clockwise rings)",
        "TIoU-metric curved-tiou/script.py",
        "Total-Text, CTW1500",
        _IOU_CANVAS,
    ),
    "curved_siou": MetricHelp(
        "SIoU of polygons", "TIoU-metric curved-tiou/script.py", "Total-Text, CTW1500", _IOU_CANVAS
    ),
    "curved_tiou": MetricHelp(
        "TIoU of polygons",
        "TIoU-metric curved-tiou/script.py",
        "Total-Text, CTW1500 (TIoU paper)",
        _TIOU_CANVAS,
    ),
    "wordline_iou": MetricHelp(
        "IoU against word and text-line GT jointly: a line detection may match a line GT",
        "TIoU-metric Word_Text-Line/script.py",
        "ICDAR 2015 with text-line GT",
        _IOU_CANVAS,
    ),
    "wordline_tiou": MetricHelp(
        "TIoU against word and text-line GT jointly",
        "TIoU-metric Word_Text-Line/script.py",
        "ICDAR 2015 with text-line GT",
        _TIOU_CANVAS,
    ),
    "deteval": MetricHelp(
        "ICDAR 2013 DetEval: one-to-one, split (one GT, several dets, credit 0.8) and merge "
        "on area recall >= 0.8 and area precision >= 0.4",
        "RRC TL2p DetEval script",
        "ICDAR 2013, ICDAR 2011",
        "Links by kind: one-to-one, split (one GT, several dets), merge (several GTs, one det). "
        "The inspector and the pair matrix list the candidates DetEval discarded and why.",
    ),
    "tedeval": MetricHelp(
        "TedEval: character-level recall and precision from pseudo character centres, "
        "one-to-many and many-to-one matching, a multiline test for merges",
        "clovaai/TedEval script.py",
        "ICDAR 2013, ICDAR 2015",
        _PCC_CANVAS + " Diamonds and squares are the multiline pivots (square: rejected).",
    ),
    "cleval_det": MetricHelp(
        "CLEval detection: character-level scores with split, merge and overlap penalties",
        "pip cleval 0.1.1",
        "ICDAR 2013, 2015, Total-Text (CLEval paper)",
        _PCC_CANVAS,
    ),
    "cleval_e2e": MetricHelp(
        "CLEval end-to-end: characters counted only where the transcription matches (LCS)",
        "pip cleval 0.1.1",
        "ICDAR 2013, 2015 end-to-end",
        _PCC_CANVAS,
    ),
    "cleval_legacy_det": MetricHelp(
        "CLEval detection as the paper-era code computed it",
        "clovaai/CLEval @769dde2",
        "the CLEval paper's tables",
        _PCC_CANVAS,
    ),
    "cleval_legacy_e2e": MetricHelp(
        "CLEval end-to-end as the paper-era code computed it (with its recognition score)",
        "clovaai/CLEval @769dde2",
        "the CLEval paper's tables",
        _PCC_CANVAS,
    ),
    "totaltext_deteval": MetricHelp(
        "Total-Text's DetEval: one-to-one, one-to-many and many-to-one on polygons with "
        "tr 0.7, tp 0.6 and split/merge weight 0.8 (coverages rounded to 2 decimals)",
        "Total-Text-Dataset Evaluation_Protocol Deteval.py",
        "Total-Text (the dataset's own protocol, most curved-text papers)",
        "Links by kind (OO, OM, MO); the inspector gives sigma (GT coverage) and tau "
        "(detection coverage) of each pair.",
    ),
    "totaltext_voc": MetricHelp(
        "Total-Text's Pascal-VOC rule: one-to-one, IoU >= 0.5 with +1 in the union, each "
        "detection against its single best GT",
        "Total-Text-Dataset Evaluation_Protocol Pascal_VOC.py",
        "Total-Text",
        _IOU_CANVAS + " A detection whose best GT was already taken is a false positive.",
    ),
    "ctw1500_eval": MetricHelp(
        "SCUT-CTW1500's VOC-style polygon matching: IoU > 0.5 against the best GT, in file "
        "order; self-intersecting detections skipped; its AP over the file order as an extra "
        "figure (ap_file_order)",
        "Curve-Text-Detector tools/ctw1500_evaluation",
        "SCUT-CTW1500 (the dataset's own protocol)",
        _IOU_CANVAS + " Skipped (invalid) detections are drawn as not evaluated.",
    ),
    "mmocr_hmean_iou": MetricHelp(
        "MMOCR HmeanIOUMetric: ICDAR-style IoU matching swept over 7 score thresholds; "
        "the best H-mean of the sweep is reported (chosen on the evaluated set)",
        "MMOCR 1.x HmeanIOUMetric (strategy vanilla)",
        "what MMOCR training logs print (ICDAR 2015, Total-Text, CTW1500)",
        _IOU_CANVAS + " Detections under the shown threshold or dropped by the ignore rule are "
        "drawn as don't care.",
    ),
    "mmocr_hmean_iou_maxmatch": MetricHelp(
        "MMOCR HmeanIOUMetric with maximum bipartite matching instead of greedy",
        "MMOCR 1.x HmeanIOUMetric (strategy max_matching)",
        "MMOCR configs that set strategy='max_matching'",
        _IOU_CANVAS,
    ),
    "paddleocr_det_iou": MetricHelp(
        "PaddleOCR DetMetric: the ICDAR 2015 rule on polygons; invalid polygons skipped, "
        "images without GT dropped",
        "PaddleOCR ppocr/metrics/eval_det_iou.py",
        "what PaddleOCR training logs print",
        _IOU_CANVAS,
    ),
    "hiertext_word": MetricHelp(
        "HierText word level: polygon IoU, mutual-best matching at IoU >= 0.5, PQ = F x tightness",
        "google-research-datasets/hiertext eval.py",
        "HierText (ICDAR 2023 competition)",
        _IOU_CANVAS,
    ),
    "hiertext_line": MetricHelp(
        "HierText line level: pixel masks of the words of each line, mutual-best at IoU >= 0.5",
        "google-research-datasets/hiertext eval.py",
        "HierText",
        _IOU_CANVAS,
    ),
    "hiertext_paragraph": MetricHelp(
        "HierText paragraph level: pixel masks of the words of each paragraph",
        "google-research-datasets/hiertext eval.py",
        "HierText",
        _IOU_CANVAS,
    ),
}

PARAM_HELP: dict[str, str] = {
    "iou_threshold": "a pair matches when its IoU is above this",
    "dc_area_precision": "a detection is don't care when more than this share of it lies "
    "in one don't-care GT",
    "confidences": "rank detections by confidence before matching (auto: when every "
    "detection has one); ic15_iou also reports the AP of that ranking",
    "sort_by_confidence": "rank detections by confidence, as the script meant to (it computes "
    "the sort but keeps file order); its AP is then over that ranking (ap, not ap_file_order)",
    "allow_float": "accept non-integer coordinates (the official reader refuses them)",
    "check_orientation": "refuse quads that are not clockwise, as the official reader does",
    "tolerance": "a cut or outlier share up to this costs nothing (paper: 0)",
    "ot_zero_eps": "an outlier area up to this is taken as 0",
    "dc_as_outlier": "don't-care GTs count as outliers inside a detection (the official "
    "code's behaviour; paper: false)",
    "auto_orient": "reverse counter-clockwise polygons instead of refusing them (the "
    "official curved script refuses them)",
    "membership_op": "comparison of a word's share inside a line (word + text-line)",
    "membership": "share of a word inside a text line for it to belong to the line",
    "coverage_op": "comparison of a line's coverage by its words",
    "coverage": "share of a text line its words must cover",
    "skip_word": "which words a matched line hides from the word evaluation (official: "
    "by line index; paper: none)",
    "exclude_dc_words": "leave don't-care words out of the line's word set",
    "area_recall": "minimum share of the GT covered (DetEval tr, TedEval recall rule)",
    "area_precision": "minimum share of the detection covered (DetEval tp, TedEval, CLEval)",
    "center_diff": "maximum normalised distance of box centres for a one-to-one match",
    "w_oo": "credit of a one-to-one match",
    "w_om": "credit of a split (one GT, several detections)",
    "w_mo": "credit of a merge (several GTs, one detection)",
    "variant": "which copy of the official script (rrc, or legacy)",
    "per_image_empty_rule": "per-image scores of images without detections (official or ic15)",
    "vertical_aspect": "height/width above which a word's characters run vertically",
    "multiline_angle": "largest angle between pivots for words to be on one line (degrees)",
    "pivot_center": "centre used for the multiline pivots (centroid as the code, or the "
    "vertex mean as the paper)",
    "recall_gran_weight": "weight of the split penalty on recall",
    "precision_gran_weight": "weight of the merge penalty on precision",
    "vertical_thresh": "aspect ratio that makes a box vertical for its characters",
    "case_sensitive": "compare transcriptions with case (end-to-end)",
    "fp_chars": "how characters of unmatched detections count (official or paper)",
    "box_type": "how boxes are read (auto, LTRB, QUAD, POLY)",
    "gran_weight": "weight of the granularity penalty",
    "rs": "recognition score rule (official or paper)",
}


# How an instance's credit (its label's number) comes about, per metric: the tooltip of a
# label on the canvas.
CREDIT_HELP: dict[str, str] = {
    "ic15_iou": "credit 1 when matched: IoU = |G ∩ D| / |G ∪ D| > 0.5, greedy, one-to-one",
    "siou": "credit = IoU of the matched pair",
    "tiou": "recall credit = IoU × f(Ct/|G|), cut Ct = |G \\ D|; precision credit = IoU × "
    "f(Ot/|D|), outlier Ot = other GTs inside D; f(x) = 1 − x (1 up to the tolerance)",
    "curved_iou": "credit 1 when matched: IoU > 0.5, greedy, one-to-one",
    "curved_siou": "credit = IoU of the matched pair",
    "curved_tiou": "recall credit = IoU × f(Ct/|G|), precision credit = IoU × f(Ot/|D|)",
    "deteval": "1 for one-to-one, 0.8 for the GT and each detection of a split, 1 for each GT "
    "of a merge and its detection",
    "tedeval": "recall = GT characters (PCC) counted / characters; precision = detection "
    "area credit, both with the one-to-many / many-to-one rules",
    "cleval_det": "(characters found − granularity penalty) / characters; the penalty counts "
    "splits (recall) and merges (precision)",
    "cleval_e2e": "as CLEval detection, counting only characters whose text agrees (LCS)",
    "totaltext_deteval": "1 for OO, 0.8 for OM (per GT; per det on the precision side) and "
    "MO, on coverages sigma = |G ∩ D| / |G|, tau = |G ∩ D| / |D| rounded to 2 decimals",
    "totaltext_voc": "credit 1 when matched: |G ∩ D| / (|G ∪ D| + 1) >= 0.5 with the best GT",
    "ctw1500_eval": "credit 1 when matched: IoU > 0.5 with the best GT, which must be free",
    "mmocr_hmean_iou": "credit 1 when matched at the shown score threshold (IoU > 0.5)",
    "paddleocr_det_iou": "credit 1 when matched: IoU > 0.5, greedy, one-to-one",
}


def metric_line(metric: str) -> str:
    """One line for ``--list-metrics``: what it is, its source, where it is used."""
    h = METRIC_HELP.get(metric)
    if h is None:
        return ""
    return f"{h.what}. Reproduces {h.source}; used on {h.datasets}."


# DetEval's discarded candidates (``metrics.evidence.Discarded``): the stage and the reason
# in words, for the inspector and the pair matrix.
DISCARD_STAGE = {"OO": "one-to-one", "OM": "split (one-to-many)", "MO": "merge (many-to-one)"}
DISCARD_REASON = {
    "not_unique": "more than one candidate meets both area thresholds for this GT or this "
    "detection",
    "not_single_overlap": "the GT or the detection also overlaps other boxes (a one-to-one "
    "match needs a single overlap each)",
    "center_distance": "their centres are too far apart",
    "sum_below_threshold": "the summed area recall (split) or precision (merge) of the group "
    "stays under the threshold",
    "om_not_single": "the GT overlaps fewer than two detections (a split needs two or more)",
    "mo_not_single": "the detection overlaps fewer than two GTs (a merge needs two or more)",
}

DISCARD_SHORT = {
    "not_unique": "several candidates meet the thresholds",
    "not_single_overlap": "overlaps other boxes too",
    "center_distance": "centres too far apart",
    "sum_below_threshold": "summed area under the threshold",
    "om_not_single": "the GT overlaps fewer than 2 detections",
    "mo_not_single": "the detection overlaps fewer than 2 GTs",
}


def discard_line(stage: str, reason: str) -> str:
    """``"split (one-to-many) candidate discarded: <reason in words>"``."""
    why = DISCARD_REASON.get(reason, reason.replace("_", " "))
    return f"{DISCARD_STAGE.get(stage, stage)} candidate discarded: {why}"
