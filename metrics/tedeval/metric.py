"""TedEval (``tedeval``): instance matching, then character-level scoring with pseudo characters.

Paper: Lee et al., "TedEval: A Fair Evaluation Metric for Scene Text Detectors", ICDAR 2019
workshops (arXiv:1907.01227).
Official implementation matched: clovaai/TedEval ``script.py`` + ``rrc_evaluation_funcs.py``
@f24e003 (Python 3, Polygon3), which produced ``shared/reference/*__tedeval.json``; spec
section 4.

A care GT of L characters gets L pseudo character centres (PCC) along its midline. Matching is
non-exclusive: many-to-one (MO), one-to-one (OO) and one-to-many (OM) records are all kept, with
both area thresholds at 0.4. A matched GT earns the fraction of its PCC that lie in exactly one
of its matched detections; a matched detection earns the fraction of the PCC of its matched GTs
that it contains.

Where this follows the code rather than the paper (spec 4.6, 7 rows 19-23, Appendix A):

- PCC inclusion is Polygon3's half-open PNPOLY test (a PCC on a shared vertical edge belongs to
  the right box only), with the smallest containing contour deciding for polygons that lost a
  don't-care region (T1);
- the multiline pivot "centre" is the polygon centroid, not the mean of the four vertices
  (T2; ``pivot_center="vertex_mean"`` restores the paper);
- a GT whose bounding box is more than 1.5 times taller than wide reads bottom to top for its
  PCC, while its multiline pivots keep the original vertex order (T3); the GT vertex order
  defines the reading direction (T6);
- OO uses the don't-care-cut detection for its centroid and for R/P but the original points
  for the diagonal, and its uniqueness test counts don't-care rows and columns (T4);
- with confidences the official code never records a matched detection, so its AP is always
  0 (per image: the precision when the image has no care GT): no figure, so none is reported
  (``NO_AP`` says why, in ``--json``) (T5);
- an empty care transcription divides by zero in the official run; ``validate`` reports it as
  an input error (T7);
- don't-care regions (dc GTs minus the care GTs they overlap) are cut out of *every* detection
  that overlaps them, don't-care or not (T8).

Engine choices: detections are evaluated in file order, or in stable descending-confidence
order (spec 0.7; tie order is the one unavoidable divergence); all indices in results are file
indices. Intersection areas are exact for axis-aligned integer boxes, computed in numpy for
other convex quads (separated, touching and nested pairs decided exactly) and by shapely/GEOS
for the rest (spec 0.5), so a threshold met exactly by a GPC round-off could flip (never seen
on the reference sets). Care GTs never overlap a don't-care region (it is cut out of the dc
GT first), so cutting dc regions out of a detection changes only its area in the care rows.
Many samples are evaluated in one vectorized pass (``evaluate_batch``); ``evaluate_sample`` is
a batch of one.

The steps live in helper modules: ``tedeval_inputs`` (flat inputs, Polygon3 numbers, PCC),
``tedeval_geometry`` (candidate pairs, intersection areas, don't-care cuts; numpy clipping in
``tedeval_clip``), ``tedeval_match`` (MO/OO/OM records, multiline test), ``tedeval_hits``
(PCC hits) and ``tedeval_results`` (results, evidence).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from itertools import chain
from operator import attrgetter, or_

from metrics.core.evidence import Limit
from metrics.core.floats import REFUSED
from metrics.core.model import BoxType, Instance, Problem, Sample, Severity
from metrics.core.results import SampleResult
from metrics.shapes.mode import Mode
from metrics.tedeval.geometry import build_geometry
from metrics.tedeval.hits import Contours, build_contours, count_hits, cut_rings, is_inside
from metrics.tedeval.inputs import build_inputs, build_pcc
from metrics.tedeval.match import Matcher
from metrics.tedeval.params import TedEvalParams
from metrics.tedeval.results import Assembler

ID = "tedeval"
NO_AP = (  # spec 4.6 T5
    "TedEval's official code never records a matched detection, so the AP it computes from "
    "confidences is always 0: not a score, so not reported"
)


# --------------------------------------------------------------------------- validation


def validate(sample: Sample, params: TedEvalParams) -> list[Problem]:
    """QUAD/LTRB boxes, integer coordinates, and no empty care transcription (T7)."""
    out: list[Problem] = []
    for side, source, items in (
        ("GT", sample.gt_source, sample.gt),
        ("det", sample.det_source, sample.det),
    ):
        where = source or side
        for inst in items:
            for message in _instance_problems(inst, side == "GT", params):
                out.append(Problem(Severity.ERROR, where, inst.line, message, sample.id))
    return out


def validate_batch(samples: Sequence[Sample], params: TedEvalParams) -> list[Problem]:
    """``validate`` of many samples; the usual clean input is recognised in one pass."""
    if _clean(samples, params):
        return []
    return [p for s in samples for p in validate(s, params)]


def _clean(samples: Sequence[Sample], params: TedEvalParams) -> bool:
    """True when no instance can break a rule of ``validate`` (C-level passes only)."""
    gts = list(chain.from_iterable(map(_GT, samples)))
    items = [*gts, *chain.from_iterable(map(_DET, samples))]
    return (
        BoxType.POLY not in set(map(_BOX_TYPE, items))
        and set(map(_SHAPE, map(_POINTS, items))) <= {(4, 2)}
        and (params.allow_float or all(map(_INTEGER, items)))
        and all(map(or_, map(_DONT_CARE, gts), map(bool, map(_TEXT, gts))))
    )


_GT, _DET = attrgetter("gt"), attrgetter("det")
_BOX_TYPE, _POINTS, _SHAPE = attrgetter("box_type"), attrgetter("points"), attrgetter("shape")
_INTEGER, _TEXT, _DONT_CARE = attrgetter("integer"), attrgetter("text"), attrgetter("dont_care")


def _instance_problems(inst: Instance, is_gt: bool, params: TedEvalParams) -> list[str]:
    out = []
    if inst.box_type is BoxType.POLY or inst.points.shape != (4, 2):
        out.append("TedEval reads QUAD (8 numbers) or LTRB (4 numbers) boxes only")
    if not inst.integer and not params.allow_float:
        out.append(REFUSED)
    if is_gt and not inst.dont_care and not inst.text:
        out.append(
            "empty transcription: TedEval divides by the number of characters "
            "(the official script aborts)"
        )
    return out


# --------------------------------------------------------------------------- evaluation


def evaluate_sample(sample: Sample, params: TedEvalParams) -> SampleResult:
    """TedEval of one image (spec 4.3) with the per-image rule of spec 0.9."""
    return evaluate_batch([sample], params)[0]


def evaluate_batch(
    samples: Sequence[Sample], params: TedEvalParams, mode: Mode | None = None
) -> list[SampleResult]:
    """TedEval of many images in one vectorized pass (same results as ``evaluate_sample``),
    with geometry of its own. ``mode``: what of each result is built (the scores, tally and
    extra values always; the lists and evidence as ``Mode.instances`` / ``evidence`` say)."""
    if not samples:
        return []
    inp = build_inputs(samples, params)
    pcc = build_pcc(inp, params)
    geo = build_geometry(inp, params)
    matching = Matcher(inp, geo, params).run()
    rings = functools.cache(lambda: cut_rings(geo))
    hits = count_hits(inp, geo, pcc, matching, lambda: build_contours(inp, geo, rings()))
    limits = (Limit(">=", params.area_recall), Limit(">=", params.area_precision))
    return Assembler(inp, geo, pcc, matching, hits, rings).results(ID, limits, mode or Mode())


# The PCC inclusion test under the names tests/metrics/test_tedeval.py imports from here.
_Contours = Contours
_inside = is_inside
