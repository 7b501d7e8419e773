"""The Total-Text dataset's own evaluation scripts: DetEval (tr 0.7 / tp 0.6) and Pascal VOC
(IoU >= 0.5). Face of the family: ``SPECS``. Spec: ``TOTALTEXT_CTW1500.md``."""

from __future__ import annotations

from metrics.model import BoxType, Dataset
from metrics.spec import MetricSpec
from metrics.totaltext import deteval, voc
from metrics.totaltext.params import TotalTextDetEvalParams, TotalTextVocParams

__all__ = ["SPECS", "TotalTextDetEvalParams", "TotalTextVocParams", "polygon_gt"]


def polygon_gt(ds: Dataset) -> bool:
    """Offered by ``--metric all`` for data that looks like Total-Text: polygon GT.

    True when some GT box is a polygon with more than 4 vertices (a curved word), or when
    every GT box was written as a polygon. Total-Text GT mixes curved polygons with 4-point
    lines (read as QUAD), so requiring every box to be POLY would miss it; quadrilateral
    (ICDAR 2015) and axis-aligned (ICDAR 2013) GT has no polygon with more than 4 vertices.
    """
    boxes = [g for s in ds for g in s.gt]
    if any(g.box_type is BoxType.POLY and len(g.points) > 4 for g in boxes):
        return True
    return bool(boxes) and all(g.box_type is BoxType.POLY for g in boxes)


SPECS: tuple[MetricSpec, ...] = (
    MetricSpec(
        id="totaltext_deteval",
        title="Total-Text DetEval",
        params_type=TotalTextDetEvalParams,
        evaluate=deteval.evaluate_batch,
        validate=deteval.validate_batch,
        aliases=("tt_deteval",),
        applies=polygon_gt,
    ),
    MetricSpec(
        id="totaltext_voc",
        title="Total-Text Pascal VOC",
        params_type=TotalTextVocParams,
        evaluate=voc.evaluate_batch,
        validate=voc.validate_batch,
        aliases=("tt_voc",),
        applies=polygon_gt,
        global_extras=voc.global_extras,
    ),
)
