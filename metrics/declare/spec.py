"""The uniform surface of a metric: ``MetricSpec``, batch first.

Every family's ``specs`` module exposes ``SPECS``, a tuple of these built with keyword
arguments around the metric's ``Card`` (``metrics.declare.card``: id, title, aliases, ``applies``,
the texts; declared in the family's ``cards.py``). The runner
calls ``evaluate(samples, params)`` and ``validate(samples, params)`` on blocks of samples
and never asks which optional callables a metric has; a metric written per sample is lifted
with ``per_sample`` / ``each_sample``. The ``applies`` predicates say which datasets a metric
is offered for by ``--metric all``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar

from metrics.core.evidence import PairTable
from metrics.core.model import Dataset, Facts, Problem, Sample
from metrics.core.protocols import Params
from metrics.core.records import dataclass
from metrics.core.results import SampleResult
from metrics.declare.card import Card
from metrics.declare.offers import (
    POLYGON_SHARE,
    always,
    ctw1500_like,
    hierarchical,
    ltrb_only,
    polygon_data,
    quad_data,
    totaltext_like,
    transcribed,
    with_confidences,
    with_gt_lines,
)

if TYPE_CHECKING:
    from metrics.shapes.mode import Mode

__all__ = [  # the predicates live in metrics.declare.offers (light); re-exported for the families
    "AP_FILE_ORDER",
    "POLYGON_SHARE",
    "ConfidenceUse",
    "MetricSpec",
    "always",
    "ctw1500_like",
    "each_sample",
    "hierarchical",
    "ltrb_only",
    "no_problems",
    "per_sample",
    "polygon_data",
    "quad_data",
    "totaltext_like",
    "transcribed",
    "with_confidences",
    "with_gt_lines",
]

P = TypeVar("P")  # a metric's Params dataclass
P_co = TypeVar("P_co", bound=Params, covariant=True)  # ... of a spec
P_contra = TypeVar("P_contra", contravariant=True)


class EvaluateBatch(Protocol[P_contra]):
    """A metric's results for a block of samples: one per sample, in order; None for a
    sample the protocol does not evaluate at all (PaddleOCR drops images without GT): it
    gets no result and counts nowhere, and the metric's ``validate`` says so with a located
    warning. ``mode`` (``metrics.shapes.mode``) says what of each result is read and the
    geometry cache of the block; None: every result whole, a cache of its own."""

    def __call__(
        self, samples: Sequence[Sample], params: P_contra, mode: Mode | None = None, /
    ) -> Sequence[SampleResult | None]: ...


ValidateBatch = Callable[[Sequence[Sample], P], list[Problem]]
GlobalExtras = Callable[[Iterable[SampleResult]], dict[str, float]]
PairTableOf = Callable[[Sample, P], PairTable]
Finalize = Callable[[Mapping[str, SampleResult], P], dict[str, SampleResult]]


def no_problems(samples: Sequence[Sample], params: object) -> list[Problem]:
    """Validation of a metric that accepts every input the readers produce."""
    del samples, params
    return []


AP_FILE_ORDER = "ap_file_order"  # the extra of an AP over detections in file order


@dataclass(frozen=True)
class ConfidenceUse:
    """What a metric does with detection confidences, as its official script does; the
    commands' notes (which metrics rank, which report an AP) are derived from it.

    ``switch`` is its parameter that ranks the detections by confidence before matching:
    True ranks, False keeps file order, None (auto) ranks when every detection has one.
    ``ap``: ``""`` no AP; ``"ranked"`` the official AP, reported (extra ``ap``) only when
    the detections are ranked; ``"any_order"`` an AP over the evaluation order, reported
    as ``ap`` when ranked and as ``AP_FILE_ORDER`` when not. ``no_ap`` says why an AP the
    official script prints is not reported (``--json`` writes it under ``not_reported``).
    """

    switch: str = "confidences"
    ap: str = ""
    no_ap: str = ""

    def ranks(self, params: object) -> bool:
        """Whether these parameters rank detections that all carry a confidence."""
        return getattr(params, self.switch) is not False

    def not_reported(self, params: object) -> dict[str, str]:
        """``{"ap": why}`` when these parameters rank the detections and the official AP
        of that ranking is not a score (``no_ap``); else empty."""
        return {"ap": self.no_ap} if self.no_ap and self.ranks(params) else {}


@dataclass(frozen=True, kw_only=True, eq=False)
class MetricSpec(Generic[P_co]):
    """One metric: its card (id, title, aliases, ``applies``, texts), its parameters ``P``
    and the batch callables the runner uses. Compared and hashed by identity (each spec
    exists once; some fields are mappings).

    ``warm`` names the per-sample geometry mode the runner computes in bulk (into the
    cache of the ``Mode`` it passes) before calling ``evaluate`` (for metrics that read it
    sample by sample); batch metrics build their own.
    ``fallback`` names parameter values that ``--metric all`` (and the viewer) may switch on,
    with a note, when the official defaults refuse the data but these accept it (e.g. the
    curved family's ``auto_orient`` for counter-clockwise polygons); an explicit ``--metric``
    never switches anything on by itself. ``pair_table`` computes, for one image, the GT x
    detection values the metric decides on (the viewer's pair matrix); metrics whose
    evidence carries the table (``Evidence.pair_table``) need none.
    ``finalize(results, params)``, when given, is applied by the runner once every sample
    of the dataset has been evaluated (in the main process, whatever ``workers`` is) and
    returns the per-sample results to keep, same keys: for per-sample values that depend on
    the whole dataset (MMOCR shows each image at the globally best score threshold). It
    must not change tallies, so ``aggregate`` and subsets keep their meaning.
    ``view``, when given, turns a sample into the one this metric's results index (e.g. the
    lines of a HierText line metric instead of the words), for drawing and reading them.
    ``at_threshold(result, k)``, for metrics that sweep a score threshold, gives the result
    shown at the k-th threshold of the sweep (the viewer's threshold selector).
    ``extras_read_evidence`` False says that ``global_extras`` reads each result's tally,
    extra values and metric id only, never its evidence: worker processes then send the
    results it reads without their evidence (a TedEval or CLEval result's evidence is ten
    times its tally and extras, and pickling it cost as much CPU as half the evaluation).
    ``shardable`` says that ``validate`` over any split of the samples gives, concatenated,
    what it gives over the whole set (no rule about the set as a whole), so worker
    processes may each read, check and evaluate a part (``metrics.run.sharded``); a metric with
    ``finalize`` is never evaluated that way.
    ``extra_units`` names the unit of a global extra that counts things (CLEval: ``miss``
    in characters, ``fp`` in detections), printed after it in the notes.
    ``extra_counts`` names the global extras that count things (printed as integers); the
    others are scores or ratios (4 decimals, ``metrics.core.numbers``); the keys of
    ``extra_units`` are counts too.
    ``confidences`` (``ConfidenceUse``) says whether and under which parameter the metric
    ranks detections by confidence and whether it reports an AP; None: it does neither.
    """

    card: Card
    evaluate: EvaluateBatch[P_co]
    validate: ValidateBatch[P_co] = no_problems
    global_extras: GlobalExtras | None = None
    warm: str | None = None
    fallback: Mapping[str, str] | None = None
    pair_table: PairTableOf[P_co] | None = None
    finalize: Finalize[P_co] | None = None
    view: Callable[[Sample], Sample] | None = None
    at_threshold: Callable[[SampleResult, int], SampleResult] | None = None
    shardable: bool = True
    extras_read_evidence: bool = True
    confidences: ConfidenceUse | None = None
    extra_units: Mapping[str, str] | None = None
    extra_counts: frozenset[str] = frozenset()

    def extra_is_count(self, key: str) -> bool:
        """Is the global extra ``key`` a count (else a score or ratio)?"""
        return key in self.extra_counts or bool(self.extra_units and key in self.extra_units)

    # What the card says (read through the spec by the runner, the CLI and the viewer).
    @property
    def id(self) -> str:
        return self.card.id

    @property
    def title(self) -> str:
        return self.card.title

    @property
    def aliases(self) -> tuple[str, ...]:
        return self.card.aliases

    @property
    def applies(self) -> Callable[[Dataset | Facts], bool]:
        return self.card.applies

    @property
    def needs_gt_lines(self) -> bool:
        return self.card.needs_gt_lines

    @property
    def requires(self) -> str:
        """What ``applies`` asks of the data in words, where its predicate's docstring does
        not say it (the CLI's "X is meant for ..." warning)."""
        return self.card.requires

    @property
    def params_type(self) -> type[P_co]:
        """The metric's Params dataclass (its defaults are the official ones)."""
        cls: type[P_co] = self.card.params_type()
        return cls


def per_sample(fn: Callable[[Sample, P], SampleResult]) -> EvaluateBatch[P]:
    """A batch evaluator from a per-sample one (which builds every result whole and shares
    no geometry, so it reads nothing of the mode)."""

    def evaluate(
        samples: Sequence[Sample], params: P, mode: Mode | None = None, /
    ) -> list[SampleResult]:
        del mode
        return [fn(s, params) for s in samples]

    evaluate.__qualname__ = evaluate.__name__ = f"per_sample({fn.__name__})"
    return evaluate


def each_sample(fn: Callable[[Sample, P], list[Problem]]) -> ValidateBatch[P]:
    """A batch validator from a per-sample one."""

    def validate(samples: Sequence[Sample], params: P) -> list[Problem]:
        return [p for s in samples for p in fn(s, params)]

    validate.__qualname__ = validate.__name__ = f"each_sample({fn.__name__})"
    return validate
