"""Input notes of ``paddleocr_det_iou`` (TOOLKITS.md sections 1 and 5).

PaddleOCR takes any polygons; nothing is refused. Located warnings say where the numbers
rest on a rule of the toolkit that a user may not expect, or where the official code would
crash and we evaluate what stays well defined:

* an image without any GT line: PaddleOCR's label encoder drops it, so it is never evaluated
  and its detections count nowhere (it has no per-image result);
* a polygon with fewer than 3 points (after padding, for GT): shapely cannot build it and the
  official evaluator raises; here it is skipped like an invalid polygon (listed in the
  result's evidence, ``gt_invalid_skipped`` / ``det_invalid_skipped``).

Invalid (self-intersecting) and non-simple polygons are skipped by the official code too;
they are listed in the evidence, not here.
"""

from __future__ import annotations

from metrics.core.model import Problem, Sample, Severity
from metrics.paddleocr.params import PaddleParams


def validate(sample: Sample, params: PaddleParams) -> list[Problem]:
    del params
    if not sample.gt:
        return [
            Problem(
                Severity.WARNING,
                sample.gt_source or "GT",
                None,
                "no GT line: PaddleOCR's label encoder drops this image; not evaluated "
                f"({len(sample.det)} detection(s) count nowhere)",
                sample.id,
            )
        ]
    out = []
    n_gt = max(len(g.points) for g in sample.gt)
    items = [(sample.gt_source or "GT", g, n_gt) for g in sample.gt]
    items += [(sample.det_source or "det", d, len(d.points)) for d in sample.det]
    for source, inst, n in items:
        if n < 3:
            out.append(
                Problem(
                    Severity.WARNING,
                    source,
                    inst.line,
                    f"polygon with {len(inst.points)} point(s): PaddleOCR's evaluator cannot "
                    "build it (it raises); skipped here like an invalid polygon",
                    sample.id,
                )
            )
    return out
