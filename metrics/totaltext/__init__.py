"""The Total-Text dataset's own evaluation scripts: DetEval (tr 0.7 / tp 0.6) and Pascal VOC
(IoU >= 0.5). Face of the family: ``SPECS``. Spec: ``TOTALTEXT_CTW1500.md``."""

from __future__ import annotations

from metrics.spec import MetricSpec, totaltext_like
from metrics.totaltext import deteval, voc
from metrics.totaltext.params import TotalTextDetEvalParams, TotalTextVocParams

__all__ = ["SPECS", "TotalTextDetEvalParams", "TotalTextVocParams"]


SPECS: tuple[MetricSpec, ...] = (
    MetricSpec(
        id="totaltext_deteval",
        title="Total-Text DetEval",
        params_type=TotalTextDetEvalParams,
        evaluate=deteval.evaluate_batch,
        validate=deteval.validate_batch,
        aliases=("tt_deteval",),
        applies=totaltext_like,
    ),
    MetricSpec(
        id="totaltext_voc",
        title="Total-Text Pascal VOC",
        params_type=TotalTextVocParams,
        evaluate=voc.evaluate_batch,
        validate=voc.validate_batch,
        aliases=("tt_voc",),
        applies=totaltext_like,
        global_extras=voc.global_extras,
    ),
)
