"""The metric catalogue: ids, aliases, parameter types and which inputs each applies to."""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from metrics import cleval, curved, deteval, iou, tedeval, tiou, wordline
from metrics.model import BoxType, Dataset, Problem, Sample
from metrics.results import SampleResult

Evaluate = Callable[[Sample, Any], SampleResult]
EvaluateBatch = Callable[[Sequence[Sample], Any], list[SampleResult]]
Validate = Callable[[Sample, Any], list[Problem]]


@dataclass(frozen=True)
class MetricSpec:
    id: str
    title: str
    evaluate: Evaluate
    params_type: type
    validate: Validate | None = None
    aliases: tuple[str, ...] = ()
    needs_gt_lines: bool = False
    applies: Callable[[Dataset], bool] = lambda ds: True
    global_extras: Callable[[Iterable[SampleResult]], dict[str, float]] | None = None
    geometry: str | None = "icdar"  # bulk geometry mode the runner pre-computes
    evaluate_batch: EvaluateBatch | None = None  # same results as evaluate, many samples
    validate_batch: Callable[[Sequence[Sample], Any], list[Problem]] | None = None


def _no_poly(ds: Dataset) -> bool:
    """ICDAR family: any data that is not made of polygons only."""
    return not _poly(ds)


def _poly(ds: Dataset) -> bool:
    """Curved family: every GT box is a polygon (Total-Text, CTW1500 style)."""
    kinds = {g.box_type for s in ds for g in s.gt}
    return kinds == {BoxType.POLY}


def _ltrb_only(ds: Dataset) -> bool:
    return ds.box_types() <= {BoxType.LTRB}


def _transcribed(ds: Dataset) -> bool:
    """End-to-end metrics: every detection carries a transcription."""
    return ds.has_transcriptions


def _wordline(ds: Dataset) -> bool:
    return ds.gt_lines_path is not None and _no_poly(ds)


METRICS: dict[str, MetricSpec] = {
    s.id: s
    for s in [
        MetricSpec(
            "ic15_iou",
            "ICDAR15 IoU",
            iou.evaluate_sample,
            iou.IouParams,
            iou.validate,
            ("iou", "ic15"),
            applies=_no_poly,
            global_extras=iou.global_extras,
            evaluate_batch=iou.evaluate_batch,
            validate_batch=iou.validate_batch,
        ),
        MetricSpec(
            "siou",
            "SIoU",
            tiou.evaluate_sample_siou,
            tiou.TiouParams,
            tiou.validate,
            applies=_no_poly,
            evaluate_batch=tiou.evaluate_batch_siou,
            validate_batch=tiou.validate_batch,
        ),
        MetricSpec(
            "tiou",
            "TIoU",
            tiou.evaluate_sample,
            tiou.TiouParams,
            tiou.validate,
            applies=_no_poly,
            evaluate_batch=tiou.evaluate_batch,
            validate_batch=tiou.validate_batch,
        ),
        MetricSpec(
            "curved_iou",
            "curved IoU",
            curved.evaluate_sample_iou,
            curved.CurvedParams,
            curved.validate,
            ("ciou",),
            applies=_poly,
            geometry="curved",
            evaluate_batch=curved.evaluate_batch_iou,
        ),
        MetricSpec(
            "curved_siou",
            "curved SIoU",
            curved.evaluate_sample_siou,
            curved.CurvedParams,
            curved.validate,
            ("csiou",),
            applies=_poly,
            geometry="curved",
            evaluate_batch=curved.evaluate_batch_siou,
        ),
        MetricSpec(
            "curved_tiou",
            "curved TIoU",
            curved.evaluate_sample,
            curved.CurvedParams,
            curved.validate,
            ("ctiou",),
            applies=_poly,
            geometry="curved",
            evaluate_batch=curved.evaluate_batch,
        ),
        MetricSpec(
            "wordline_iou",
            "Word&Text-Line IoU",
            wordline.evaluate_sample_iou,
            wordline.WordlineParams,
            wordline.validate,
            ("wl_iou",),
            needs_gt_lines=True,
            applies=_wordline,
        ),
        MetricSpec(
            "wordline_tiou",
            "Word&Text-Line TIoU",
            wordline.evaluate_sample,
            wordline.WordlineParams,
            wordline.validate,
            ("wl_tiou",),
            needs_gt_lines=True,
            applies=_wordline,
        ),
        MetricSpec(
            "deteval",
            "ICDAR13 DetEval",
            deteval.evaluate_sample,
            deteval.DetEvalParams,
            deteval.validate,
            ("ic13", "deteval13"),
            applies=_ltrb_only,
            geometry=None,
        ),
        MetricSpec(
            "tedeval",
            "TedEval",
            tedeval.evaluate_sample,
            tedeval.TedEvalParams,
            tedeval.validate,
            ("ted",),
            applies=_no_poly,
            geometry=None,
            evaluate_batch=tedeval.evaluate_batch,
            validate_batch=tedeval.validate_batch,
            global_extras=tedeval.global_extras,
        ),
        MetricSpec(
            "cleval_det",
            "CLEval",
            cleval.evaluate_sample,
            cleval.ClevalParams,
            cleval.validate,
            ("cleval", "cleval_det_polyfix"),
            geometry=None,
            evaluate_batch=cleval.evaluate_batch,
            global_extras=cleval.global_extras,
        ),
        MetricSpec(
            "cleval_e2e",
            "CLEval end-to-end",
            cleval.evaluate_sample_e2e,
            cleval.ClevalParams,
            cleval.validate_e2e,
            ("cleval_e2e_polyfix",),
            applies=_transcribed,
            geometry=None,
            evaluate_batch=cleval.evaluate_batch_e2e,
            global_extras=cleval.global_extras,
        ),
        MetricSpec(
            "cleval_legacy_det",
            "CLEval (paper-era code)",
            cleval.evaluate_sample_legacy,
            cleval.ClevalLegacyParams,
            cleval.validate,
            ("cleval_legacy", "cleval_legacy_det_polyfix"),
            geometry=None,
            evaluate_batch=cleval.evaluate_batch_legacy,
            global_extras=cleval.global_extras,
        ),
        MetricSpec(
            "cleval_legacy_e2e",
            "CLEval end-to-end (paper-era code)",
            cleval.evaluate_sample_legacy_e2e,
            cleval.ClevalLegacyParams,
            cleval.validate_e2e,
            applies=_transcribed,
            geometry=None,
            evaluate_batch=cleval.evaluate_batch_legacy_e2e,
            global_extras=cleval.global_extras,
        ),
    ]
}


