"""CLEval detection and end-to-end, 0.1.1 and the paper-era code. Face: ``SPECS``."""

from __future__ import annotations

from metrics.cleval import metric
from metrics.cleval.params import ClevalLegacyParams, ClevalParams
from metrics.spec import ConfidenceUse, MetricSpec, each_sample, transcribed

__all__ = ["SPECS", "ClevalLegacyParams", "ClevalParams"]

_validate = each_sample(metric.validate)
_validate_e2e = each_sample(metric.validate_e2e)
_RANKS = ConfidenceUse()  # a stable sort by confidence before matching (spec 0.7); no AP
# the counters mix units (metric.global_extras): said after each number in the notes
_UNITS = {
    "split": "GTs",
    "merge": "dets",
    "overlap": "chars",
    "miss": "chars",
    "fp": "dets",
    "fp_chars": "chars",
}

SPECS: tuple[MetricSpec, ...] = (
    MetricSpec(
        id="cleval_det",
        title="CLEval",
        params_type=ClevalParams,
        evaluate=metric.evaluate_batch,
        validate=_validate,
        aliases=("cleval", "cleval_det_polyfix"),
        global_extras=metric.global_extras,
        extras_read_evidence=False,
        confidences=_RANKS,
        extra_units=_UNITS,
    ),
    MetricSpec(
        id="cleval_e2e",
        title="CLEval end-to-end",
        params_type=ClevalParams,
        evaluate=metric.evaluate_batch_e2e,
        validate=_validate_e2e,
        aliases=("cleval_e2e_polyfix",),
        applies=transcribed,
        global_extras=metric.global_extras,
        extras_read_evidence=False,
        confidences=_RANKS,
        extra_units=_UNITS,
    ),
    MetricSpec(
        id="cleval_legacy_det",
        title="CLEval (paper-era code)",
        params_type=ClevalLegacyParams,
        evaluate=metric.evaluate_batch_legacy,
        validate=_validate,
        aliases=("cleval_legacy", "cleval_legacy_det_polyfix"),
        global_extras=metric.global_extras,
        extras_read_evidence=False,
        confidences=_RANKS,
        extra_units=_UNITS,
    ),
    MetricSpec(
        id="cleval_legacy_e2e",
        title="CLEval end-to-end (paper-era code)",
        params_type=ClevalLegacyParams,
        evaluate=metric.evaluate_batch_legacy_e2e,
        validate=_validate_e2e,
        applies=transcribed,
        global_extras=metric.global_extras,
        extras_read_evidence=False,
        confidences=_RANKS,
        extra_units=_UNITS,
    ),
)
