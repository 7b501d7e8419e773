"""The uniform surface of a metric: ``MetricSpec``, batch first.

Every family exposes ``SPECS``, a tuple of these built with keyword arguments. The runner
calls ``evaluate(samples, params)`` and ``validate(samples, params)`` on blocks of samples
and never asks which optional callables a metric has; a metric written per sample is lifted
with ``per_sample`` / ``each_sample``. The ``applies`` predicates say which datasets a metric
is offered for by ``--metric all``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from metrics.model import BoxType, Dataset, Problem, Sample
from metrics.results import SampleResult

# One result per sample, in order; None for a sample the protocol does not evaluate at all
# (PaddleOCR drops images without GT): it gets no result and counts nowhere, and the
# metric's ``validate`` says so with a located warning.
EvaluateBatch = Callable[[Sequence[Sample], Any], Sequence[SampleResult | None]]
ValidateBatch = Callable[[Sequence[Sample], Any], list[Problem]]
GlobalExtras = Callable[[Iterable[SampleResult]], dict[str, float]]


def always(ds: Dataset) -> bool:
    """Offered for every dataset."""
    del ds
    return True


def no_problems(samples: Sequence[Sample], params: Any) -> list[Problem]:
    """Validation of a metric that accepts every input the readers produce."""
    del samples, params
    return []


@dataclass(frozen=True, kw_only=True)
class MetricSpec:
    """One metric: id, parameters and the batch callables the runner uses.

    ``warm`` names the per-sample geometry mode the runner computes in bulk before calling
    ``evaluate`` (for metrics that read it sample by sample); batch metrics build their own.
    """

    id: str
    title: str
    params_type: type
    evaluate: EvaluateBatch
    validate: ValidateBatch = no_problems
    aliases: tuple[str, ...] = ()
    needs_gt_lines: bool = False
    applies: Callable[[Dataset], bool] = always
    global_extras: GlobalExtras | None = None
    warm: str | None = None


def per_sample(fn: Callable[[Sample, Any], SampleResult]) -> EvaluateBatch:
    """A batch evaluator from a per-sample one."""

    def evaluate(samples: Sequence[Sample], params: Any) -> list[SampleResult]:
        return [fn(s, params) for s in samples]

    evaluate.__qualname__ = evaluate.__name__ = f"per_sample({fn.__name__})"
    return evaluate


def each_sample(fn: Callable[[Sample, Any], list[Problem]]) -> ValidateBatch:
    """A batch validator from a per-sample one."""

    def validate(samples: Sequence[Sample], params: Any) -> list[Problem]:
        return [p for s in samples for p in fn(s, params)]

    validate.__qualname__ = validate.__name__ = f"each_sample({fn.__name__})"
    return validate


def all_poly(ds: Dataset) -> bool:
    """Curved family: every GT box is a polygon (Total-Text, CTW1500 style)."""
    kinds = {g.box_type for s in ds for g in s.gt}
    return kinds == {BoxType.POLY}


def not_all_poly(ds: Dataset) -> bool:
    """ICDAR family: any data that is not made of polygons only."""
    return not all_poly(ds)


def ltrb_only(ds: Dataset) -> bool:
    return ds.box_types() <= {BoxType.LTRB}


def transcribed(ds: Dataset) -> bool:
    """End-to-end metrics: every detection carries a transcription."""
    return ds.has_transcriptions


def with_gt_lines(ds: Dataset) -> bool:
    """Word + text-line metrics: text-line GT given, and not a polygon dataset."""
    return ds.gt_lines_path is not None and not_all_poly(ds)
