"""The VOC average precision of ``voc_eval_polygon.py`` (``use_07_metric=False``), per image
and over the whole dataset (spec ``TOTALTEXT_CTW1500.md`` C5, quirk 15).

The cumulative TP / FP counts run over the detections in evaluation order (a skipped
detection adds neither but keeps its place); recall = tp / npos, precision =
tp / max(tp + fp, eps); AP = area under the precision envelope at the points where recall
changes. Same numpy operations as the official code, so the floats are the same.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from metrics.core.results import SampleResult
from metrics.ctw1500.evidence import VocEvidence
from metrics.declare.spec import AP_FILE_ORDER


def ap_key(ranked: bool) -> str:
    """The name of an AP: ``ap`` over detections ranked by confidence, ``ap_file_order``
    over detections in file order (the official script's ``ap``: its sort is not applied)."""
    return "ap" if ranked else AP_FILE_ORDER


def voc_ap(tp: Sequence[bool], fp: Sequence[bool], npos: int) -> float:
    """AP of one cumulative curve; NaN when undefined (no detection, or no GT at all)."""
    if not len(tp) or npos == 0:
        return float("nan")
    ctp = np.cumsum(np.asarray(tp, dtype=np.float64))
    cfp = np.cumsum(np.asarray(fp, dtype=np.float64))
    rec = ctp / float(npos)
    prec = ctp / np.maximum(ctp + cfp, np.finfo(np.float64).eps)
    mrec = np.concatenate(([0.0], rec, [1.0]))
    mpre = np.concatenate(([0.0], prec, [0.0]))
    mpre = np.maximum.accumulate(mpre[::-1])[::-1]
    i = np.where(mrec[1:] != mrec[:-1])[0]
    return float(np.sum((mrec[i + 1] - mrec[i]) * mpre[i + 1]))


def global_extras(results: Iterable[SampleResult]) -> dict[str, float]:
    """Dataset AP (0 when undefined; ``ap_file_order`` unless the detections were ranked by
    confidence, see ``ap_key``) and the official counters.

    The official tool concatenates the detection files in sorted file-name order, lines in
    order; with ``sort_by_confidence`` that list is then sorted (stable, descending).
    """
    rows: list[tuple[str, int, float, bool, bool]] = []
    npos, tp, fp, skipped, n_det, by_conf = 0, 0, 0, 0, 0, False
    for r in results:
        npos += int(r.tally["n_gt_care"])
        tp += int(r.extra["tp"])
        fp += int(r.extra["fp"])
        n_det += int(r.extra["num_det"])
        if isinstance(r.evidence, VocEvidence):
            ev = r.evidence
            skipped += len(ev.skipped_dets)
            by_conf = by_conf or ev.sorted_by_confidence
            rows.extend(
                zip(
                    [ev.det_file] * len(ev.order),
                    ev.order,
                    ev.confidence,
                    ev.tp,
                    ev.fp,
                    strict=True,
                )
            )
    rows.sort(key=lambda t: (t[0], t[1]))
    if by_conf:
        rows.sort(key=lambda t: -t[2])
    ap = voc_ap([t[3] for t in rows], [t[4] for t in rows], npos)
    return {
        ap_key(by_conf): 0.0 if np.isnan(ap) else ap,
        "tp": tp,
        "fp": fp,
        "skipped_dets": skipped,
        "num_det": n_det,
    }
