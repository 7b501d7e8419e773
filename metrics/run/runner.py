"""The one loop over samples: validation, policy, workers, progress and cancellation.

``run`` evaluates one or several metrics over a dataset in a single pass (each sample
visited once, every metric applied to it). Input problems follow spec 6.1: ``strict``
refuses the whole evaluation listing every problem, ``skip_sample`` leaves out the samples
with errors and says which."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import metrics.run.guard as guard
import metrics.run.pool as pool
from metrics.catalogue.registry import METRICS, make_params
from metrics.core.logs import logger
from metrics.core.model import Dataset, Problem, Sample, Severity
from metrics.core.protocols import Params
from metrics.core.records import dataclass, field
from metrics.core.results import Evaluation, SampleResult, aggregate
from metrics.declare.spec import MetricSpec
from metrics.run.light import Light, light_detail, light_kind, strip
from metrics.run.pool import Cancelled as Cancelled  # re-exported: callers catch it here
from metrics.run.refusal import Policy as Policy  # re-exported: callers import it from here
from metrics.run.refusal import refuse, refuse_failures
from metrics.shapes.mode import Detail, Mode

log = logger(__name__)

Progress = Callable[[int, int], None]
Cancel = Callable[[], bool]


BLOCK = 256  # samples whose geometry is computed in one vectorized pass


@dataclass(frozen=True)
class Plan:
    """What ``--metric all`` runs: the metrics, those that skip some samples, the parameter
    values switched on by a metric's ``fallback`` (merged into the caller's overrides), the
    metrics left out with the reason, and the notes to show (which also say which images a
    lenient metric skips); ``fallbacks``: per metric, its note of the fallback values."""

    specs: list[MetricSpec[Params]]
    lenient: frozenset[str]
    notes: list[str]
    validated: dict[str, list[Problem]] = field(default_factory=dict)
    overrides: dict[str, dict[str, Any]] = field(default_factory=dict)
    left_out: dict[str, str] = field(default_factory=dict)
    fallbacks: dict[str, str] = field(default_factory=dict)


def _errors(found: Sequence[Problem]) -> list[Problem]:
    return [p for p in found if p.severity is Severity.ERROR]


def _with_fallback(
    spec: MetricSpec[Params], dataset: Dataset, own: Mapping[str, Any]
) -> tuple[list[Problem], dict[str, Any], str | None]:
    """Validation with the caller's overrides, or with the metric's fallback values when the
    defaults refuse the data and the fallback refuses less (and the caller set none of them)."""
    found = _validate(spec, dataset, make_params(spec, own))
    errors = _errors(found)
    fallback = spec.fallback or {}
    if not errors or not fallback or set(fallback) & set(own):
        return found, dict(own), None
    tried = {**own, **fallback}
    again = _validate(spec, dataset, make_params(spec, tried))
    if len(_errors(again)) >= len(errors):
        return found, dict(own), None
    sets = ", ".join(f"{k}={v}" for k, v in fallback.items())
    note = (
        f"{spec.id}: evaluated with {sets}; its defaults refuse {len(errors)} box(es), "
        f"first: {errors[0]}"
    )
    return again, tried, note


def plan_all(
    dataset: Dataset,
    specs: Sequence[MetricSpec[Params]],
    overrides: Mapping[str, Mapping[str, object]] | None = None,
) -> Plan:
    """Metrics whose input rules every sample breaks are left out; a metric that only some
    samples break runs without them (e.g. TedEval next to one curved polygon); a metric whose
    defaults refuse the data runs with its ``fallback`` values when they accept more."""
    keep, lenient, notes = [], set(), []
    validated: dict[str, list[Problem]] = {}
    merged: dict[str, dict[str, Any]] = {k: dict(v) for k, v in (overrides or {}).items()}
    left_out: dict[str, str] = {}
    fallbacks: dict[str, str] = {}
    for spec in specs:
        found, own, note = _with_fallback(spec, dataset, merged.get(spec.id, {}))
        merged[spec.id] = own
        if note:
            notes.append(note)
            fallbacks[spec.id] = note
        validated[spec.id] = found
        errors = _errors(found)
        bad = {p.sample_id for p in errors}
        if not errors:
            keep.append(spec)
        elif len(bad) < len(dataset) and None not in bad:
            keep.append(spec)
            lenient.add(spec.id)
            notes.append(f"{spec.id}: {len(bad)} image(s) skipped, first problem: {errors[0]}")
        else:
            left_out[spec.id] = f"{len(errors)} input error(s), first: {errors[0]}"
            notes.append(f"{spec.id} left out: {left_out[spec.id]}")
    return Plan(keep, frozenset(lenient), notes, validated, merged, left_out, fallbacks)


def meant_for(spec: MetricSpec[Params]) -> str:
    """What a metric asks of the data, in words (``requires``, else its ``applies`` rule)."""
    if spec.requires:
        return spec.requires
    doc = (spec.applies.__doc__ or "").strip().split("\n\n")[0]
    return " ".join(doc.split()) or "other inputs"


def plan_named(
    dataset: Dataset,
    specs: Sequence[MetricSpec[Params]],
    overrides: Mapping[str, Mapping[str, object]] | None = None,
) -> Plan:
    """Metrics named in a list (``--metric a,b,c``): one meant for other inputs (its
    ``applies`` false) whose input rules these inputs break is left out with the reason and
    the others run as asked; one that applies is evaluated under the policy (its errors
    refuse the run under ``strict``). A single named metric is never left out."""
    merged = {k: dict(v) for k, v in (overrides or {}).items()}
    if len(specs) < 2:
        return Plan(list(specs), frozenset(), [], {}, merged)
    keep, notes = [], []
    validated: dict[str, list[Problem]] = {}
    left_out: dict[str, str] = {}
    facts = dataset.facts
    for spec in specs:
        if spec.applies(facts):
            keep.append(spec)
            continue
        found = _validate(spec, dataset, make_params(spec, (overrides or {}).get(spec.id)))
        errors = _errors(found)
        if not errors:
            keep.append(spec)
            validated[spec.id] = found
            continue
        left_out[spec.id] = (
            f"meant for {meant_for(spec).rstrip('.')}; {len(errors)} input error(s), "
            f"first: {errors[0]}"
        )
        notes.append(f"{spec.id} left out: {left_out[spec.id]}")
    return Plan(keep, frozenset(), notes, validated, merged, left_out)


def _validate(spec: MetricSpec[Params], dataset: Dataset, prm: Params) -> list[Problem]:
    return spec.validate(dataset.samples, prm)


def _check(
    dataset: Dataset,
    specs: Sequence[MetricSpec[Params]],
    params: Sequence[Params],
    policy: Policy,
    lenient: frozenset[str] = frozenset(),
    validated: Mapping[str, list[Problem]] | None = None,
) -> tuple[list[Problem], dict[str, set[str]]]:
    """All problems (reader + per-metric validation); per metric the samples to leave out.

    Metrics in ``lenient`` skip the samples that break their own input rules even under the
    strict policy (``--metric all``); reader errors are always subject to ``policy``.
    """
    problems = list(dataset.problems)
    seen = set(problems)
    reader: list[Problem] = [p for p in problems if p.severity is Severity.ERROR]
    bad_reader = {
        p.sample_id
        for p in dataset.problems
        if p.severity is Severity.ERROR and p.sample_id is not None
    }
    excluded: dict[str, set[str]] = {}
    own: dict[str, list[Problem]] = {}  # per metric, the errors that refuse under strict
    for spec, prm in zip(specs, params, strict=True):
        bad = set(bad_reader)
        known = (validated or {}).get(spec.id)
        found = known if known is not None else _validate(spec, dataset, prm)
        problems.extend(p for p in found if p not in seen)
        seen.update(found)
        bad.update(p.sample_id for p in found if p.severity is Severity.ERROR and p.sample_id)
        if any(p.severity is Severity.ERROR and p.sample_id is None for p in found):
            bad.update(s.id for s in dataset)  # a dataset-level error: no sample can be used
        excluded[spec.id] = bad
        if spec.id not in lenient:
            own[spec.id] = [p for p in found if p.severity is Severity.ERROR]
    refuse(reader, own, policy, len(dataset))
    return problems, excluded


Rows = list[list[SampleResult | None]]
Failed = list[tuple[str, Problem]]  # (metric id, the error of a sample it failed on)


def evaluate_chunk(
    samples: Sequence[Sample],
    ids: Sequence[str],
    params: Sequence[Params],
    excluded: Mapping[str, set[str]],
    detail: Detail = Detail.FULL,
    kinds: Sequence[Light] | None = None,
) -> tuple[Rows, Failed]:
    """Results of every metric on every sample of the chunk (rows = samples), and the
    samples a metric failed on (``metrics.run.guard``: located errors, never a traceback).
    With ``kinds`` (one per metric) each result is cut down at once (``light.strip``).

    The chunk's metrics share one geometry cache (in the ``Mode`` passed to each), made
    here and dropped after it; ``detail`` says what of each result is read.
    """
    rows: Rows = [[None] * len(ids) for _ in samples]
    failed: Failed = []
    mode = Mode(detail)
    for warm in {m for m in (METRICS[i].warm for i in ids) if m is not None}:
        guard.warm(mode.cache, samples, warm)
    for col, (mid, prm) in enumerate(zip(ids, params, strict=True)):
        todo = [k for k, s in enumerate(samples) if s.id not in excluded[mid]]
        results, problems = guard.evaluate(METRICS[mid], [samples[k] for k in todo], prm, mode)
        failed.extend((mid, p) for p in problems)
        kind = "full" if kinds is None else kinds[col]
        for k, r in zip(todo, results, strict=True):
            rows[k][col] = r if r is None else strip(r, kind)
    mode.cache.clear()
    return rows, failed


def run(
    dataset: Dataset,
    specs: Sequence[MetricSpec[Params]],
    overrides: Mapping[str, Mapping[str, object]] | None = None,
    *,
    policy: Policy = "strict",
    lenient: frozenset[str] = frozenset(),
    validated: Mapping[str, list[Problem]] | None = None,
    workers: int = 1,
    progress: Progress | None = None,
    cancel: Cancel | None = None,
    first: str | None = None,
    detail: Detail = Detail.FULL,
    results: bool = True,
) -> list[Evaluation[Params]]:
    """Evaluate every metric of ``specs`` over ``dataset`` in one pass.

    ``first`` names a sample to evaluate before the others (the viewer's current image).
    ``detail`` says what of each result is read (``metrics.shapes.mode``; below FULL the
    evaluations are ``complete=False``). ``results`` False: nobody reads the per-sample
    results, each cut down as its block ends (``metrics.run.light``) and none kept.
    """
    params = [make_params(s, (overrides or {}).get(s.id)) for s in specs]
    problems, excluded = _check(dataset, specs, params, policy, lenient, validated)
    samples = list(dataset.samples)
    if first is not None:
        samples.sort(key=lambda s: s.id != first)
    t0 = time.perf_counter()
    ids = [s.id for s in specs]
    kinds = None if results else [light_kind(s) for s in specs]
    if kinds is not None:
        detail = light_detail(kinds, detail)
    rows, failed = evaluate_samples(
        samples,
        ids,
        params,
        excluded,
        detail=detail,
        workers=workers,
        progress=progress,
        cancel=cancel,
        kinds=kinds,
    )
    problems = apply_failures(failed, excluded, problems, policy, len(dataset))
    log.debug("evaluated %d samples in %.3fs", len(samples), time.perf_counter() - t0)
    by_id = {s.id: row for s, row in zip(samples, rows, strict=True)}
    return [
        _collect(dataset, spec, prm, k, by_id, problems, excluded[spec.id], detail, results)
        for k, (spec, prm) in enumerate(zip(specs, params, strict=True))
    ]


def evaluate_samples(
    samples: Sequence[Sample],
    ids: Sequence[str],
    params: Sequence[Params],
    excluded: Mapping[str, set[str]],
    *,
    detail: Detail = Detail.FULL,
    workers: int = 1,
    progress: Progress | None = None,
    cancel: Cancel | None = None,
    kinds: Sequence[Light] | None = None,
) -> tuple[Rows, Failed]:
    """The one loop over samples: every metric of ``ids`` (with ``params``) on every sample
    not in its ``excluded`` set, in blocks that share a geometry cache (``evaluate_chunk``),
    each metric behind the guard (``metrics.run.guard``). Rows align with ``samples``;
    ``failed`` names the samples a metric could not evaluate (``apply_failures`` applies the
    policy to them). ``run``, the analyses' re-evaluations (``metrics.analysis.engine``) and
    ``metrics.run.sharded``'s slices (through ``evaluate_chunk``) all evaluate here.

    In one process the blocks go in order, the first small so the first results come fast;
    with ``workers`` slices of at most ``BLOCK`` samples (so the geometry stays vectorized)
    are shared between this process and ``workers - 1`` worker processes
    (``metrics.run.pool``).
    """
    rows: Rows = []
    failed: Failed = []
    with pool.paused_gc():
        if workers > 1 and len(samples) > 1:
            job = functools.partial(
                evaluate_chunk,
                ids=ids,
                params=params,
                excluded=excluded,
                detail=detail,
                kinds=kinds,
            )
            bounds = pool.slice_bounds(len(samples), workers, BLOCK)
            for part in pool.run_slices(samples, job, bounds, workers, progress, cancel):
                rows.extend(part[0])
                failed.extend(part[1])
            return rows, failed
        start, size = 0, 1
        while start < len(samples):
            if cancel is not None and cancel():
                raise Cancelled()
            block = samples[start : start + size]
            done, problems = evaluate_chunk(block, ids, params, excluded, detail, kinds)
            rows.extend(done)
            failed.extend(problems)
            start += len(block)
            size = BLOCK
            if progress is not None:
                progress(len(rows), len(samples))
    return rows, failed


def apply_failures(
    failed: Failed,
    excluded: dict[str, set[str]],
    problems: list[Problem],
    policy: Policy,
    n_images: int,
) -> list[Problem]:
    """Samples a metric could not evaluate: under ``strict`` the run is refused with each
    listed (``refusal.refuse_failures``: ``skip_sample`` advised only where each metric
    would keep a score of the ``n_images``); under ``skip_sample`` they join the metric's
    excluded samples."""
    if not failed:
        return problems
    if policy == "strict":
        refuse_failures(failed, excluded, n_images)
    for mid, p in failed:
        if p.sample_id is not None:
            excluded[mid].add(p.sample_id)
    return [*problems, *(p for _, p in failed)]


def _collect(
    dataset: Dataset,
    spec: MetricSpec[Params],
    prm: Params,
    k: int,
    by_id: Mapping[str, list[SampleResult | None]],
    problems: list[Problem],
    excluded: set[str],
    detail: Detail,
    keep: bool = True,
) -> Evaluation[Params]:
    results: dict[str, SampleResult] = {}
    for s in dataset:
        r = by_id[s.id][k]
        if r is not None:
            results[s.id] = r
    if spec.finalize is not None and results:
        results = spec.finalize(results, prm)
    summary = aggregate(results.values()) if results else None
    extras = spec.global_extras(results.values()) if spec.global_extras and results else {}
    return Evaluation(
        spec.id,
        prm,
        results if keep else {},
        summary,
        extras,
        tuple(problems),
        tuple(sorted(excluded)),
        len(dataset),
        complete=detail is Detail.FULL,
    )