def resolve(name: str) -> MetricSpec:
    """Metric by id or alias (case-insensitive)."""
    key = name.strip().lower().replace("-", "_")
    if key in METRICS:
        return METRICS[key]
    for spec in METRICS.values():
        if key in spec.aliases:
            return spec
    raise KeyError(f"unknown metric {name!r}; known: {', '.join(METRICS)}")


def applicable(ds: Dataset) -> list[MetricSpec]:
    return [s for s in METRICS.values() if s.applies(ds)]


def _coerce(value: str, annotation: Any) -> Any:
    text = value.strip()
    if text.lower() in ("none", "null") and _allows_none(annotation):
        return None
    base = _base_type(annotation)
    if base is bool:
        if text.lower() in ("1", "true", "yes", "on"):
            return True
        if text.lower() in ("0", "false", "no", "off"):
            return False
        raise ValueError(f"expected true or false, got {value!r}")
    if base in (int, float):
        return base(text)
    return text


def _allows_none(annotation: Any) -> bool:
    return type(None) in typing.get_args(annotation)


def _base_type(annotation: Any) -> Any:
    if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is typing.Union:
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        return _base_type(args[0]) if args else str
    if typing.get_origin(annotation) is typing.Literal:
        return str
    return annotation


def make_params(spec: MetricSpec, overrides: Mapping[str, Any] | None = None) -> Any:
    """Params of a metric with overrides (strings are converted to the field types).

    Unknown keys raise KeyError naming the valid ones.
    """
    fields = {f.name: f for f in dataclasses.fields(spec.params_type)}
    hints = typing.get_type_hints(spec.params_type)
    kwargs: dict[str, Any] = {}
    for key, value in (overrides or {}).items():
        if key not in fields:
            raise KeyError(f"{spec.id} has no parameter {key!r}; it has: {', '.join(fields)}")
        kwargs[key] = _coerce(value, hints[key]) if isinstance(value, str) else value
    return spec.params_type(**kwargs)
