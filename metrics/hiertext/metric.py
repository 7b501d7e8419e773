"""HierText detection PQ at word, line and paragraph level (``hiertext_word``,
``hiertext_line``, ``hiertext_paragraph``).

Paper: Long et al., "Towards End-to-End Unified Scene Text Detection and Layout Analysis",
CVPR 2022; ICDAR 2023 competition on hierarchical text detection and recognition.
Official implementation matched: ``google-research-datasets/hiertext`` commit 70b6620,
``eval.py`` + ``evaluator/`` (run with numpy 1.24.4, opencv-python 4.1.2, shapely 2.0.7),
which produced ``shared/reference/*__hiertext_*.json``; spec ``HIERTEXT.md``.

Where this follows the code rather than the paper:

- word IoU carries the evaluator's ``+ 1e-5`` in the denominator (identical words score
  0.9999999), and words intersect only when their vertex boxes overlap with positive area;
- line / paragraph masks are OpenCV ``fillPoly`` rasters of the *words* (boundary pixels
  included), not of the line / paragraph polygons, except that an illegible GT paragraph
  (or a GT group without words) is the fill of its own loose vertices;
- two masks intersect only when their boxes overlap with positive area, so touching boxes
  give 0 although the masks share their border pixels (``box_prefilter=False`` counts every
  shared pixel);
- mask IoU and the don't-care precision are float32; the IoU sum is float64 (numpy 1.x);
- matching is mutual best with ``IoU >= 0.5``: a GT whose best detection prefers another GT
  stays unmatched even when a second detection would do;
- per image (the official code reports global numbers only) the official formula is applied
  to the image's counts: no GT and no detection gives R = P = F = T = PQ = 1.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from metrics.core.model import Problem, Sample, Severity
from metrics.core.results import SampleResult
from metrics.declare.spec import EvaluateBatch, ValidateBatch
from metrics.hiertext.masks import (
    OWN_WHEN_ILLEGIBLE,
    WordRasters,
    intersections,
    level_masks,
    own_rasters,
    word_rasters,
)
from metrics.hiertext.match import Overlaps, sample_result
from metrics.hiertext.params import HierTextParams
from metrics.hiertext.raster import Raster
from metrics.hiertext.tally import PqTally
from metrics.hiertext.words import word_overlaps
from metrics.shapes.cache import GeometryCache
from metrics.shapes.mode import Mode

LEVELS = ("word", "line", "paragraph")


def metric_id(level: str) -> str:
    return f"hiertext_{level}"


def _gt_dc_words(sample: Sample) -> np.ndarray:
    return np.fromiter((g.dont_care for g in sample.gt), dtype=bool, count=len(sample.gt))


def _mask_overlaps(
    sample: Sample,
    words: WordRasters,
    own: Mapping[int, Raster],
    level: str,
    params: HierTextParams,
) -> Overlaps:
    gt = level_masks(sample, words, own, level, "gt")
    det = level_masks(sample, words, {}, level, "det")
    inter = intersections(gt, det, box_prefilter=params.box_prefilter)
    return Overlaps(inter, inter, gt.area, det.area, masks=True)


def evaluate_sample(
    sample: Sample,
    params: HierTextParams,
    level: str,
    rasters: tuple[WordRasters, Mapping[int, Raster]] | None = None,
) -> SampleResult:
    """One level of one sample (``rasters``: its word rasters and own-vertex GT groups when
    already computed for its block)."""
    if level == "word":
        ov = word_overlaps([sample])[0]
        return sample_result(metric_id(level), sample.id, ov, _gt_dc_words(sample), params)
    hier = sample.hierarchy
    assert hier is not None
    groups = hier.levels[level].gt
    gt_dc = np.fromiter((g.dont_care for g in groups), dtype=bool, count=len(groups))
    if rasters is None:
        geometry = GeometryCache()
        rasters = (word_rasters([sample], geometry)[0], own_rasters([sample], level, geometry)[0])
    words, own = rasters
    ov = _mask_overlaps(sample, words, own, level, params)
    return sample_result(metric_id(level), sample.id, ov, gt_dc, params)


def evaluator(level: str) -> EvaluateBatch[HierTextParams]:
    def evaluate(
        samples: Sequence[Sample], params: HierTextParams, mode: Mode | None = None, /
    ) -> list[SampleResult]:
        if level == "word":
            return [
                sample_result(metric_id(level), s.id, ov, _gt_dc_words(s), params)
                for s, ov in zip(samples, word_overlaps(samples), strict=True)
            ]
        geometry = (mode or Mode()).cache
        words = word_rasters(samples, geometry)
        both = zip(words, own_rasters(samples, level, geometry), strict=True)
        return [evaluate_sample(s, params, level, r) for s, r in zip(samples, both, strict=True)]

    evaluate.__qualname__ = evaluate.__name__ = f"evaluate_{level}"
    return evaluate


def _float_words(sample: Sample, level: str, allow_float: bool) -> list[Problem]:
    """Line / paragraph masks need integer word vertices (OpenCV fillPoly rejects floats):
    refused with ``allow_float=false``, otherwise rasterised at the nearest pixel."""
    hier = sample.hierarchy
    assert hier is not None
    if allow_float:
        return []
    out = []
    for source, words, paths in (
        (sample.gt_source, sample.gt, hier.gt_paths),
        (sample.det_source, sample.det, hier.det_paths),
    ):
        for w, path in zip(words, paths, strict=True):
            if not w.integer:
                msg = (
                    f"{path}: word vertices must be integers for {metric_id(level)} "
                    "(the masks are drawn with OpenCV fillPoly, which rejects floats)"
                )
                out.append(Problem(Severity.ERROR, source or sample.id, None, msg, sample.id))
    return out


def validator(level: str) -> ValidateBatch[HierTextParams]:
    """Input rules of one level: HierText JSON at all, then the level's own problems."""

    def validate(samples: Sequence[Sample], params: HierTextParams) -> list[Problem]:
        if any(s.hierarchy is None for s in samples):
            what = "" if level == "word" else f" with {level}s"
            source = next((s.gt_source for s in samples if s.gt_source), None) or "GT"
            msg = f"{metric_id(level)} needs HierText JSON{what} (GT and detections)"
            return [Problem(Severity.ERROR, source, None, msg)]
        out: list[Problem] = []
        for s in samples:
            assert s.hierarchy is not None
            if level != "word":
                out.extend(s.hierarchy.levels[level].problems)
                out.extend(_float_words(s, level, params.allow_float))
        return out

    validate.__qualname__ = validate.__name__ = f"validate_{level}"
    return validate


def global_extras(results: Iterable[SampleResult]) -> dict[str, float]:
    """Global tightness and PQ of the summed tallies."""
    total = PqTally()
    for r in results:
        assert isinstance(r.tally, PqTally)
        total = total + r.tally
    return {"tightness": total.tightness, "pq": total.pq}


__all__ = ["LEVELS", "OWN_WHEN_ILLEGIBLE", "evaluate_sample", "evaluator", "global_extras"]
