"""CLEval (``cleval_det``, ``cleval_e2e``) and the paper-era code (``cleval_legacy_det``,
``cleval_legacy_e2e``): character-level detection and end-to-end evaluation.

Paper: Baek et al., "CLEval: Character-Level Evaluation for Text Detection and
Recognition Tasks", CVPR Workshops 2020.
Official implementations matched (spec section 5):

- ``cleval_*``: clovaai/CLEval @513623c = pip ``cleval`` 0.1.1 (``eval_functions.py``,
  ``box_types.py``, ``utils.py``, ``main.py``);
- ``cleval_legacy_*``: clovaai/CLEval @769dde2 (``script.py``, ``box_types.py``), the code
  behind the paper tables.

Every GT word gets L pseudo character centers (PCC) along its box; a det is credited with
the GT PCCs it contains. GTs and dets are matched non-exclusively (one-to-one, split,
merge), credited PCCs are counted once, and granularity penalties (#dets - 1 per split GT,
#GTs - 1 per merged det) are subtracted. End-to-end mode consumes det characters through
the longest common subsequence with the GT transcription.

Where this follows the code rather than the paper (spec 5.12, Appendix A):

- per-pair area precision ``|G ∩ D| / |D|`` >= 0.3 (0.1.1) / 0.5 (legacy) for one-to-one
  and split matches and a plain sum for merges, instead of the union-based > 0.5 (Q1, Q2);
  0.1.1 stores area precision in float32 (Q7);
- false-positive characters of an unmatched det: 0.1.1 ``round(0.5 + h/w)`` (1 for any wide
  box, Q3; ``fp_chars="paper"`` gives round(long side / short side)), legacy
  ``round(0.5 + w/h)``; Python half-even rounding;
- don't-care GTs get ``#`` x min(round(0.5 + max(r, 1/r)), 10) pseudo characters and PCCs
  computed before the care areas are cut out of them (Q11);
- 0.1.1 iterates valid GTs/dets as Python sets: the E2E consumption order and the credit of
  overlapped PCCs follow CPython's set order (Q8); LCS ties go left (0.1.1) or up (legacy)
  (Q9); legacy clamps (tp - gran) per image (Q30);
- the recognition score (RS) is the legacy formula ``Σ consumed / Σ len(det text)`` over
  matched dets (the paper's denominator ``max(TotalNum_j, d_j)`` with ``rs="paper"``);
  0.1.1 does not compute RS, it is exposed anyway;
- POLY boxes (spec 5.9): 0.1.1 crashes on POLY input; this implements the "minimal patch"
  semantics (the POLY box code of both versions, which is identical), including the padding
  of 1-3 point polygons, ``buffer(0)``, strict-interior inclusion and the aspect ratio
  ``+1e5`` (every dc POLY GT gets 10 characters, every unmatched POLY det costs 1) (Q4, Q5).

- a one-to-one match needs the GT to qualify with exactly one det over *all* dets, don't-care
  dets included, and the det with exactly one GT over all GTs (spec 5.4);
- a detection whose transcription is ``###`` (E2E) becomes ``#`` x pseudo length, as every
  official box does.

Choices where the official code is ambiguous or version dependent: area precision is
compared in float32 (``ap32 >= float32(c)``), the 0.1.1 don't-care sum is accumulated and
compared in float32 (NumPy 2 semantics), the merge sum in float64; granularity weights are
summed in float64 (0.1.1 keeps them in a float32 matrix: identical for integer weights).

The box mode (QUAD/LTRB vs POLY) is one switch in the official tools; here ``box_type``
``auto`` chooses POLY for a sample as soon as one of its boxes has a number of points other
than 4, else QUAD (force it with ``box_type="POLY"`` for a whole run). QUAD/LTRB coordinates
must be integers as in the official grammar unless ``allow_float``; the legacy RRC helper
rejects anticlockwise QUADs (``check_orientation``). Detection indices in results are file
indices, also when confidences re-order the evaluation (stable descending order, spec 0.7).

Layout: ``cleval_prep`` (what the CLEval metrics of a run share for a block of samples:
flat sides, geometry, don't-care cut; memoized in ``geometry.CACHE``), ``cleval_core`` (the
rest of the preparation: texts, PCCs, inclusion, area precision), ``cleval_match``
(don't-care dets, matching, scoring), ``cleval_e2e`` (E2E), ``cleval_results`` (the result
model), ``cleval_geom`` (geometry helpers), ``cleval_validate`` (input checks). Samples are
evaluated in blocks (``evaluate_batch*``); ``evaluate_sample`` is a block of one.
``validate`` checks a sample for the detection metrics, ``validate_e2e`` for the E2E ones
(``validate_batch*``: many samples).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from metrics.cleval.core import prepare
from metrics.cleval.e2e import E2E, score_e2e
from metrics.cleval.match import Outcome, match_and_score
from metrics.cleval.params import ClevalLegacyParams, ClevalParams, Params, Rules
from metrics.cleval.results import View
from metrics.cleval.tally import ClevalLegacyTally, ClevalTally
from metrics.cleval.validate import batch_problems, sample_problems
from metrics.core.model import Problem, Sample
from metrics.core.results import SampleResult, hmean
from metrics.core.tally import add_up
from metrics.shapes.mode import Mode

ID = "cleval_det"
ID_E2E = "cleval_e2e"
ID_LEGACY = "cleval_legacy_det"
ID_LEGACY_E2E = "cleval_legacy_e2e"

COUNTERS = ("split", "merge", "overlap", "miss", "fp_boxes", "fp_chars")


def rules(params: Params, e2e: bool) -> Rules:
    """The matching rules of a CLEval metric from its parameters (legacy or 0.1.1)."""
    if isinstance(params, ClevalLegacyParams):
        return Rules(
            legacy=True,
            e2e=e2e,
            c=params.area_precision,
            w_r=params.gran_weight,
            w_p=params.gran_weight,
            vertical_thresh=params.vertical_thresh,
            case_sensitive=params.case_sensitive,
            rs_paper=params.rs == "paper",
            confidences=params.confidences,
            box_type=params.box_type,
        )
    return Rules(
        legacy=False,
        e2e=e2e,
        c=params.area_precision,
        w_r=params.recall_gran_weight,
        w_p=params.precision_gran_weight,
        vertical_thresh=params.vertical_thresh,
        case_sensitive=params.case_sensitive,
        fp_paper=params.fp_chars == "paper",
        confidences=params.confidences,
        box_type=params.box_type,
    )


# --------------------------------------------------------------------------- validation


def validate(sample: Sample, params: Params, *, e2e: bool = False) -> list[Problem]:
    """Input rules of the official tools (spec 0.3-0.4, 5.6, 5.9, 6.1)."""
    orientation = isinstance(params, ClevalLegacyParams) and params.check_orientation
    return sample_problems(sample, params.box_type, params.allow_float, orientation, e2e)


def validate_e2e(sample: Sample, params: Params) -> list[Problem]:
    """``validate`` for the end-to-end metrics (detections must carry a transcription)."""
    return validate(sample, params, e2e=True)


def validate_batch(samples: Sequence[Sample], params: Params) -> list[Problem]:
    """``validate`` of many samples (the legacy orientation test in one pass)."""
    return _validate_batch(samples, params, False)


def validate_batch_e2e(samples: Sequence[Sample], params: Params) -> list[Problem]:
    """``validate_e2e`` of many samples."""
    return _validate_batch(samples, params, True)


def _validate_batch(samples: Sequence[Sample], params: Params, e2e: bool) -> list[Problem]:
    orientation = isinstance(params, ClevalLegacyParams) and params.check_orientation
    return batch_problems(samples, params.box_type, params.allow_float, orientation, e2e)


# --------------------------------------------------------------------------- evaluation


def evaluate_sample(sample: Sample, params: ClevalParams) -> SampleResult:
    """``cleval_det``: cleval 0.1.1 detection."""
    return _batch([sample], rules(params, False), ID, None)[0]


def evaluate_batch(
    samples: Sequence[Sample], params: ClevalParams, mode: Mode | None = None
) -> list[SampleResult]:
    return _batch(samples, rules(params, False), ID, mode)


def evaluate_batch_e2e(
    samples: Sequence[Sample], params: ClevalParams, mode: Mode | None = None
) -> list[SampleResult]:
    return _batch(samples, rules(params, True), ID_E2E, mode)


def evaluate_batch_legacy(
    samples: Sequence[Sample], params: ClevalLegacyParams, mode: Mode | None = None
) -> list[SampleResult]:
    return _batch(samples, rules(params, False), ID_LEGACY, mode)


def evaluate_batch_legacy_e2e(
    samples: Sequence[Sample], params: ClevalLegacyParams, mode: Mode | None = None
) -> list[SampleResult]:
    return _batch(samples, rules(params, True), ID_LEGACY_E2E, mode)


def _batch(
    samples: Sequence[Sample], rules: Rules, metric: str, mode: Mode | None
) -> list[SampleResult]:
    """Evaluate a block of samples together (flat arrays), one SampleResult per sample.
    Below ``Detail.SUMMARY`` (``mode.evidence`` False) no result has instance lists,
    records or evidence, and none of them is built."""
    if not samples:
        return []
    mode = mode or Mode()
    b = prepare(samples, rules, mode.cache)
    out = match_and_score(b, rules, records=mode.instances)
    e2 = score_e2e(b, out, rules, steps=mode.evidence) if rules.e2e else None
    recall, precision, kind, values, extra = _scores(out, e2, rules)
    view = View(b, out, e2, mode.instances) if mode.evidence else None
    g_care = np.bincount(b.g_owner[~b.g_dc], minlength=len(samples)).tolist()
    d_care = np.bincount(b.d_owner[~out.dc.det], minlength=len(samples)).tolist()
    tallies, counters, extras = (
        _rows(values, len(samples)),
        _rows({k: values[k] for k in COUNTERS}, len(samples)),
        _rows(extra, len(samples)),
    )
    tally_type = ClevalLegacyTally if kind == "cleval_legacy" else ClevalTally
    results: list[SampleResult] = []
    for s, sample in enumerate(samples):
        tally = tally_type(n_gt_care=g_care[s], n_det_care=d_care[s], **tallies[s])
        r, p = recall[s], precision[s]
        results.append(
            SampleResult(
                metric,
                sample.id,
                r,
                p,
                hmean(r, p),
                tally,
                () if view is None else view.gt_results(s),
                () if view is None else view.det_results(s),
                () if view is None else view.records(s),
                None if view is None else view.evidence(s, counters[s]),
                (),
                extras[s],
                view is not None and mode.instances,  # without a view: no lists at all
            )
        )
    return results


def _rows(columns: dict[str, list[float]], n: int) -> list[dict[str, float]]:
    """Per-sample dicts {key: column[s]} of per-sample columns (keys in column order)."""
    if not columns:
        return [{} for _ in range(n)]
    keys = list(columns)
    return [dict(zip(keys, row, strict=True)) for row in zip(*columns.values(), strict=True)]


# --------------------------------------------------------------------------- numbers (0.9, 5.5-5.6)


FloatList = list[float]


def _div(num: Any, den: Any) -> Any:
    num, den = np.asarray(num, dtype=float), np.asarray(den, dtype=float)
    return np.divide(num, den, out=np.zeros_like(num), where=den != 0)


def _scores(
    out: Outcome, e2: E2E | None, rules: Rules
) -> tuple[FloatList, FloatList, str, dict[str, FloatList], dict[str, FloatList]]:
    """Per-sample recall, precision, tally kind and values, extras (spec 0.9, 5.5, 5.6)."""
    ps = out.per_sample
    tp, gran_r, gran_p, chars_gt = ps["tp"], ps["gran_r"], ps["gran_p"], ps["chars_gt"]
    det_r = _div(np.maximum(tp - gran_r, 0), chars_gt)
    det_p = _div(np.maximum(tp - gran_p, 0), ps["chars_det"])
    counters = {k: ps[k] for k in ("split", "merge", "overlap", "fp_boxes")}
    values = {"chars_gt": chars_gt, "gran_r": gran_r, "gran_p": gran_p}
    extra: dict[str, Any] = {}
    if e2 is None:
        recall, precision = det_r, det_p
        values.update(
            tp=tp,
            chars_det=ps["chars_det"],
            miss=chars_gt - tp,
            fp_chars=ps["fp_chars"],
            **counters,
        )
        if rules.legacy:
            values.update(
                correct_r=np.maximum(tp - gran_r, 0), correct_p=np.maximum(tp - gran_p, 0)
            )
    else:
        es = e2.per_sample
        tp_e, chars_det_e = es["tp"], es["chars_det"]
        values.update(
            tp=tp_e,
            chars_det=chars_det_e,
            det_tp=tp,
            det_chars_det=ps["chars_det"],
            rs_num=es["rs_num"],
            rs_den=es["rs_den"],
            fp_chars=chars_det_e - tp_e,
            **counters,
        )
        if rules.legacy:
            correct_r = np.maximum(es["lcs"] - gran_r, 0)
            correct_p = np.maximum(tp_e - gran_p, 0)
            recall, precision = _div(correct_r, chars_gt), _div(correct_p, chars_det_e)
            values.update(
                correct_r=correct_r,
                correct_p=correct_p,
                miss=chars_gt - correct_r,
                det_correct_r=np.maximum(tp - gran_r, 0),
                det_correct_p=np.maximum(tp - gran_p, 0),
            )
        else:
            recall = _div(np.maximum(tp_e - gran_r, 0), chars_gt)
            precision = _div(np.maximum(tp_e - gran_p, 0), chars_det_e)
            values.update(miss=chars_gt - tp_e)
        extra = {
            "recognition_score": _div(es["rs_num"], es["rs_den"]),
            "det_recall": det_r,
            "det_precision": det_p,
            "det_hmean": _div(2 * det_r * det_p, det_r + det_p),
        }
    kind = "cleval_legacy" if rules.legacy else "cleval"
    as_lists = {k: np.asarray(v, dtype=float).tolist() for k, v in values.items()}
    return (
        np.asarray(recall).tolist(),
        np.asarray(precision).tolist(),
        kind,
        as_lists,
        {k: np.asarray(v, dtype=float).tolist() for k, v in extra.items()},
    )


def _ratio(num: float, den: float) -> float:
    return 0.0 if den == 0 else num / den


def global_extras(results: Iterable[SampleResult]) -> dict[str, float]:
    """Global attribute counters (sums over samples: split, merge, overlap, miss, fp boxes,
    fp characters), and for E2E the recognition score and the detection-level R/P/H."""
    items = list(results)
    if not items:
        return {}
    total = add_up([item.tally for item in items])
    out = {k: total[k] for k in ("split", "merge", "overlap", "miss")}
    out["fp"] = total["fp_boxes"]
    out["fp_chars"] = total["fp_chars"]
    if items[0].metric.endswith("e2e"):
        out["recognition_score"] = _ratio(total["rs_num"], total["rs_den"])
        if total.kind == "cleval_legacy":
            r = _ratio(total["det_correct_r"], total["chars_gt"])
            p = _ratio(total["det_correct_p"], total["det_chars_det"])
        else:
            r = _ratio(max(0.0, total["det_tp"] - total["gran_r"]), total["chars_gt"])
            p = _ratio(max(0.0, total["det_tp"] - total["gran_p"]), total["det_chars_det"])
        out.update(det_recall=r, det_precision=p, det_hmean=hmean(r, p))
    return out
